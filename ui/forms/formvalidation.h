#pragma once
// The target and load profile editors as plain data, and their checks. Each
// problem is reported against the field it belongs to, in words the user can
// act on; nothing is saved while any field has a problem.

#include "parse/requestmix.h"
#include "store/sessiontypes.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace wb::ui {

/// Field name -> what is wrong with it. Header rows use "header:N" (0-based).
using FieldErrors = QMap<QString, QString>;

struct TargetForm
{
    QString name;
    QString url;
    QString method = QStringLiteral("GET");
    QVector<QPair<QString, QString>> headers; ///< rows with both cells empty are ignored
    bool bodyFromFile = false;
    QString bodyText;
    QString bodyFile;
    bool verifyTls = true;
    QString caFile;
    bool http2 = false; ///< HTTP/2: h2 by ALPN over https, h2c over http
    bool http3 = false; ///< HTTP/3 over QUIC (https only); wins over http2
    QString requestMix; ///< a request mix file sent instead of the one request; empty: none
    int mixOrder = 0; ///< MixOrder: round-robin, random, weighted
    QString script; ///< a wrk Lua script run with the target's runs; empty: none
    QString scriptArgs; ///< its init(args), as typed after `--` (forms/scriptform.h)
    QStringList tags;
    QString notes;
};

/// One row of the headers table as it is stored and sent. "Name: value" typed or pasted into
/// either cell (the other one empty) is split on its first colon, as -H reads it; a colon in the
/// Header cell beside a filled Value cell would be sent differently from what is shown, so it is
/// a problem. The editor shows the split cells, so what is shown is what is stored.
struct HeaderCells
{
    QString name;
    QString value;
    QString problem; ///< "" when the row is fine (or empty)
};
HeaderCells splitHeaderCells(const QString& name, const QString& value);

inline constexpr qint64 MAX_BODY_FILE_BYTES = 64ll * 1024 * 1024;

/// Checks form; on success fills target (id untouched; body read from the file
/// when bodyFromFile). takenNames: names used by other targets.
FieldErrors checkTargetForm(const TargetForm& form, const QStringList& takenNames, Target* target);
/// The form showing target.
TargetForm targetFormOf(const Target& target);
/// The request mix in a file, read again only when the file changed (the editor checks on every keystroke).
Result<RequestMix> loadRequestMixCached(const QString& path);

/// True when body can be shown and edited in a text box (UTF-8 without NUL bytes).
bool isTextBody(const std::string& body);
/// What a request body is, in words: "none", "42 bytes of text",
/// "1,234 bytes of binary data from /data/req.bin". sourceFile: the file it was
/// read from ("" when typed or unknown).
QString describeBody(const std::string& body, const QString& sourceFile);
/// The same for a body of `bytes` bytes already known to be text or not (no decoding).
QString describeBody(qint64 bytes, bool text, const QString& sourceFile);

/// The load profile editor's fields, one per load setting the window shows (settings/runsettings.h:
/// every setting with a label), as typed, by the setting's key; and the mode, which says which of
/// "rate" and "stages" applies.
struct ProfileForm
{
    enum class Mode { ClosedLoop, ConstantRate, Stages };
    Mode mode = Mode::ClosedLoop;
    QMap<QString, QString> values; ///< key -> text; a key not here reads as the setting's default
    QString value(const QString& key) const { return values.value(key); }
};

/// Checks form; on success fills load's load fields (request/TLS untouched). An SLO that
/// does not parse, or does not fit the load (service_ in the closed model, aborting without
/// an errors or non-2xx budget), is reported against "slo".
FieldErrors checkProfileForm(const ProfileForm& form, RunConfig* load);
ProfileForm profileFormOf(const RunConfig& load);

/// "p99<250ms, errors<0.1%": the SLO field's text for slos.
QString slosText(const std::vector<Slo>& slos);

/// "250ms", "10s", "2m", "1h": the shortest exact text for a duration.
QString durationText(uint64_t us);

} // namespace wb::ui
