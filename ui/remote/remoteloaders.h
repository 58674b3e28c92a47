#pragma once
// The remote loaders this workstation knows (File → Loaders…): agents on loader VMs (docs/AGENT.md), each with the
// name a load profile's Loaders field uses. Name, address and pinned fingerprint live in the application's settings
// (group "remoteLoaders"); the token in "remote-loader-tokens" beside the settings file, mode 0600, one "NAME TOKEN" a
// line. Never in a session file: a session is shared with colleagues, and a token lets its holder run load from the
// VM. A 0600 file, not a keychain: Debian's Qt 6 has no keychain API and QtKeychain is not a dependency (docs/GUI.md).

#include "agent/client/agentendpoint.h"
#include "common/result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace wb::ui {

// A remote loader is an agent: each entry is the engine's AgentEndpoint (its name is what the
// Loaders field says, "vm1": unique, no spaces or commas; fingerprint "" = not pinned yet; token
// "" = none yet; no CA file, the GUI pins). One type from the dialog to the run.

/// 64 hex digits, upper or lower case, with or without colons (as the agent prints it,
/// "3A:91:…"), or "" → lower-case hex without colons; nullopt when it is not a SHA-256.
std::optional<QString> normalizeFingerprint(const QString& text);
/// As the agent prints it and people compare it by eye: "3A:91:…:C4".
QString displayFingerprint(const QString& fingerprint);

/// What is wrong with loader as an entry of list (its own entry excluded), or "" when nothing.
QString remoteLoaderProblem(const AgentEndpoint& loader, const QList<AgentEndpoint>& others);

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

    const QList<AgentEndpoint>& loaders() const { return m_loaders; }
    void setLoaders(QList<AgentEndpoint> loaders) { m_loaders = std::move(loaders); }
    QStringList names() const;
    /// By name; nullptr when there is none.
    const AgentEndpoint* find(const std::string& name) const;

    /// The endpoints of a run on agents (LoaderPlacement::agents): each name looked up here,
    /// or an address that one entry has. An unknown name, an agent without a token or a
    /// pinned fingerprint is an error that says what to do.
    Result<std::vector<AgentEndpoint>> endpoints(const std::vector<std::string>& wanted) const;

private:
    QList<AgentEndpoint> m_loaders;
};

} // namespace wb::ui
