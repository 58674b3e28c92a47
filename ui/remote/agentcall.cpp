#include "remote/agentcall.h"

#include "agent/channel/agentanswer.h"
#include "agent/channel/agentcredentials.h"

#include <QCryptographicHash>
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

AgentCall::AgentCall(const AgentEndpoint& loader, QObject* parent)
    : QObject(parent)
    , m_loader(loader)
    , m_manager(new QNetworkAccessManager(this))
{
    const auto pin = wb::normalizeFingerprint(loader.fingerprint);
    m_loader.fingerprint = pin ? *pin : std::string();
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
    if (m_loader.fingerprint.empty()) {
        m_answer.trust = AgentAnswer::Trust::NotPinned;
        return false;
    }
    // The engine's rule, as its own client applies it (agentchannel/agentanswer.h).
    m_answer.trust = wb::checkPin(presented.toStdString(), m_loader.fingerprint) == PinCheck::Pinned
        ? AgentAnswer::Trust::Pinned
        : AgentAnswer::Trust::Changed;
    return m_answer.trust == AgentAnswer::Trust::Pinned;
}

void AgentCall::send(const QByteArray& verb, const QString& path, const QByteArray& body)
{
    if (m_reply) return;
    m_answer = {};
    QNetworkRequest request(QUrl(QStringLiteral("https://%1%2").arg(QString::fromStdString(m_loader.address), path)));
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    request.setSslConfiguration(tls);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false); // the agent speaks HTTP/1.1
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(m_timeoutMs);
    request.setRawHeader("Authorization", QByteArray::fromStdString("Bearer " + m_loader.token));
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
    const QString where = QString::fromStdString(m_loader.address);
    if (m_answer.cancelled) {
        m_answer.error = tr("cancelled");
    } else if (m_answer.trust == AgentAnswer::Trust::Changed || m_answer.trust == AgentAnswer::Trust::NotPinned) {
        const PinCheck pin = m_answer.trust == AgentAnswer::Trust::Changed ? PinCheck::Changed : PinCheck::NotPinned;
        m_answer.error = QString::fromStdString(
            pinProblem(pin, m_loader.name, m_answer.peerFingerprint.toStdString(), m_loader.fingerprint));
    } else if (m_answer.status >= 200 && m_answer.status < 300 && reply->error() == QNetworkReply::NoError) {
        m_answer.error.clear();
    } else if (m_answer.status != 0) {
        // What the engine's client would say of the same answer (agentchannel/agentanswer.h).
        const std::string said = agentAnswerError(
            m_answer.status, std::string_view(m_answer.body.constData(), static_cast<size_t>(m_answer.body.size())));
        m_answer.error = tr("%1: %2").arg(where, QString::fromStdString(said));
    } else if (reply->error() == QNetworkReply::OperationCanceledError
        || reply->error() == QNetworkReply::TimeoutError) {
        m_answer.error = tr("%1 did not answer within %2 s").arg(where).arg(m_timeoutMs / 1000.0);
    } else {
        m_answer.error = tr("%1: %2").arg(where, reply->errorString());
    }
    emit finished(m_answer);
}

} // namespace wb::ui
