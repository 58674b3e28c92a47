#pragma once
// A long run on a terminal shows its progress: one status line on stderr, rewritten at every
// interval and erased before anything else is printed, so stdout (the report, wrk's line for
// line) and a stderr that is a file or a pipe stay exactly as without it.

#include "run/runobserver.h"

#include <string>

namespace wb::cli {

class ProgressLine : public RunObserver
{
public:
    /// Shown only when `enabled` and stderr is a terminal.
    explicit ProgressLine(bool enabled);
    ~ProgressLine() override;
    /// Whether the line is shown (a caller that prints around it defers what it would overwrite).
    bool shown() const { return m_enabled; }
    /// Said before the run's figures, for a run that is one of many ("trial 7, A at 2k req/s, 14m
    /// of the budget left"); set between runs.
    void setContext(std::string context) { m_context = std::move(context); }

    void onStarted(const RunConfig& config) override;
    void onInterval(const IntervalRecord& interval) override;
    void onFinished(const RunResult&) override;

    /// "3.0s of 10s, 12.35k req/s, p50 1.23ms, p99 4.56ms, 0 errors, 0 non-2xx": what the line
    /// says of one interval (`measuredS` of `plannedS` seconds measured so far; 0 = open end).
    static std::string describe(const IntervalRecord& interval, double measuredS, double plannedS);
    /// Erases the line shown, if any (before a warning or the report).
    static void erase();

private:
    bool m_enabled = false;
    double m_plannedS = 0;
    std::string m_context;
};

} // namespace wb::cli
