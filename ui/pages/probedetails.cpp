#include "pages/probedetails.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>

namespace wb::ui {

namespace {

QString html(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString endpoint(const std::string& ip, uint16_t port)
{
    const QString host = QString::fromStdString(ip);
    return (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host) + QLatin1Char(':')
        + QString::number(port);
}

QString joined(const std::vector<std::string>& items)
{
    QStringList out;
    for (const std::string& s : items)
        out << QString::fromStdString(s);
    return out.join(QStringLiteral(", "));
}

QString msText(uint64_t us)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(static_cast<double>(us) / 1000.0, 'f', 3)
        + QStringLiteral(" ms");
}

/// One row of the table; value is HTML already.
QString row(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><td style='color:#555555; padding-right:14px; white-space:nowrap'>%1</td>"
                          "<td>%2</td></tr>")
        .arg(label.toHtmlEscaped(), value);
}

QString certificateHtml(const ProbeCertificate& c)
{
    QString out = QStringLiteral("<b>%1</b><br>issued by %2").arg(html(c.subject), html(c.issuer));
    if (!c.sans.empty()) out += QStringLiteral("<br>names %1").arg(joined(c.sans).toHtmlEscaped());
    QString expiry = expiryText(c.daysToExpiry).toHtmlEscaped();
    if (const QColor color = expiryColor(c.daysToExpiry); color.isValid())
        expiry = QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>").arg(color.name(), expiry);
    out += QStringLiteral("<br>valid %1 to %2 (%3)").arg(html(c.notBefore), html(c.notAfter), expiry);
    return out;
}

} // namespace

QColor expiryColor(int64_t daysToExpiry)
{
    if (daysToExpiry < 0) return EXPIRED_COLOR;
    if (daysToExpiry < EXPIRY_WARNING_DAYS) return EXPIRY_WARNING_COLOR;
    return {};
}

QString expiryText(int64_t daysToExpiry)
{
    if (daysToExpiry < 0)
        return daysToExpiry == -1 ? QObject::tr("expired 1 day ago")
                                  : QObject::tr("expired %1 days ago").arg(-daysToExpiry);
    return daysToExpiry == 1 ? QObject::tr("1 day left") : QObject::tr("%1 days left").arg(daysToExpiry);
}

QVector<WaterfallPhase> waterfallPhases(const ProbeResult& probe)
{
    const std::vector<ProbeSpan> spans = probe.spans();
    QVector<WaterfallPhase> rows;
    double endMs = 0;
    for (size_t i = 0; i < PROBE_PHASES.size(); ++i) {
        const ProbePhase phase = PROBE_PHASES[i];
        WaterfallPhase row;
        row.label = QString::fromUtf8(phaseLabel(phase).data(), static_cast<qsizetype>(phaseLabel(phase).size()));
        row.color = waterfallColor(static_cast<int>(i));
        const auto span
            = std::find_if(spans.begin(), spans.end(), [phase](const ProbeSpan& s) { return s.phase == phase; });
        if (span == spans.end()) {
            row.happened = false;
            row.startMs = endMs;
            row.note = phase == ProbePhase::Tls && !probe.usedTls() ? QObject::tr("no TLS (http)") : QObject::tr("—");
        } else {
            row.startMs = static_cast<double>(span->startUs) / 1000.0;
            row.durationMs = static_cast<double>(span->durationUs) / 1000.0;
            endMs = static_cast<double>(span->endUs()) / 1000.0;
        }
        rows.append(row);
    }
    return rows;
}

QString probeDetailsHtml(const ProbeResult& p)
{
    QString out = QStringLiteral("<table cellspacing='0' cellpadding='2'>");
    QString remote = p.remoteIp.empty() ? QStringLiteral("—") : endpoint(p.remoteIp, p.remotePort).toHtmlEscaped();
    if (!p.addresses.empty()) remote += QObject::tr(" (resolves to %1)").arg(joined(p.addresses).toHtmlEscaped());
    if (p.connectionReused) remote += QObject::tr(", connection reused");
    out += row(QObject::tr("Remote"), remote);
    if (!p.localIp.empty()) out += row(QObject::tr("Local"), endpoint(p.localIp, p.localPort).toHtmlEscaped());
    out += row(QObject::tr("HTTP"),
        html(p.httpVersion) + (p.alpn.empty() ? QString() : QObject::tr(", ALPN %1").arg(html(p.alpn))));
    out += row(QObject::tr("TLS"),
        p.usedTls() ? QStringLiteral("%1, %2").arg(html(p.tlsVersion), html(p.cipher))
                    : QObject::tr("<span style='color:#777777'>none (plain http)</span>"));
    for (size_t i = 0; i < p.certificates.size(); ++i)
        out += row(
            i == 0 ? QObject::tr("Certificate") : QObject::tr("Chain %1").arg(i), certificateHtml(p.certificates[i]));

    QString response
        = QStringLiteral("<b>%1</b>").arg(p.statusLine.empty() ? QString::number(p.statusCode) : html(p.statusLine));
    for (const Header& h : p.headers)
        response += QStringLiteral("<br><span style='color:#555555'>%1:</span> %2").arg(html(h.name), html(h.value));
    out += row(QObject::tr("Response"), response);
    out += row(QObject::tr("Body"),
        p.bodyBytes == 1
            ? QObject::tr("1 byte")
            : QObject::tr("%1 bytes")
                  .arg(
                      QLocale(QLocale::English, QLocale::UnitedStates).toString(static_cast<qulonglong>(p.bodyBytes))));
    for (const ProbeRedirect& r : p.redirects)
        out += row(QObject::tr("Redirect"),
            QStringLiteral("%1 %2 → %3 ").arg(QString::number(r.statusCode), html(r.fromUrl), html(r.toUrl))
                + (r.followed ? QObject::tr("(followed, took %1)").arg(msText(r.totalUs))
                              : QObject::tr("(not followed)")));
    if (p.redirectUs) out += row(QObject::tr("+ redirects"), msText(p.redirectUs));
    return out + QStringLiteral("</table>");
}

} // namespace wb::ui
