#include "remote/agentprobe.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace wb::ui {

QByteArray agentProbeRequest(const Target& target)
{
    QJsonObject o;
    o.insert(QStringLiteral("url"), QString::fromStdString(target.url));
    o.insert(QStringLiteral("method"), QString::fromStdString(target.method.empty() ? "GET" : target.method));
    QJsonArray headers;
    for (const Header& h : target.headers)
        headers.append(QString::fromStdString(h.name + ": " + h.value));
    o.insert(QStringLiteral("headers"), headers);
    o.insert(QStringLiteral("body"), QString::fromStdString(target.body));
    o.insert(QStringLiteral("insecure"), !target.tls.verifyPeer);
    o.insert(QStringLiteral("http2"), target.httpVersion == HttpVersion::Http2);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

ProbeOutcome agentProbeOutcome(const AgentAnswer& answer, const QString& loaderName)
{
    ProbeOutcome out;
    if (answer.cancelled) {
        out.cancelled = true;
        return out;
    }
    if (!answer.ok()) {
        // The target's failure is the agent's sentence; anything else (TLS, token, a busy agent) says who.
        const QString said = QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("error")).toString();
        out.error = answer.status != 0 && answer.status != 401 && !said.isEmpty()
            ? QObject::tr("%1 (probed from %2)").arg(said, loaderName)
            : QObject::tr("remote loader %1: %2").arg(loaderName, answer.error);
        return out;
    }
    auto result = ProbeResult::fromJsonText(answer.body.toStdString());
    if (!result) {
        out.error = QObject::tr("remote loader %1 answered a probe that does not read: %2")
                        .arg(loaderName, QString::fromStdString(result.error()));
        return out;
    }
    out.ok = true;
    out.result = std::move(*result);
    return out;
}

AgentProbe::AgentProbe(QObject* parent)
    : QObject(parent)
{ }

bool AgentProbe::start(const Target& target, const RemoteLoader& loader)
{
    if (m_call) return false;
    m_loaderName = loader.name;
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_call = new AgentCall(loader, this);
    m_call->setTimeoutMs(TIMEOUT_MS);
    connect(m_call, &AgentCall::finished, this, [this](const AgentAnswer& answer) {
        ProbeOutcome out = agentProbeOutcome(answer, m_loaderName);
        out.elapsedMs = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedMs);
        out.probedFrom = m_loaderName;
        emit finished(out);
    });
    m_call->post(QStringLiteral("/v1/probe"), agentProbeRequest(target));
    return true;
}

void AgentProbe::cancel()
{
    if (m_call) m_call->abort();
}

} // namespace wb::ui
