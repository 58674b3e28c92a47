#include "fleet/controlfiles.h"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace wb {

Status writeControlFile(const std::string& dir, const std::string& name, const std::string& content)
{
    const std::string path = dir + "/" + name;
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << content;
        out.close();
        if (!out) return Error { "cannot write '" + temporary + "'" };
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) return Error { "cannot rename '" + temporary + "'" };
    return {};
}

std::optional<std::string> readControlFile(const std::string& dir, const std::string& name)
{
    std::ifstream in(dir + "/" + name, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

std::string startTimeText(int64_t unixUs)
{
    return fmt::format("{}.{:06}", unixUs / 1'000'000, unixUs % 1'000'000);
}

} // namespace wb
