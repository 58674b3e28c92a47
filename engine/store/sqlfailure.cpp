#include "store/sqlfailure.h"

#include "store/sqldatabase.h"

#include <sqlite3.h>

namespace wb {

std::string describeSqlFailure(const std::string& path, int code, const std::string& message)
{
    const std::string file = "'" + path + "'";
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
