#include "forms/scriptform.h"

#include "script/luastate.h"

#include <QDateTime>
#include <QFileInfo>

namespace wb::ui {

QString scriptFileProblem(const QString& path)
{
    struct Cached
    {
        QString path;
        qint64 size = -1;
        QDateTime modified;
        QString problem;
    };
    static Cached cache;
    const QFileInfo info(path);
    if (!info.exists()) return QStringLiteral("'%1' does not exist").arg(path);
    if (info.isDir()) return QStringLiteral("'%1' is a directory").arg(path);
    if (cache.path == path && cache.size == info.size() && cache.modified == info.lastModified()) return cache.problem;
    QString problem;
    auto spec = readScriptFile(path.toStdString(), {});
    if (!spec) {
        problem = QString::fromStdString(spec.error());
    } else if (Status st = checkScriptSyntax(*spec); !st) {
        problem = QString::fromStdString(st.error());
    }
    cache = { path, info.size(), info.lastModified(), problem };
    return problem;
}

std::vector<std::string> splitScriptArgs(const QString& text)
{
    std::vector<std::string> out;
    const std::string t = text.toStdString();
    std::string current;
    bool inArgument = false, quoted = false;
    for (size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (quoted) {
            if (c == '\\' && i + 1 < t.size() && (t[i + 1] == '"' || t[i + 1] == '\\')) {
                current += t[++i];
            } else if (c == '"') {
                quoted = false;
            } else {
                current += c;
            }
        } else if (c == ' ' || c == '\t') {
            if (inArgument) out.push_back(current);
            current.clear();
            inArgument = false;
        } else if (c == '"') {
            quoted = inArgument = true;
        } else {
            current += c;
            inArgument = true;
        }
    }
    if (inArgument) out.push_back(current);
    return out;
}

QString joinScriptArgs(const std::vector<std::string>& args)
{
    QStringList parts;
    for (const std::string& a : args) {
        if (!a.empty() && a.find_first_of(" \t\"\\") == std::string::npos) {
            parts << QString::fromStdString(a);
            continue;
        }
        std::string quoted = "\"";
        for (const char c : a) {
            if (c == '"' || c == '\\') quoted += '\\';
            quoted += c;
        }
        parts << QString::fromStdString(quoted + "\"");
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace wb::ui
