#pragma once
// The Probe dialog: one request to the selected target (wb::probe, off the UI
// thread), shown as a waterfall of its phases and the details learnt on the
// way (addresses, HTTP version, ALPN, TLS, certificate chain, status line,
// headers, body size, redirects). Closing it (Esc) cancels a probe still going.
// With a remote loader given, the request is sent by that loader's agent
// (AgentProbe, POST /v1/probe) and the dialog says "probed from vm1".

#include "control/probetask.h"
#include "remote/remoteloaders.h"
#include "store/sessiontypes.h"

#include <QDialog>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace wb::ui {

class AgentProbe;
class ProbeWaterfall;

class ProbeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ProbeDialog(QWidget* parent = nullptr);
    ~ProbeDialog() override;

    /// Probes target now (a probe still going is cancelled) and shows the result when it arrives.
    void probe(const Target& target);
    /// Asks remote loader `from` to probe target (its agent sends the request).
    void probe(const Target& target, const AgentEndpoint& from);
    bool isProbing() const;
    /// The last probe that ended (ok, failed or cancelled).
    const ProbeOutcome& outcome() const { return m_outcome; }
    const Target& target() const { return m_target; }

    /// "Probing…", the status line with the total time, or the error.
    QString statusText() const;
    /// The details as plain text.
    QString detailsText() const;

    /// Shows a probe that has ended (also one kept from earlier, for target).
    void showOutcome(const Target& target, const ProbeOutcome& outcome);

    /// Closing cancels a probe still going.
    void done(int result) override;

signals:
    void probeFinished(const wb::ui::ProbeOutcome& outcome);

private:
    void setTarget(const Target& target);
    /// Forgets the current task; one still probing is cancelled and goes when its thread ends.
    void dropTask();
    void showOutcome(const ProbeOutcome& outcome);
    void copyJson();

    Target m_target;
    ProbeTask* m_task = nullptr;
    AgentProbe* m_remote = nullptr;
    std::optional<AgentEndpoint> m_from; ///< the remote loader of the last probe; none = this workstation
    ProbeOutcome m_outcome;

    QLabel* m_title;
    QLabel* m_served;
    QProgressBar* m_busy;
    QLabel* m_status;
    ProbeWaterfall* m_waterfall;
    QTextBrowser* m_details;
    QPushButton* m_again;
    QPushButton* m_copy;
};

} // namespace wb::ui
