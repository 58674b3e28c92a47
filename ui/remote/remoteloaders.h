#pragma once
// The remote loaders this workstation knows (File → Loaders…): agents started with
// `wrkbench-cli agent` on loader VMs (docs/AGENT.md), each with a name the load
// profile's Loaders field uses ("remote vm1, vm2").
//
// Where they are kept:
//   name, address, pinned fingerprint   the application's settings (QSettings,
//                                       ~/.config/wrkbench/wrkbench.conf), group "remoteLoaders"
//   token                               a file of its own beside the settings file,
//                                       "remote-loader-tokens", mode 0600, one "NAME TOKEN" a line
// Never in a session file: a session is shared with colleagues, a token lets its holder run
// load from the VM. Why a file and not a keychain: Debian's Qt 6 has no keychain API and
// QtKeychain is not a dependency; a 0600 file in the user's config directory is what ssh and
// kubectl do with their secrets too.

#include "agentclient/agentendpoint.h"
#include "common/result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace wb::ui {

struct RemoteLoader
{
    QString name; ///< what the Loaders field says ("vm1"); unique, no spaces or commas
    QString address; ///< HOST:PORT, [IPv6]:PORT
    QString fingerprint; ///< the pinned SHA-256 of its certificate: 64 lower-case hex digits, or "" (not pinned yet)
    QString token; ///< the bearer token; "" = none yet
    bool operator==(const RemoteLoader&) const = default;
};

/// 64 hex digits, upper or lower case, with or without colons (as the agent prints it,
/// "3A:91:…"), or "" → lower-case hex without colons; nullopt when it is not a SHA-256.
std::optional<QString> normalizeFingerprint(const QString& text);
/// As the agent prints it and people compare it by eye: "3A:91:…:C4".
QString displayFingerprint(const QString& fingerprint);

/// What is wrong with loader as an entry of list (its own entry excluded), or "" when nothing.
QString remoteLoaderProblem(const RemoteLoader& loader, const QList<RemoteLoader>& others);

class RemoteLoaderRegistry
{
public:
    /// The registry of this user (the application's settings and the token file beside them).
    static RemoteLoaderRegistry load();
    /// Writes the list: the settings, then the token file (0600, replaced whole). The error
    /// names the file that could not be written.
    Status save() const;

    /// The token file's path: beside the settings file.
    static QString tokenFilePath();

    const QList<RemoteLoader>& loaders() const { return m_loaders; }
    void setLoaders(QList<RemoteLoader> loaders) { m_loaders = std::move(loaders); }
    QStringList names() const;
    /// By name; nullptr when there is none.
    const RemoteLoader* find(const QString& name) const;

    /// The endpoints of a run on agents (LoaderPlacement::agents): each name looked up here,
    /// or an address that one entry has. An unknown name, an agent without a token or a
    /// pinned fingerprint is an error that says what to do.
    Result<std::vector<AgentEndpoint>> endpoints(const std::vector<std::string>& wanted) const;

private:
    QList<RemoteLoader> m_loaders;
};

} // namespace wb::ui
