#include "forms/formvalidation.h"

#include "common/utf8.h"
#include "forms/scriptform.h"
#include "http/requestcheck.h"
#include "parse/placement.h"
#include "parse/quantity.h"
#include "parse/requestmix.h"
#include "parse/stageparse.h"
#include "run/responsenotes.h"
#include "serve/builtinserver.h"
#include "settings/runsettings.h"
#include "store/sessionstore.h"
#include "text/format.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

/// The content of a body file. The editors check on every keystroke: the last
/// file read is kept while its size and modification time stay the same.
QByteArray readBodyFile(const QString& path, QString* error)
{
    struct Cached
    {
        QString path;
        qint64 size = -1;
        QDateTime modified;
        QByteArray content;
    };
    static Cached cache;
    const QFileInfo info(path);
    if (cache.path == path && cache.size == info.size() && cache.modified == info.lastModified()) return cache.content;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read '%1': %2").arg(path, file.errorString());
        return {};
    }
    cache = { path, info.size(), info.lastModified(), file.readAll() };
    return cache.content;
}

/// Readable regular file, or the reason it is not.
QString fileProblem(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists()) return QStringLiteral("'%1' does not exist").arg(path);
    if (info.isDir()) return QStringLiteral("'%1' is a directory").arg(path);
    if (!info.isReadable()) return QStringLiteral("'%1' is not readable").arg(path);
    return {};
}

} // namespace

Result<RequestMix> loadRequestMixCached(const QString& path)
{
    struct Cached
    {
        QString path;
        qint64 size = -1;
        QDateTime modified;
        Result<RequestMix> mix = Error { "not read" };
    };
    static Cached cache;
    const QFileInfo info(path);
    if (cache.path != path || cache.size != info.size() || cache.modified != info.lastModified())
        cache = { path, info.size(), info.lastModified(), loadRequestMix(path.toStdString()) };
    return cache.mix;
}

HeaderCells splitHeaderCells(const QString& name, const QString& value)
{
    HeaderCells cells { name.trimmed(), value.trimmed(), {} };
    const qsizetype colon = cells.name.indexOf(QLatin1Char(':'));
    if (colon >= 0) {
        if (!cells.value.isEmpty()) {
            cells.problem = QStringLiteral("the Header cell '%1' has a colon and the Value cell is not empty: type "
                                           "'Name: value' into one cell, or the name and the value apart")
                                .arg(cells.name);
            return cells;
        }
        cells.value = cells.name.mid(colon + 1).trimmed();
        cells.name = cells.name.left(colon).trimmed();
        return cells;
    }
    // "Name: value" pasted into the Value cell of an empty row: a value of its own would have no
    // name, so it can only mean the whole header. Only with the space after the colon that a
    // header line has: "http://x" is no header "http" (and stays a value without a name).
    if (cells.name.isEmpty()) {
        const qsizetype valueColon = cells.value.indexOf(QLatin1Char(':'));
        const QString before = valueColon > 0 ? cells.value.left(valueColon).trimmed() : QString();
        const bool spaced = valueColon > 0 && valueColon + 1 < cells.value.size()
            && (cells.value[valueColon + 1] == QLatin1Char(' ') || cells.value[valueColon + 1] == QLatin1Char('\t'));
        if (spaced && !before.isEmpty() && checkHeaderName(before.toStdString())) {
            cells.name = before;
            cells.value = cells.value.mid(valueColon + 1).trimmed();
        }
    }
    return cells;
}

FieldErrors checkTargetForm(const TargetForm& form, const QStringList& takenNames, Target* target)
{
    FieldErrors errors;
    Target t;
    const QString name = form.name.trimmed();
    if (name.isEmpty())
        errors[QStringLiteral("name")] = QStringLiteral("a target needs a name");
    else if (takenNames.contains(name))
        errors[QStringLiteral("name")] = QStringLiteral("another target is already called '%1'").arg(name);
    t.name = name.toStdString();

    const QString urlText = form.url.trimmed();
    if (urlText.isEmpty()) {
        errors[QStringLiteral("url")] = QStringLiteral("enter the URL to load, e.g. https://10.0.0.1/api");
    } else if (auto url = parseUrl(urlText.toStdString()); !url) {
        errors[QStringLiteral("url")] = toQString(url.error());
    } else if (isBuiltinUrl(*url) && url->isTls()) {
        errors[QStringLiteral("url")] = QStringLiteral("the built-in server speaks plain http: use http://builtin/...");
    } else if (const qsizetype hash = urlText.indexOf(QLatin1Char('#')); hash >= 0) {
        // A fragment stays in the browser: the request would go out without it.
        errors[QStringLiteral("url")]
            = QStringLiteral("'%1' is never sent (a fragment stays in the browser): remove it").arg(urlText.mid(hash));
    }
    t.url = urlText.toStdString();

    const QString method = form.method.trimmed();
    if (method.isEmpty()) {
        errors[QStringLiteral("method")] = QStringLiteral("a method is needed (GET, POST, ...)");
    } else if (std::any_of(method.begin(), method.end(),
                   [](QChar c) { return c >= QLatin1Char('a') && c <= QLatin1Char('z'); })) {
        // Methods are case-sensitive (RFC 9110): "get" is not GET, and it is sent as it is shown.
        errors[QStringLiteral("method")]
            = QStringLiteral("methods are case-sensitive and sent as typed: type %1").arg(method.toUpper());
    } else {
        for (QChar c : method)
            if (c < QLatin1Char('A') || c > QLatin1Char('Z')) {
                errors[QStringLiteral("method")]
                    = QStringLiteral("'%1' is not a method (use e.g. GET, POST)").arg(method);
                break;
            }
    }
    t.method = method.toStdString();

    for (int i = 0; i < form.headers.size(); ++i) {
        const HeaderCells cells = splitHeaderCells(form.headers[i].first, form.headers[i].second);
        if (!cells.problem.isEmpty()) {
            errors[QStringLiteral("header:%1").arg(i)] = cells.problem;
            continue;
        }
        if (cells.name.isEmpty() && cells.value.isEmpty()) continue;
        auto header = parseHeader((cells.name + QStringLiteral(": ") + cells.value).toStdString());
        if (!header) {
            errors[QStringLiteral("header:%1").arg(i)] = toQString(header.error());
            continue;
        }
        t.headers.push_back(*header);
    }

    if (form.bodyFromFile) {
        const QString path = form.bodyFile.trimmed();
        if (path.isEmpty()) {
            errors[QStringLiteral("bodyFile")] = QStringLiteral("choose the file to send as the body");
        } else if (QString problem = fileProblem(path); !problem.isEmpty()) {
            errors[QStringLiteral("bodyFile")] = problem;
        } else if (QFileInfo(path).size() > MAX_BODY_FILE_BYTES) {
            errors[QStringLiteral("bodyFile")] = QStringLiteral("'%1' is larger than 64 MB").arg(path);
        } else {
            QString readError;
            const QByteArray content = readBodyFile(path, &readError);
            if (!readError.isEmpty())
                errors[QStringLiteral("bodyFile")] = readError;
            else
                t.body = content.toStdString();
        }
    } else {
        t.body = form.bodyText.toStdString();
    }

    t.tls.verifyPeer = form.verifyTls;
    const QString ca = form.caFile.trimmed();
    if (!ca.isEmpty())
        if (QString problem = fileProblem(ca); !problem.isEmpty()) errors[QStringLiteral("caFile")] = problem;
    t.tls.caFile = ca.toStdString();
    t.httpVersion = form.http3 ? HttpVersion::Http3 : form.http2 ? HttpVersion::Http2 : HttpVersion::Http1;
    // Said where it is chosen, not at F5: QUIC is always encrypted.
    if (form.http3 && !errors.contains(QStringLiteral("url")))
        if (auto url = parseUrl(urlText.toStdString()); url && !url->isTls())
            errors[QStringLiteral("protocol")]
                = QStringLiteral("HTTP/3 runs over QUIC, which is always encrypted: use an https:// URL");

    // A mix replaces method, URL path and body; its entries must go to the URL's origin.
    const QString mixPath = form.requestMix.trimmed();
    if (!mixPath.isEmpty()) {
        auto mix = loadRequestMixCached(QFileInfo(mixPath).absoluteFilePath());
        auto url = parseUrl(urlText.toStdString());
        if (!mix) {
            errors[QStringLiteral("requestMix")] = toQString(mix.error());
        } else if (url) {
            const Url origin = mix->origin();
            if (!origin.sameOrigin(*url))
                errors[QStringLiteral("requestMix")]
                    = QStringLiteral("the mix goes to %1, the URL to %2://%3/")
                          .arg(toQString(origin.toString()), toQString(url->scheme), toQString(url->hostHeader()));
        }
    }
    t.requestMix = mixPath.isEmpty() ? std::string() : QFileInfo(mixPath).absoluteFilePath().toStdString();
    t.mixOrder = static_cast<MixOrder>(std::clamp(form.mixOrder, 0, 2));

    // A script: it reads and parses now (nothing of it runs), and is read again at each run.
    const QString scriptPath = form.script.trimmed();
    if (!scriptPath.isEmpty()) {
        const QString absolute = QFileInfo(scriptPath).absoluteFilePath();
        if (QString problem = scriptFileProblem(absolute); !problem.isEmpty())
            errors[QStringLiteral("script")] = problem;
        else if (!mixPath.isEmpty())
            errors[QStringLiteral("script")]
                = QStringLiteral("a script builds the requests itself: choose a script or a request mix, not both");
        t.script = absolute.toStdString();
    }
    t.scriptArgs = splitScriptArgs(form.scriptArgs);

    for (const QString& tag : form.tags) {
        if (Status st = validateTag(tag.toStdString()); !st) {
            errors[QStringLiteral("tags")] = QStringLiteral("tag '%1': %2").arg(tag, toQString(st.error()));
            break;
        }
        if (std::find(t.tags.begin(), t.tags.end(), tag.toStdString()) == t.tags.end())
            t.tags.push_back(tag.toStdString());
    }
    t.notes = form.notes.toStdString();

    if (errors.isEmpty() && target) {
        t.id = target->id;
        t.createdAtMs = target->createdAtMs;
        *target = std::move(t);
    }
    return errors;
}

TargetForm targetFormOf(const Target& t)
{
    TargetForm form;
    form.name = toQString(t.name);
    form.url = toQString(t.url);
    form.method = toQString(t.method);
    for (const Header& h : t.headers)
        form.headers.push_back({ toQString(h.name), toQString(h.value) });
    form.bodyText = toQString(t.body);
    form.verifyTls = t.tls.verifyPeer;
    form.caFile = toQString(t.tls.caFile);
    form.http2 = t.httpVersion == HttpVersion::Http2;
    form.http3 = t.httpVersion == HttpVersion::Http3;
    form.requestMix = toQString(t.requestMix);
    form.mixOrder = static_cast<int>(t.mixOrder);
    form.script = toQString(t.script);
    form.scriptArgs = joinScriptArgs(t.scriptArgs);
    for (const auto& tag : t.tags)
        form.tags << toQString(tag);
    form.notes = toQString(t.notes);
    return form;
}

bool isTextBody(const std::string& body)
{
    // Checked in place: decoding into a QString would allocate twice the body
    // (128 MB for a 64 MB file) on every check.
    return body.find('\0') == std::string::npos && isValidUtf8(body);
}

QString describeBody(const std::string& body, const QString& sourceFile)
{
    return describeBody(static_cast<qint64>(body.size()), isTextBody(body), sourceFile);
}

QString describeBody(qint64 bytes, bool text, const QString& sourceFile)
{
    if (bytes == 0)
        return sourceFile.isEmpty() ? QStringLiteral("none") : QStringLiteral("none ('%1' is empty)").arg(sourceFile);
    const QString size = countText(bytes, "byte", "bytes");
    const QString kind = text ? QStringLiteral("%1 of text").arg(size) : QStringLiteral("%1 of binary data").arg(size);
    if (!sourceFile.isEmpty()) return QStringLiteral("%1 from %2").arg(kind, sourceFile);
    return text ? kind : kind + QStringLiteral(" (read from a file)");
}

FieldErrors checkProfileForm(const ProfileForm& form, RunConfig* load)
{
    FieldErrors errors;
    RunConfig c = load ? *load : RunConfig {};
    // Every setting the window shows, read by its own entry of the table (as the CLI and plans
    // read it); the mode says which of rate and stages is in force, and the duration is the
    // stages' total when they are.
    for (const RunSetting& setting : runSettings()) {
        if (setting.label.empty()) continue;
        const QString key = toQString(std::string(setting.key));
        QString text = form.values.contains(key) ? form.values.value(key) : toQString(setting.defaultText());
        if (key == QLatin1String("rate") && form.mode != ProfileForm::Mode::ConstantRate) text.clear();
        if (key == QLatin1String("stages") && form.mode != ProfileForm::Mode::Stages) text.clear();
        if (key == QLatin1String("duration") && form.mode == ProfileForm::Mode::Stages) continue;
        if (key == QLatin1String("rate") && form.mode == ProfileForm::Mode::ConstantRate && text.trimmed().isEmpty()) {
            errors[key] = QStringLiteral("a constant rate needs a rate: requests per second, e.g. 2000");
            continue;
        }
        if (Status st = setting.read(c, text.toStdString()); !st) errors[key] = toQString(st.error());
    }
    if (!errors.contains(QStringLiteral("threads")) && !errors.contains(QStringLiteral("connections"))
        && c.connections < c.threads)
        errors[QStringLiteral("connections")]
            = QStringLiteral("at least one per thread: use %1 or more, or fewer threads").arg(c.threads);
    if (form.mode == ProfileForm::Mode::Stages && !errors.contains(QStringLiteral("stages")) && c.stages.empty())
        errors[QStringLiteral("stages")] = QStringLiteral("stages need at least one DURATION:TARGET, e.g. 10s:1000");
    if (form.mode == ProfileForm::Mode::Stages && c.warmupUs > 0 && !errors.contains(QStringLiteral("warmup")))
        errors[QStringLiteral("warmup")] = QStringLiteral("no warm-up with stages: start the plan with a stage");
    if (errors.isEmpty()) {
        // Whatever the fields cannot see on their own (RunConfig is the authority).
        // A profile serves either protocol: each half is checked as the protocol it is for,
        // and any scheme: tls_ SLOs are allowed here, an http:// target refuses them at Run.
        for (HttpVersion version : { HttpVersion::Http1, HttpVersion::Http2 }) {
            RunConfig check = c.withHttpVersion(version);
            check.request.method = "GET";
            check.request.url = *parseUrl("https://profile.invalid/");
            if (Status st = check.validate(); !st && errors.isEmpty()) {
                // What the SLOs alone get wrong is said under the SLO field.
                RunConfig without = check;
                without.slos.clear();
                without.sloAbort = false;
                const bool slosAtFault = without.validate().ok();
                if (slosAtFault && c.sloAbort
                    && std::none_of(c.slos.begin(), c.slos.end(), [](const Slo& slo) { return slo.isBudget(); }))
                    errors[QStringLiteral("slo")]
                        = QStringLiteral("aborting watches an errors or non-2xx budget: add one, e.g. errors<1%");
                else
                    errors[slosAtFault ? QStringLiteral("slo") : QStringLiteral("form")] = toQString(st.error());
            }
        }
    }
    if (errors.isEmpty() && load) *load = c;
    return errors;
}

ProfileForm profileFormOf(const RunConfig& c)
{
    ProfileForm f;
    for (const RunSetting& setting : runSettings())
        if (!setting.label.empty()) f.values[toQString(std::string(setting.key))] = toQString(setting.text(c));
    f.mode = !c.stages.empty() ? ProfileForm::Mode::Stages
        : c.ratePerS > 0       ? ProfileForm::Mode::ConstantRate
                               : ProfileForm::Mode::ClosedLoop;
    return f;
}

QString slosText(const std::vector<Slo>& slos)
{
    QStringList parts;
    for (const Slo& slo : slos)
        parts << toQString(slo.expr);
    return parts.join(QStringLiteral(", "));
}

QString durationText(uint64_t us)
{
    return toQString(wb::durationText(us));
}

} // namespace wb::ui
