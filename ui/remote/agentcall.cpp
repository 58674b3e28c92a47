#include "remote/agentcall.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QUrl>

namespace wb::ui {

QString certificateFingerprint(const QSslCertificate& certificate)
{
    if (certificate.isNull()) return {};
    return QString::fromLatin1(certificate.digest(QCryptographicHash::Sha256).toHex());
}

AgentCall::AgentCall(const RemoteLoader& loader, QObject* parent)
    : QObject(parent)
    , m_loader(loader)
    , m_manager(new QNetworkAccessManager(this))
{
    m_loader.fingerprint = normalizeFingerprint(loader.fingerprint).value_or(QString());
    // An agent is reached directly (or through `ssh -L`): never through a proxy from the environment.
    m_manager->setProxy(QNetworkProxy::NoProxy);
}

AgentCall::~AgentCall()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void AgentCall::get(const QString& path)
{
    send("GET", path, {});
}

void AgentCall::post(const QString& path, const QByteArray& json)
{
    send("POST", path, json);
}

bool AgentCall::isRunning() const
{
    return !m_reply.isNull();
}

void AgentCall::abort()
{
    if (!m_reply) return;
    m_answer.cancelled = true;
    m_reply->abort(); // finished() follows, synchronously
}

bool AgentCall::checkPin(const QSslCertificate& certificate)
{
    const QString presented = certificateFingerprint(certificate);
    if (!presented.isEmpty()) m_answer.peerFingerprint = presented;
    if (presented.isEmpty()) return false;
    if (m_loader.fingerprint.isEmpty()) {
        m_answer.trust = AgentAnswer::Trust::NotPinned;
        return false;
    }
    m_answer.trust = presented == m_loader.fingerprint ? AgentAnswer::Trust::Pinned : AgentAnswer::Trust::Changed;
    return m_answer.trust == AgentAnswer::Trust::Pinned;
}

void AgentCall::send(const QByteArray& verb, const QString& path, const QByteArray& body)
{
    if (m_reply) return;
    m_answer = {};
    QNetworkRequest request(QUrl(QStringLiteral("https://%1%2").arg(m_loader.address, path)));
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    request.setSslConfiguration(tls);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false); // the agent speaks HTTP/1.1
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(m_timeoutMs);
    request.setRawHeader("Authorization", "Bearer " + m_loader.token.toUtf8());
    if (!body.isEmpty()) request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));

    QNetworkReply* reply = m_manager->sendCustomRequest(request, verb, body);
    m_reply = reply;
    connect(reply, &QNetworkReply::sslErrors, this, [this, reply](const QList<QSslError>& errors) {
        // Self-signed, so there are errors: they are ignored only for the pinned certificate.
        QSslCertificate presented = reply->sslConfiguration().peerCertificate();
        if (presented.isNull() && !errors.isEmpty()) presented = errors.first().certificate();
        if (checkPin(presented)) reply->ignoreSslErrors(errors);
    });
    connect(reply, &QNetworkReply::encrypted, this, [this, reply] {
        // Also a certificate that raised no error (one a system CA signed) must be the pinned one.
        if (!checkPin(reply->sslConfiguration().peerCertificate())) reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, &AgentCall::done);
}

void AgentCall::done()
{
    QNetworkReply* reply = m_reply;
    if (!reply) return;
    m_reply = nullptr;
    reply->deleteLater();
    m_answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->isOpen()) m_answer.body = reply->readAll(); // an aborted reply is closed
    const QString where = m_loader.address;
    if (m_answer.cancelled) {
        m_answer.error = tr("cancelled");
    } else if (m_answer.trust == AgentAnswer::Trust::Changed) {
        m_answer.error
            = tr("the certificate of %1 has CHANGED: pinned %2, presented %3. Refused.")
                  .arg(where, displayFingerprint(m_loader.fingerprint), displayFingerprint(m_answer.peerFingerprint));
    } else if (m_answer.trust == AgentAnswer::Trust::NotPinned) {
        m_answer.error = tr("the certificate of %1 is not pinned yet (SHA-256 %2)")
                             .arg(where, displayFingerprint(m_answer.peerFingerprint));
    } else if (m_answer.status == 401) {
        m_answer.error = tr("token refused by %1 (401)").arg(where);
    } else if (m_answer.status >= 200 && m_answer.status < 300 && reply->error() == QNetworkReply::NoError) {
        m_answer.error.clear();
    } else if (m_answer.status != 0) {
        // The agent's errors are {"error":"one sentence"}.
        const QString said = QJsonDocument::fromJson(m_answer.body).object().value(QStringLiteral("error")).toString();
        m_answer.error = said.isEmpty() ? tr("%1 answered %2").arg(where).arg(m_answer.status)
                                        : tr("%1 answered %2: %3").arg(where).arg(m_answer.status).arg(said);
    } else if (reply->error() == QNetworkReply::OperationCanceledError
        || reply->error() == QNetworkReply::TimeoutError) {
        m_answer.error = tr("%1 did not answer within %2 s").arg(where).arg(m_timeoutMs / 1000.0);
    } else {
        m_answer.error = tr("%1: %2").arg(where, reply->errorString());
    }
    emit finished(m_answer);
}

std::optional<AgentHealth> parseAgentHealth(const QByteArray& body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.value(QStringLiteral("agent")).toString() != QStringLiteral("wrkbench")) return std::nullopt;
    AgentHealth h;
    h.version = o.value(QStringLiteral("version")).toString();
    h.host = o.value(QStringLiteral("host")).toString();
    h.busy = o.value(QStringLiteral("busy")).toBool();
    for (const QJsonValue& v : o.value(QStringLiteral("allow")).toArray())
        h.allow << v.toString();
    h.maxDurationS = o.value(QStringLiteral("max_duration_s")).toInteger();
    h.clock = o.value(QStringLiteral("clock")).toString();
    return h;
}

} // namespace wb::ui
