#include "remote/remoteloaders.h"

#include "agent/channel/agentcredentials.h"
#include "agent/client/agentclient.h"
#include "session/sessionpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb::ui {

namespace {

const QString GROUP = QStringLiteral("remoteLoaders");
const QString TOKEN_FILE = QStringLiteral("remote-loader-tokens");

std::string sys(const QString& path, const char* what)
{
    return "cannot " + std::string(what) + " " + path.toStdString() + ": " + std::strerror(errno);
}

/// Writes text to path through a temporary file created 0600 (never readable by others, not
/// even for a moment: the mode is given at creation, whatever the umask), then renamed over it.
Status writePrivateFile(const QString& path, const QByteArray& text)
{
    const QByteArray final = QFile::encodeName(path);
    const QByteArray temp = final + ".tmp";
    const int fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return Error { sys(QString::fromLocal8Bit(temp), "create") };
    // An old temporary file left with a wider mode keeps it through O_TRUNC: set it again.
    bool ok = ::fchmod(fd, 0600) == 0;
    for (qsizetype done = 0; ok && done < text.size();) {
        const ssize_t n = ::write(fd, text.constData() + done, static_cast<size_t>(text.size() - done));
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += n;
    }
    ok = ok && ::fsync(fd) == 0;
    const Status written = ok ? Status {} : Status { Error { sys(QString::fromLocal8Bit(temp), "write") } };
    ::close(fd);
    if (!written) {
        ::unlink(temp.constData());
        return written;
    }
    if (::rename(temp.constData(), final.constData()) != 0) {
        const Status renameFailed = Error { sys(path, "replace") };
        ::unlink(temp.constData());
        return renameFailed;
    }
    return {};
}

} // namespace

std::optional<QString> normalizeFingerprint(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (QString(trimmed).remove(QLatin1Char(':')).isEmpty()) return QString(); // not pinned yet
    auto hex = wb::normalizeFingerprint(trimmed.toStdString()); // the CLI's and the agent's reading
    if (!hex) return std::nullopt;
    return QString::fromStdString(*hex);
}

QString displayFingerprint(const QString& fingerprint)
{
    return QString::fromStdString(wb::displayFingerprint(fingerprint.toStdString()));
}

QString remoteLoaderProblem(const AgentEndpoint& loader, const QList<AgentEndpoint>& others)
{
    static const QRegularExpression NAME(QStringLiteral("^[A-Za-z0-9._-]+$"));
    static const QRegularExpression SPACE(QStringLiteral("\\s"));
    const QString name = QString::fromStdString(loader.name);
    if (name.isEmpty()) return QObject::tr("Name: give it a name, e.g. vm1");
    if (!NAME.match(name).hasMatch())
        return QObject::tr("Name: letters, digits, '.', '_' and '-' only (the Loaders field lists names with commas)");
    for (const AgentEndpoint& other : others)
        if (other.name == loader.name) return QObject::tr("Name: another loader is called %1").arg(name);
    // Read as the engine's client reads it (agent/agentclient.h), with no room for spaces.
    if (!splitAgentAddress(loader.address) || QString::fromStdString(loader.address).contains(SPACE))
        return QObject::tr("Address: HOST:PORT, e.g. 10.20.0.5:7450 ([::1]:7450 for IPv6)");
    if (!normalizeFingerprint(QString::fromStdString(loader.fingerprint)))
        return QObject::tr("Fingerprint: 64 hex digits, with or without colons (the agent prints it at start)");
    if (QString::fromStdString(loader.token).contains(SPACE))
        return QObject::tr("Token: no spaces (the agent keeps it in its state dir, file 'token')");
    return {};
}

QString RemoteLoaderRegistry::tokenFilePath()
{
    return QFileInfo(appSettings()->fileName()).absoluteDir().filePath(TOKEN_FILE);
}

RemoteLoaderRegistry RemoteLoaderRegistry::load()
{
    RemoteLoaderRegistry out;
    auto settings = appSettings();
    const int n = settings->beginReadArray(GROUP);
    for (int i = 0; i < n; ++i) {
        settings->setArrayIndex(i);
        AgentEndpoint loader;
        loader.name = settings->value(QStringLiteral("name")).toString().toStdString();
        loader.address = settings->value(QStringLiteral("address")).toString().toStdString();
        loader.fingerprint = normalizeFingerprint(settings->value(QStringLiteral("fingerprint")).toString())
                                 .value_or(QString())
                                 .toStdString();
        if (!loader.name.empty()) out.m_loaders << loader;
    }
    settings->endArray();

    QFile tokens(tokenFilePath());
    if (tokens.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : tokens.readAll().split('\n')) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (fields.size() != 2) continue;
            const std::string name = fields[0].toStdString();
            for (AgentEndpoint& loader : out.m_loaders)
                if (loader.name == name) loader.token = fields[1].toStdString();
        }
    }
    return out;
}

Status RemoteLoaderRegistry::save() const
{
    auto settings = appSettings();
    settings->remove(GROUP);
    settings->beginWriteArray(GROUP, static_cast<int>(m_loaders.size()));
    QByteArray tokens;
    for (int i = 0; i < m_loaders.size(); ++i) {
        const AgentEndpoint& loader = m_loaders[i];
        settings->setArrayIndex(i);
        settings->setValue(QStringLiteral("name"), QString::fromStdString(loader.name));
        settings->setValue(QStringLiteral("address"), QString::fromStdString(loader.address));
        settings->setValue(QStringLiteral("fingerprint"), QString::fromStdString(loader.fingerprint));
        if (!loader.token.empty()) tokens += QByteArray::fromStdString(loader.name + ' ' + loader.token + '\n');
    }
    settings->endArray();
    settings->sync();
    if (settings->status() != QSettings::NoError)
        return Error { "cannot write the settings file " + settings->fileName().toStdString() };
    QDir().mkpath(QFileInfo(settings->fileName()).absolutePath());
    return writePrivateFile(tokenFilePath(), tokens);
}

QStringList RemoteLoaderRegistry::names() const
{
    QStringList out;
    for (const AgentEndpoint& loader : m_loaders)
        out << QString::fromStdString(loader.name);
    return out;
}

const AgentEndpoint* RemoteLoaderRegistry::find(const std::string& name) const
{
    for (const AgentEndpoint& loader : m_loaders)
        if (loader.name == name) return &loader;
    for (const AgentEndpoint& loader : m_loaders) // "remote 10.20.0.5:7450": the entry with that address
        if (loader.address == name) return &loader;
    return nullptr;
}

Result<std::vector<AgentEndpoint>> RemoteLoaderRegistry::endpoints(const std::vector<std::string>& wanted) const
{
    std::vector<AgentEndpoint> out;
    for (const std::string& name : wanted) {
        const AgentEndpoint* loader = find(name);
        if (!loader) {
            const std::string known = m_loaders.isEmpty()
                ? std::string("none yet")
                : "known: " + names().join(QStringLiteral(", ")).toStdString();
            return Error { "Loaders: no remote loader named '" + name + "' (File → Loaders… adds one; " + known + ")" };
        }
        if (loader->fingerprint.empty())
            return Error { "Loaders: remote loader '" + name
                + "' has no pinned fingerprint yet (File → Loaders…, Test connection, then pin it)" };
        if (loader->token.empty())
            return Error { "Loaders: remote loader '" + name
                + "' has no token (File → Loaders…; the agent keeps it in its state dir, file 'token')" };
        out.push_back(*loader);
    }
    return out;
}

} // namespace wb::ui
