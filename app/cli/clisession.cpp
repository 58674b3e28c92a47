#include "clisession.h"

#include "store/sessionstore.h"

#include <algorithm>
#include <ctime>

namespace wb::cli {

Result<std::unique_ptr<SessionStore>> openSessionToRead(const std::string& path)
{
    SessionOpenOptions options;
    options.create = false;
    options.readOnly = true;
    return SessionStore::open(path, options);
}

Result<std::unique_ptr<SessionStore>> openSessionToChange(const std::string& path)
{
    SessionOpenOptions options;
    options.create = false;
    return SessionStore::open(path, options);
}

std::string localTime(int64_t msSinceEpoch)
{
    if (msSinceEpoch <= 0) return "-";
    const std::time_t seconds = static_cast<std::time_t>(msSinceEpoch / 1000);
    std::tm tm {};
    localtime_r(&seconds, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string textTable(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& rightAligned)
{
    std::vector<size_t> widths(rightAligned.size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            const std::string pad(widths[i] - row[i].size(), ' ');
            line += (i ? "  " : "") + (rightAligned[i] ? pad + row[i] : row[i] + pad);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

} // namespace wb::cli
