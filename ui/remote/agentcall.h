#pragma once
// One request to a remote loader's agent (docs/AGENT.md) over Qt Network, never blocking the UI thread. Trust is by
// pinning, as SSH pins a host key: the agent's certificate is self-signed, so Qt's SSL errors are ignored only when its
// SHA-256 digest equals the pinned fingerprint. With no pin the call fails and the answer carries the fingerprint for
// the user to decide (trust on first use); a different one (Trust::Changed) is never accepted, and a certificate the
// system's CAs trust is held to the pin too. The bearer token goes with every request; a 401 is "token refused". Each
// call has its own QNetworkAccessManager, so nothing of an earlier connection (a TLS session, a pin) is reused.

#include "remote/remoteloaders.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

class QNetworkAccessManager;
class QNetworkReply;
class QSslCertificate;

namespace wb::ui {

struct AgentAnswer
{
    enum class Trust {
        Unknown, ///< no certificate seen (connection refused, name not found, timed out before TLS)
        Pinned, ///< the certificate is the pinned one
        NotPinned, ///< no fingerprint pinned yet: peerFingerprint is what to show and ask about
        Changed, ///< the certificate is not the pinned one: refused, say it loudly
    };
    Trust trust = Trust::Unknown;
    QString peerFingerprint; ///< SHA-256 of the certificate presented, lower-case hex; "" when none seen
    int status = 0; ///< the HTTP status; 0 when no HTTP answer came
    QByteArray body;
    QString error; ///< one sentence when the call did not get a 2xx answer; "" otherwise
    bool cancelled = false; ///< abort() was called

    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// The lower-case hex SHA-256 of a certificate (what the agent prints, without colons).
QString certificateFingerprint(const QSslCertificate& certificate);

class AgentCall : public QObject
{
    Q_OBJECT
public:
    static constexpr int DEFAULT_TIMEOUT_MS = 10'000;

    explicit AgentCall(const AgentEndpoint& loader, QObject* parent = nullptr);
    ~AgentCall() override;

    /// Transfer timeout (QNetworkRequest::setTransferTimeout): no byte for that long ends the call.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    const AgentEndpoint& loader() const { return m_loader; }

    void get(const QString& path);
    void post(const QString& path, const QByteArray& json);
    /// Gives up; finished() follows with cancelled set.
    void abort();
    bool isRunning() const;

signals:
    /// Once per call, on the UI thread.
    void finished(const wb::ui::AgentAnswer& answer);

private:
    void send(const QByteArray& verb, const QString& path, const QByteArray& body);
    /// Notes the certificate presented; true when it is the pinned one.
    bool checkPin(const QSslCertificate& certificate);
    void done();

    AgentEndpoint m_loader;
    int m_timeoutMs = DEFAULT_TIMEOUT_MS;
    QNetworkAccessManager* m_manager;
    QPointer<QNetworkReply> m_reply;
    AgentAnswer m_answer;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::AgentAnswer)
