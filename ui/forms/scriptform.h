#pragma once
// The target's Script field (a wrk Lua script, as `wrkbench-cli -s`): the file is checked when it
// is chosen and at every edit (it reads and parses; nothing of it runs), and the arguments its
// init(args) gets are typed as on a command line after `--`.

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace wb::ui {

/// "" when the script at `path` reads and parses; otherwise what is wrong, with the line for a
/// syntax error ("/scripts/auth.lua:3: '=' expected near 'x'"). Read again only when the file
/// changed (the editor checks on every keystroke).
QString scriptFileProblem(const QString& path);

/// The arguments as typed: split on spaces; double quotes keep spaces ("a b" is one argument, ""
/// an empty one) and take \" and \\ for a quote and a backslash.
std::vector<std::string> splitScriptArgs(const QString& text);
/// The arguments as the field shows them: the inverse of splitScriptArgs.
QString joinScriptArgs(const std::vector<std::string>& args);

} // namespace wb::ui
