// SessionStore::open(): check an existing file through a read-only connection
// before anything may write to it, create new files atomically, migrate old ones.

#include "store/schema.h"
#include "store/schemacheck.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "store/sqlfailure.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sqlite3.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

constexpr int BUSY_TIMEOUT_MS = 10'000;
constexpr char SQLITE_MAGIC[] = "SQLite format 3"; // followed by '\0' in the file

std::string quoted(const std::string& path)
{
    return "'" + path + "'";
}

std::string describeOpenFailure(const std::string& path, const SqlError& e)
{
    switch (e.code() & 0xFF) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_INTERRUPT: // the bounds on what a file can make SQLite do
    case SQLITE_TOOBIG:
    case SQLITE_NOMEM:
        return describeSqlFailure(path, e.code(), e.what());
    default:
        return "cannot open " + quoted(path) + ": " + printableLine(e.what());
    }
}

bool fileExists(const std::string& path)
{
    struct stat st
    { };
    return ::stat(path.c_str(), &st) == 0;
}

uint64_t fileSize(const std::string& path)
{
    struct stat st
    { };
    return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Read-only also when no write permission bit is set at all: root can write to
// anything, but a session made read-only with chmod a-w is meant to stay as it is.
bool isWritable(const std::string& path)
{
    struct stat st
    { };
    if (::stat(path.c_str(), &st) != 0) return false;
    return ::access(path.c_str(), W_OK) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0;
}

// A "file:" URI for path (so that query parameters can follow), with the
// characters that URIs reserve percent-encoded.
std::string uriOf(const std::string& path, const std::string& query)
{
    std::string out = path.starts_with("/") ? "file://" : "file:";
    static constexpr char HEX[] = "0123456789ABCDEF";
    for (unsigned char c : path) {
        if (std::isalnum(c) || std::strchr("/-._~", c)) {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(HEX[c >> 4]);
            out.push_back(HEX[c & 0xF]);
        }
    }
    return out + "?" + query;
}

uint32_t bigEndian(const unsigned char* p, int bytes)
{
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

// The checks that need no SQLite: empty, not SQLite at all, truncated.
// Sessions this process has open, by file identity. POSIX record locks belong to
// the process and the inode, and close() of ANY descriptor of the file drops them
// all: reading the header of a session that another SessionStore of this process
// has open (the GUI's window and its run recorder, say) would silently release
// SQLite's locks, and another process could then delete the -wal file in use.
// SQLite's own connections share descriptors safely; only our raw read must not happen.
std::mutex g_openSessionsMutex;
std::map<std::pair<uint64_t, uint64_t>, int> g_openSessions;

bool isOpenInThisProcess(const struct stat& st)
{
    std::lock_guard lock(g_openSessionsMutex);
    return g_openSessions.count({ static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino) }) > 0;
}

Status checkHeader(const std::string& path)
{
    const uint64_t size = fileSize(path);
    if (size == 0) return Error { quoted(path) + " is empty: not a wrkbench session" };
    unsigned char header[100] = {};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { "cannot read " + quoted(path) + ": " + std::strerror(errno) };
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (in.gcount() < static_cast<std::streamsize>(sizeof header)
        || std::memcmp(header, SQLITE_MAGIC, sizeof SQLITE_MAGIC) != 0)
        return Error { quoted(path) + " is not a wrkbench session (not an SQLite database)" };
    // The page count in the header is valid when its "version-valid-for" number matches the
    // change counter. With a WAL file present, the WAL may hold the newer size: skip the check.
    const uint32_t pageSizeField = bigEndian(header + 16, 2);
    const uint64_t pageSize = pageSizeField == 1 ? 65536 : pageSizeField;
    const uint64_t pageCount = bigEndian(header + 28, 4);
    const bool countValid = bigEndian(header + 92, 4) == bigEndian(header + 24, 4);
    if (countValid && !fileExists(path + "-wal") && pageSize * pageCount > size)
        return Error { quoted(path) + " is damaged: it is truncated (" + std::to_string(size) + " bytes, "
            + std::to_string(pageSize * pageCount) + " expected)" };
    return {};
}

// Identity, schema and integrity of a connection to a file that is not trusted yet. Reads only.
// The version is returned: an older file is checked against what wrkbench made at its version.
Result<int> checkConnection(SqlDatabase& db, const std::string& path, bool checkPages)
{
    const auto appId = static_cast<int32_t>(db.queryInt("PRAGMA application_id"));
    const int version = static_cast<int>(db.queryInt("PRAGMA user_version"));
    if (appId != SESSION_APPLICATION_ID || version == 0)
        return Error { quoted(path) + " is an SQLite database but not a wrkbench session" };
    if (version > SCHEMA_VERSION)
        return Error { quoted(path) + " was written by a newer wrkbench (schema " + std::to_string(version)
            + ", this version understands " + std::to_string(SCHEMA_VERSION) + "); it was left unchanged" };
    // Before anything reads the tables: a view or a CHECK constraint would run in the integrity check too.
    if (auto st = checkSchemaShape(db, version); !st)
        return Error { quoted(path) + " " + st.error() + ": it was not opened (nothing was written)" };
    if (checkPages) {
        // One pass over the file, bounded by its size (a legitimate 229 MB session takes 51
        // million steps), not by the step budget; the schema it walks was checked above.
        db.setBudgets(UINT64_MAX);
        const std::string check = db.queryText("PRAGMA quick_check(1)");
        if (check != "ok") {
            // SQLite's report spans lines: "*** in database main ***\nPage 2: ...".
            constexpr std::string_view HEADING = "*** in database main ***";
            const std::string_view report = std::string_view(check).starts_with(HEADING)
                ? std::string_view(check).substr(HEADING.size())
                : std::string_view(check);
            return Error { quoted(path) + " is damaged: " + printableLine(report) };
        }
    }
    return version;
}

// Opens the file read-only and checks that it is a wrkbench session this program
// can read. Without a WAL file nobody has it open, so it is opened "immutable":
// SQLite then creates no -wal/-shm files next to a file that may not be ours.
Status checkSession(const std::string& path)
{
    if (auto st = checkHeader(path); !st) return st;
    const bool wal = fileExists(path + "-wal");
    try {
        SqlDatabase db = SqlDatabase::open(uriOf(path, wal ? "mode=ro" : "mode=ro&immutable=1"), SQLITE_OPEN_READONLY);
        if (auto checked = checkConnection(db, path, true); !checked) return Error { checked.error() };
        return {};
    } catch (const SqlError& e) {
        return Error { describeOpenFailure(path, e) };
    }
}

// A read-only view of a file that needs what only a writer may do (its schema migrated, runs of
// dead processes recovered): a private copy of it, in a temporary file of SQLite's that goes
// with the connection, upgraded there. The file itself is never written.
SqlDatabase privateCopy(SqlDatabase& source)
{
    SqlDatabase copy = SqlDatabase::open("", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3_backup* backup = sqlite3_backup_init(copy.handle(), "main", source.handle(), "main");
    if (!backup) copy.fail(sqlite3_errcode(copy.handle()));
    const int rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) copy.fail(rc);
    copy.exec("PRAGMA foreign_keys = ON");
    return copy;
}

// A new session is built under a temporary name and linked into place, so no
// other process ever sees a half-created (empty) file. Succeeds too when
// another process created path first.
Status createSession(const std::string& path)
{
    static std::atomic<unsigned> serial { 0 };
    std::string temp;
    int fd = -1;
    do { // a name no one else uses (a crashed attempt may have left one behind)
        temp = path + ".new-" + std::to_string(::getpid()) + "-" + std::to_string(++serial);
        fd = ::open(temp.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EEXIST && serial % 1000 != 0);
    if (fd < 0) return Error { "cannot create " + quoted(path) + ": " + std::strerror(errno) };
    ::close(fd);
    try {
        SqlDatabase db = SqlDatabase::open(temp, SQLITE_OPEN_READWRITE);
        db.exec("PRAGMA journal_mode = WAL");
        migrateSchema(db);
    } catch (const SqlError& e) {
        ::unlink(temp.c_str());
        return Error { "cannot create " + quoted(path) + ": " + e.what() };
    }
    if (::link(temp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
        // Filesystems without hard links: rename (not atomic against a racing creator, but close).
        if (fileExists(path) || ::rename(temp.c_str(), path.c_str()) != 0) {
            const int err = errno;
            ::unlink(temp.c_str());
            if (fileExists(path)) return {};
            return Error { "cannot create " + quoted(path) + ": " + std::strerror(err) };
        }
        return {};
    }
    ::unlink(temp.c_str()); // created, or another process was first: either way path is a session now
    return {};
}

} // namespace

void SessionStore::releaseFileId()
{
    std::lock_guard lock(g_openSessionsMutex);
    auto it = g_openSessions.find(m_fileId);
    if (it != g_openSessions.end() && --it->second == 0) g_openSessions.erase(it);
}

Result<std::unique_ptr<SessionStore>> SessionStore::open(const std::string& path, SessionOpenOptions options)
{
    if (path.empty()) return Error { "no session file given" };
    struct stat st
    { };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) return Error { "cannot open " + quoted(path) + ": " + std::strerror(errno) };
        if (!options.create || options.readOnly) return Error { quoted(path) + " does not exist" };
        if (auto created = createSession(path); !created) return Error { created.error() };
    } else if (!S_ISREG(st.st_mode)) {
        return Error { quoted(path) + " is not a regular file" };
    }
    if (::stat(path.c_str(), &st) != 0) return Error { "cannot open " + quoted(path) + ": " + std::strerror(errno) };
    // Already open here: it was checked then, and a raw read now would drop SQLite's locks. The
    // connection below checks the schema again either way, before anything can write.
    if (!isOpenInThisProcess(st))
        if (auto checked = checkSession(path); !checked) return Error { checked.error() };

    const bool writable = isWritable(path);
    const bool readOnly = options.readOnly || !writable;
    // Read-only with no WAL (so no writer has it open): read it "immutable". Otherwise SQLite
    // would leave -wal/-shm files next to it, read-only ones that a later writer could not use,
    // or fail to create them at all.
    const bool immutable = readOnly && !fileExists(path + "-wal");
    try {
        SqlDatabase db
            = SqlDatabase::open(uriOf(path, readOnly ? (immutable ? "mode=ro&immutable=1" : "mode=ro") : "mode=rw"),
                readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE);
        sqlite3_busy_timeout(db.handle(), BUSY_TIMEOUT_MS);
        db.exec("PRAGMA foreign_keys = ON");
        // The file may have been replaced since it was checked: check it again on this connection,
        // before the first statement that may write (the journal mode).
        auto checked = checkConnection(db, path, false);
        if (!checked) return Error { checked.error() };
        const int version = *checked;
        bool copied = false;
        if (!readOnly) {
            // WAL: readers never block the writer; NORMAL: a commit survives the process being
            // killed (only a power loss can take back the last transactions).
            db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
            if (version < SCHEMA_VERSION) migrateSchema(db);
        } else if (version < SCHEMA_VERSION || SessionStore::hasDeadOwners(db)) {
            db = privateCopy(db);
            if (version < SCHEMA_VERSION) migrateSchema(db);
            copied = true;
        }
        std::unique_ptr<SessionStore> store(new SessionStore(path, readOnly && !copied, std::move(db)));
        if (!copied) {
            store->m_fileId = { static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino) };
            std::lock_guard lock(g_openSessionsMutex);
            ++g_openSessions[store->m_fileId];
        }
        if (!store->m_readOnly) {
            auto recovered = store->recoverDeadRuns();
            if (!recovered) return Error { recovered.error() };
            store->m_recovered = *recovered;
        }
        store->m_readOnly = readOnly;
        return store;
    } catch (const SqlError& e) {
        return Error { describeOpenFailure(path, e) };
    }
}

} // namespace wb
