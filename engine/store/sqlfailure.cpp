#include "store/sqlfailure.h"

#include "store/sqldatabase.h"

#include <sqlite3.h>

namespace wb {

std::string printableLine(std::string_view text, size_t maxBytes)
{
    static constexpr char HEX[] = "0123456789abcdef";
    std::string out;
    size_t i = 0;
    for (; i < text.size() && out.size() < maxBytes; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            if (!out.empty() && out.back() != ' ') out.push_back(' ');
        } else if (c > 0x20 && c < 0x7f && c != '\\') {
            out.push_back(static_cast<char>(c));
        } else {
            out += "\\x";
            out.push_back(HEX[c >> 4]);
            out.push_back(HEX[c & 15]);
        }
    }
    if (i < text.size()) out += "...";
    while (out.ends_with(' '))
        out.pop_back();
    return out;
}

std::string describeSqlFailure(const std::string& path, int code, const std::string& raw)
{
    const std::string file = "'" + path + "'";
    const std::string message = printableLine(raw);
    constexpr auto MIB = 1024 * 1024;
    switch (code & 0xFF) {
    case SQLITE_READONLY:
        return file + " is read-only: cannot write to it (" + message + ")";
    case SQLITE_FULL:
        return "cannot write to " + file + ": the disk is full (" + message + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return file + " is busy: another process kept it locked too long (" + message + ")";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return file + " is damaged: " + message;
    case SQLITE_IOERR:
        return "I/O error on " + file + ": " + message;
    // Only the step budget interrupts a statement (nothing calls sqlite3_interrupt).
    case SQLITE_INTERRUPT:
        return file + " made a query run too long (" + message + ")";
    case SQLITE_TOOBIG:
        return file + " holds more than wrkbench reads or writes: " + message;
    case SQLITE_NOMEM:
        return file + " made SQLite reach its memory bound (" + std::to_string(SQL_HEAP_LIMIT_BYTES / MIB)
            + " MiB): " + message;
    default:
        return file + ": " + message;
    }
}

} // namespace wb
