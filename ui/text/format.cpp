#include "text/format.h"

#include "report/units.h"
#include "run/runconfig.h"
#include "store/sessiontypes.h"
#include "wrk/wrktext.h"

#include <QPainter>
#include <QPixmap>
#include <QStringList>
#include <cmath>

namespace wb::ui {

QLocale numberLocale()
{
    QLocale locale;
    if (locale.language() == QLocale::C) locale = QLocale(QLocale::English, QLocale::UnitedStates);
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

QString formatCount(double value)
{
    if (std::isnan(value)) return QStringLiteral("—");
    return numberLocale().toString(std::llround(value));
}

QString formatRate(double perS)
{
    if (std::isnan(perS)) return QStringLiteral("—");
    return numberLocale().toString(perS, 'f', 1);
}

QString formatUsAsMs(double us)
{
    if (std::isnan(us)) return QStringLiteral("—");
    const double ms = us / 1000.0;
    // Three significant digits for small values, whole numbers from 1 s on.
    const int decimals = ms < 1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0;
    return numberLocale().toString(ms, 'f', decimals);
}

QString formatBytesPerS(double bytesPerS)
{
    if (std::isnan(bytesPerS)) return QStringLiteral("—");
    static const char* const UNITS[] = { "B/s", "kB/s", "MB/s", "GB/s" };
    int unit = 0;
    double v = bytesPerS;
    while (v >= 1000 && unit < 3) {
        v /= 1000;
        ++unit;
    }
    return numberLocale().toString(v, 'f', unit == 0 ? 0 : 2) + QLatin1Char(' ') + QLatin1String(UNITS[unit]);
}

QString formatDeltaPct(double pct)
{
    if (std::isnan(pct) || std::isinf(pct)) return QStringLiteral("—");
    const QString number = numberLocale().toString(std::fabs(pct), 'f', 1);
    if (std::fabs(pct) < 0.05) return QStringLiteral("±0.0 %");
    return (pct > 0 ? QStringLiteral("+") : QStringLiteral("−")) + number + QStringLiteral(" %");
}

QString countText(qint64 n, const char* one, const char* many)
{
    return numberLocale().toString(n) + QLatin1Char(' ') + QString::fromUtf8(n == 1 ? one : many);
}

QString formatClock(double seconds)
{
    const long total = std::lround(std::max(0.0, seconds));
    const long h = total / 3600;
    const long m = (total / 60) % 60;
    const long s = total % 60;
    if (h > 0) return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

QString describeRunLoad(const RunRecord& run)
{
    const QString load = describeLoad(run.config);
    const bool stopped = run.status == RunStatus::Stopped || (run.hasTotals && run.totals.stoppedEarly);
    if (!stopped || !run.hasTotals) return load;
    return QStringLiteral("%1, stopped after %2 s").arg(load, numberLocale().toString(run.totals.durationS, 'f', 1));
}

QString describeProtocol(const RunConfig& config, const std::string& spoken)
{
    return QString::fromStdString(protocolDescription(config, spoken)); // the CLI report's words
}

QString describeLoad(const RunConfig& load)
{
    const RunConfig c = load.normalized(); // as it runs: a connection ramp opens its highest stage's count
    QStringList parts;
    parts << QStringLiteral("-t%1").arg(c.threads) << QStringLiteral("-c%1").arg(c.connections);
    if (!c.stages.empty()) {
        parts << QStringLiteral("stages %1")
                     .arg(QString::fromStdString(formatTimeS(static_cast<double>(c.durationUs) / 1e6)));
        if (!c.stagesAreConnections) parts << QStringLiteral("(rate)");
    } else {
        parts << QStringLiteral("-d%1").arg(
            QString::fromStdString(formatTimeS(static_cast<double>(c.durationUs) / 1e6)));
    }
    if (c.ratePerS > 0) parts << QStringLiteral("-R%1").arg(std::llround(c.ratePerS));
    if (c.pipeline > 1) parts << QStringLiteral("--pipeline %1").arg(c.pipeline);
    if (c.http2()) parts << QStringLiteral("--http2");
    if (c.http3()) parts << QStringLiteral("--http3");
    if (c.streams > 1) parts << QStringLiteral("-m%1").arg(c.streams);
    if (c.warmupUs > 0)
        parts << QStringLiteral("--warmup %1")
                     .arg(QString::fromStdString(formatTimeS(static_cast<double>(c.warmupUs) / 1e6)));
    return parts.join(QLatin1Char(' '));
}

QColor deltaColor(double pct, bool higherIsBetter)
{
    // Within 1 % is noise on any real network: neither colour.
    if (std::isnan(pct) || std::fabs(pct) < 1.0) return QColor();
    const bool better = higherIsBetter ? pct > 0 : pct < 0;
    return better ? QColor(0x1b, 0x8a, 0x3c) : QColor(0xc6, 0x28, 0x28);
}

QColor noiseColor()
{
    return QColor(0x75, 0x75, 0x75);
}

QIcon colorIcon(const QColor& color, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(QRectF(1, 1, size - 2, size - 2));
    return QIcon(pixmap);
}

QColor statusColor(const QString& status)
{
    if (status == QLatin1String("completed")) return QColor(0x1b, 0x8a, 0x3c);
    if (status == QLatin1String("running")) return QColor(0x15, 0x65, 0xc0);
    if (status == QLatin1String("stopped")) return QColor(0xb2, 0x6a, 0x00);
    if (status == QLatin1String("failed") || status == QLatin1String("interrupted")) return QColor(0xc6, 0x28, 0x28);
    if (status == QLatin1String("imported")) return QColor(0x6a, 0x1b, 0x9a);
    return QColor();
}

} // namespace wb::ui
