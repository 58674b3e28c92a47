#pragma once
// The probe of a target asked from a remote loader (POST /v1/probe, docs/AGENT.md):
// "does it answer?" from where the load will come from, not from the workstation.
// The agent answers with the probe result as the engine writes it
// (ProbeResult::toJsonText), or {"error": "one sentence"} when the target did not answer.

#include "control/probetask.h"
#include "remote/agentcall.h"
#include "store/sessiontypes.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

namespace wb::ui {

/// The body of POST /v1/probe for target (as a run of it would send its request).
QByteArray agentProbeRequest(const Target& target);
/// A probe outcome from the agent's answer.
ProbeOutcome agentProbeOutcome(const AgentAnswer& answer, const QString& loaderName);

class AgentProbe : public QObject
{
    Q_OBJECT
public:
    /// Generous: the agent's own probe may wait its timeouts (5 s or the run's) first.
    static constexpr int TIMEOUT_MS = 60'000;

    explicit AgentProbe(QObject* parent = nullptr);

    /// Asks loader to probe target. False when already started.
    bool start(const Target& target, const AgentEndpoint& loader);
    /// finished() follows with cancelled set.
    void cancel();
    bool isRunning() const { return m_call && m_call->isRunning(); }
    const QString& loaderName() const { return m_loaderName; }

signals:
    void finished(const wb::ui::ProbeOutcome& outcome);

private:
    QPointer<AgentCall> m_call;
    QString m_loaderName;
    qint64 m_startedMs = 0;
};

} // namespace wb::ui
