#include "remote/agentprobe.h"

#include "agent/client/agentprobe.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace wb::ui {

QByteArray agentProbeRequest(const Target& target)
{
    // The same request body as the CLI's probe on an agent (agent/agentprobe.h).
    ProbeOptions options;
    if (auto url = parseUrl(target.url))
        options.request.url = *url;
    else
        options.request.url.original = target.url;
    options.request.method = target.method.empty() ? "GET" : target.method;
    options.request.headers = target.headers;
    options.request.body = target.body;
    options.tls.verifyPeer = target.tls.verifyPeer;
    options.allowHttp2 = target.httpVersion == HttpVersion::Http2;
    return QByteArray::fromStdString(agentProbeBody(options));
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

bool AgentProbe::start(const Target& target, const AgentEndpoint& loader)
{
    if (m_call) return false;
    m_loaderName = QString::fromStdString(loader.name);
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
