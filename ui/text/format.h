#pragma once
// How the UI prints numbers: thousands separators, units in column headers,
// the same precision everywhere (tables, run header, CSV excluded: CSV keeps
// raw numbers).

#include <QColor>
#include <QIcon>
#include <QLocale>
#include <QString>
#include <string>

namespace wb {
struct RunConfig;
struct RunRecord;
} // namespace wb

namespace wb::ui {

/// A std::string (UTF-8) as a QString.
inline QString toQString(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The error red: errors counted, a failed check, a field that needs attention.
inline QColor errorColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

/// Text in the error red: a status or a count that is wrong.
inline QString errorTextStyle()
{
    return QStringLiteral("color: %1;").arg(errorColor().name());
}

/// A message that says what went wrong: the error red, bold (the Live header's).
inline QString errorLabelStyle()
{
    return errorTextStyle() + QStringLiteral(" font-weight: bold;");
}

/// The locale used for numbers: the user's, but with group separators even in
/// the C locale (which omits them), so "34,893" reads at a glance.
QLocale numberLocale();

/// 34,893
QString formatCount(double value);
/// 34,893.2 (one decimal)
QString formatRate(double perS);
/// Milliseconds from microseconds with a precision that fits the size: "0.412", "2.91", "14.1", "1,204".
QString formatUsAsMs(double us);
/// "12.4 MB/s" from bytes per second (decimal units).
QString formatBytesPerS(double bytesPerS);
/// "+12.3 %" / "−4.1 %" ("—" for NaN).
QString formatDeltaPct(double pct);
/// "1 run", "3 runs" (English plurals without a translator).
QString countText(qint64 n, const char* one, const char* many);
/// "0:07 / 0:10" style elapsed/total.
QString formatClock(double seconds);
/// The load shape in wrk's words: "-t2 -c50 -d10s", plus "-R 2000" or "stages" when set.
QString describeLoad(const RunConfig& config);
/// describeLoad of a stored run; one stopped before its planned end says how long it ran:
/// "-t2 -c50 -d10s, stopped after 2.3 s".
QString describeRunLoad(const RunRecord& run);
/// "HTTP/1.1", "HTTP/2 (h2c)" or "HTTP/2 (h2 by ALPN)", with ", N streams per connection" for HTTP/2.
/// `spoken`: what a stored run recorded ("h2", "h2c", "http/1.1"; empty = unknown, then the config's).
QString describeProtocol(const RunConfig& config, const std::string& spoken = {});

/// Green when a change is better, red when worse, for a metric where higher is better (or not).
QColor deltaColor(double pct, bool higherIsBetter);
/// A change within the runs' own noise: neither a gain nor a loss.
QColor noiseColor();

/// A round swatch of color (header and list decorations).
QIcon colorIcon(const QColor& color, int size = 12);

/// The colour of the pill that shows a run status.
QColor statusColor(const QString& status);

} // namespace wb::ui
