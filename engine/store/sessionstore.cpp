// SessionStore: error handling, transactions and tags; TargetRepository and ProfileRepository.
// Opening is in sessionopen.cpp, RunRepository in sessionruns.cpp, sessionqueries.cpp and sessionscrape.cpp,
// ExperimentRepository in sessionexperiments.cpp.

#include "store/sessionstore.h"

#include "common/jsontext.h"
#include "store/sessionrows.h"
#include "store/sqldatabase.h"
#include "store/sqlfailure.h"
#include "wire/configcodec.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace wb {

namespace {

constexpr char TARGET_COLUMNS[]
    = "id, name, url, method, headers, body, tls_verify, ca_file, notes, created_at_ms, http_version, request_mix, "
      "mix_order, script, script_args, scrape";

std::string scriptArgsToJson(const std::vector<std::string>& args)
{
    return jsonText(nlohmann::json(args));
}

std::vector<std::string> scriptArgsFromJson(const std::string& text)
{
    std::vector<std::string> out;
    const auto j = parseJsonTextOrDiscarded<nlohmann::json>(text);
    if (j.is_array())
        for (const auto& a : j)
            if (a.is_string()) out.push_back(a.get<std::string>());
    return out;
}

// A target's scrape settings as the column keeps them: '' for none.
std::string scrapeText(const ScrapeSpec& spec)
{
    return spec.enabled() ? jsonText(scrapeSpecToJson(spec)) : std::string();
}

// What another build wrote that this one cannot read is dropped rather than failing the target.
ScrapeSpec scrapeOfText(const std::string& text)
{
    if (text.empty()) return {};
    const auto j = parseJsonTextOrDiscarded<nlohmann::json>(text);
    auto spec = scrapeSpecFromJson(j);
    return spec ? *spec : ScrapeSpec {};
}

} // namespace

Status validateTag(const std::string& tag)
{
    if (tag.empty()) return Error { "a tag must not be empty" };
    if (tag.find(',') != std::string::npos) return Error { "tag '" + tag + "' must not contain ','" };
    for (unsigned char c : tag)
        if (c < 0x20 || c == 0x7F) return Error { "tag '" + tag + "' must not contain control characters" };
    return {};
}

SessionStore::SessionStore(std::string path, bool readOnly, SqlDatabase db)
    : m_path(std::move(path))
    , m_readOnly(readOnly)
    , m_db(std::make_unique<SqlDatabase>(std::move(db)))
{ }

SessionStore::~SessionStore()
{
    m_db.reset(); // close SQLite's connection before this file stops counting as open here
    releaseFileId();
}

sqlite3* SessionStore::nativeHandle() const
{
    return m_db->handle();
}

uint64_t SessionStore::heaviestStatementSteps() const
{
    return m_db->heaviestStatementSteps();
}

std::string SessionStore::describe(int code, const std::string& message) const
{
    return describeSqlFailure(m_path, code, message);
}

Status SessionStore::checkWritable() const
{
    if (m_readOnly) return Error { "'" + m_path + "' is read-only: cannot write to it" };
    return {};
}

Status SessionStore::guarded(const std::function<void()>& work)
{
    struct Depth
    {
        int& depth;
        SqlDatabase& db;
        explicit Depth(int& d, SqlDatabase& database)
            : depth(d)
            , db(database)
        {
            if (++depth == 1) db.startOperation(); // SQL_MAX_READ_BYTES is per store operation
        }
        ~Depth()
        {
            // The outermost call leaves no statement mid-way (holding a read snapshot).
            if (--depth == 0) db.resetAll();
        }
    } depth(m_depth, *m_db);
    try {
        work();
        return {};
    } catch (const SqlError& e) {
        return Error { describe(e.code(), e.what()) };
    }
}

Status SessionStore::transaction(const std::function<Status()>& work)
{
    if (auto st = checkWritable(); !st) return st;
    Status result;
    auto st = guarded([&] {
        SqlTransaction tx(*m_db);
        result = work();
        if (result) tx.commit();
    });
    return st ? result : st;
}

void SessionStore::writeTags(const char* table, const char* key, int64_t id, const std::vector<std::string>& tags)
{
    SqlStatement& del = m_db->prepare(std::string("DELETE FROM ") + table + " WHERE " + key + " = ?");
    del.bind(id).run();
    SqlStatement& ins
        = m_db->prepare(std::string("INSERT OR IGNORE INTO ") + table + " (" + key + ", tag) VALUES (?, ?)");
    for (const auto& tag : tags) {
        ins.reset();
        ins.bind(id).bind(tag).run();
    }
}

std::vector<std::string> SessionStore::readTags(const char* table, const char* key, int64_t id)
{
    std::vector<std::string> tags;
    SqlStatement& q = m_db->prepare(std::string("SELECT tag FROM ") + table + " WHERE " + key + " = ? ORDER BY tag");
    q.bind(id);
    while (q.step())
        tags.push_back(q.text(0));
    return tags;
}

// Targets ------------------------------------------------------------------------

Target TargetRepository::readTarget(int64_t id)
{
    SqlStatement& q = m_store.m_db->prepare(std::string("SELECT ") + TARGET_COLUMNS + " FROM targets WHERE id = ?");
    q.bind(id);
    if (!q.step()) throw SqlError(SQLITE_NOTFOUND, "no target with id " + std::to_string(id));
    Target t;
    t.id = q.int64(0);
    t.name = q.text(1);
    t.url = q.text(2);
    t.method = q.text(3);
    if (auto headers = headersFromJson(q.text(4))) t.headers = *headers;
    t.body = q.blob(5);
    t.tls.verifyPeer = q.int64(6) != 0;
    t.tls.caFile = q.text(7);
    t.notes = q.text(8);
    t.createdAtMs = q.int64(9);
    if (auto version = parseHttpVersion(q.text(10))) t.httpVersion = *version;
    t.requestMix = q.text(11);
    if (auto order = parseMixOrder(q.text(12))) t.mixOrder = *order;
    t.script = q.text(13);
    t.scriptArgs = scriptArgsFromJson(q.text(14));
    t.scrape = scrapeOfText(q.text(15));
    q.reset();
    t.tags = m_store.readTags("target_tags", "target_id", id);
    return t;
}

Result<std::vector<Target>> TargetRepository::all()
{
    std::vector<Target> out;
    auto st = m_store.guarded([&] {
        std::vector<int64_t> ids;
        SqlStatement& q = m_store.m_db->prepare("SELECT id FROM targets ORDER BY name");
        while (q.step())
            ids.push_back(q.int64(0));
        for (int64_t id : ids)
            out.push_back(readTarget(id));
    });
    if (!st) return Error { st.error() };
    return out;
}

Result<Target> TargetRepository::get(int64_t id)
{
    Target out;
    if (auto st = m_store.guarded([&] { out = readTarget(id); }); !st) return Error { st.error() };
    return out;
}

Result<std::optional<Target>> TargetRepository::byName(const std::string& name)
{
    std::optional<Target> out;
    auto st = m_store.guarded([&] {
        SqlStatement& q = m_store.m_db->prepare("SELECT id FROM targets WHERE name = ?");
        q.bind(name);
        if (q.step()) {
            const int64_t id = q.int64(0);
            q.reset();
            out = readTarget(id);
        }
    });
    if (!st) return Error { st.error() };
    return out;
}

Result<int64_t> TargetRepository::add(const Target& t)
{
    if (t.name.empty()) return Error { "a target needs a name" };
    for (const auto& tag : t.tags)
        if (auto st = validateTag(tag); !st) return Error { st.error() };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        SqlStatement& exists = m_store.m_db->prepare("SELECT 1 FROM targets WHERE name = ?");
        exists.bind(t.name);
        if (exists.step()) return Error { "a target named '" + t.name + "' already exists" };
        SqlStatement& q
            = m_store.m_db->prepare("INSERT INTO targets (name, url, method, headers, body, tls_verify, ca_file, "
                                    "notes, created_at_ms, http_version, request_mix, mix_order, script, "
                                    "script_args, scrape) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        q.bind(t.name).bind(t.url).bind(t.method).bind(headersToJson(t.headers)).bindBlob(t.body);
        q.bind(t.tls.verifyPeer)
            .bind(t.tls.caFile)
            .bind(t.notes)
            .bind(t.createdAtMs ? t.createdAtMs : wallClockNowMs())
            .bind(httpVersionId(t.httpVersion))
            .bind(t.requestMix)
            .bind(mixOrderId(t.mixOrder))
            .bind(t.script)
            .bind(scriptArgsToJson(t.scriptArgs))
            .bind(scrapeText(t.scrape));
        q.run();
        id = m_store.m_db->lastInsertId();
        m_store.writeTags("target_tags", "target_id", id, t.tags);
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Result<int64_t> TargetRepository::ensure(const Target& prototype)
{
    int64_t id = 0;
    // One write transaction: two processes creating the same target at once get one row.
    auto st = m_store.transaction([&]() -> Status {
        SqlStatement& q = m_store.m_db->prepare("SELECT id FROM targets WHERE name = ?");
        q.bind(prototype.name);
        if (q.step()) {
            id = q.int64(0);
            q.reset();
            return {};
        }
        auto added = add(prototype);
        if (!added) return Error { added.error() };
        id = *added;
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Status TargetRepository::update(const Target& t)
{
    if (t.name.empty()) return Error { "a target needs a name" };
    for (const auto& tag : t.tags)
        if (auto st = validateTag(tag); !st) return st;
    return m_store.transaction([&]() -> Status {
        SqlStatement& clash = m_store.m_db->prepare("SELECT 1 FROM targets WHERE name = ? AND id <> ?");
        clash.bind(t.name).bind(t.id);
        if (clash.step()) return Error { "a target named '" + t.name + "' already exists" };
        SqlStatement& q
            = m_store.m_db->prepare("UPDATE targets SET name = ?, url = ?, method = ?, headers = ?, body = ?, "
                                    "tls_verify = ?, ca_file = ?, notes = ?, http_version = ?, request_mix = ?, "
                                    "mix_order = ?, script = ?, script_args = ?, scrape = ? WHERE id = ?");
        q.bind(t.name).bind(t.url).bind(t.method).bind(headersToJson(t.headers)).bindBlob(t.body);
        q.bind(t.tls.verifyPeer).bind(t.tls.caFile).bind(t.notes).bind(httpVersionId(t.httpVersion));
        q.bind(t.requestMix).bind(mixOrderId(t.mixOrder)).bind(t.script).bind(scriptArgsToJson(t.scriptArgs));
        q.bind(scrapeText(t.scrape)).bind(t.id);
        q.run();
        if (m_store.m_db->changes() == 0) return Error { "no target with id " + std::to_string(t.id) };
        m_store.writeTags("target_tags", "target_id", t.id, t.tags);
        return {};
    });
}

Status TargetRepository::remove(int64_t id, bool withRuns)
{
    return m_store.transaction([&]() -> Status {
        const int64_t runs = [&] {
            SqlStatement& q = m_store.m_db->prepare("SELECT count(*) FROM runs WHERE target_id = ?");
            q.bind(id);
            const int64_t n = q.step() ? q.int64(0) : 0;
            q.reset();
            return n;
        }();
        if (runs > 0 && !withRuns)
            return Error { "the target has " + std::to_string(runs) + " run(s); delete them too or keep the target" };
        // In the transaction: a run that began a moment ago (another process) is seen here.
        if (const int64_t live = m_store.recordingRunOf("target_id", id))
            return Error { "run #" + std::to_string(live) + " of the target is being recorded right now" };
        m_store.deleteRunsWhere("target_id", id);
        m_store.m_db->prepare("DELETE FROM targets WHERE id = ?").bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { "no target with id " + std::to_string(id) };
        return {};
    });
}

// Load profiles -------------------------------------------------------------------

Result<std::vector<LoadProfile>> ProfileRepository::all()
{
    std::vector<LoadProfile> out;
    auto st = m_store.guarded([&] {
        SqlStatement& q
            = m_store.m_db->prepare("SELECT id, name, config, notes, created_at_ms FROM profiles ORDER BY name");
        while (q.step()) {
            LoadProfile p;
            p.id = q.int64(0);
            p.name = q.text(1);
            if (auto load = loadProfileFromJson(q.text(2))) p.load = *load;
            p.notes = q.text(3);
            p.createdAtMs = q.int64(4);
            out.push_back(std::move(p));
        }
    });
    if (!st) return Error { st.error() };
    return out;
}

Result<int64_t> ProfileRepository::add(const LoadProfile& p)
{
    if (p.name.empty()) return Error { "a load profile needs a name" };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        SqlStatement& exists = m_store.m_db->prepare("SELECT 1 FROM profiles WHERE name = ?");
        exists.bind(p.name);
        if (exists.step()) return Error { "a load profile named '" + p.name + "' already exists" };
        SqlStatement& q
            = m_store.m_db->prepare("INSERT INTO profiles (name, config, notes, created_at_ms) VALUES (?, ?, ?, ?)");
        q.bind(p.name).bind(loadProfileToJson(p.load)).bind(p.notes);
        q.bind(p.createdAtMs ? p.createdAtMs : wallClockNowMs()).run();
        id = m_store.m_db->lastInsertId();
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Status ProfileRepository::update(const LoadProfile& p)
{
    if (p.name.empty()) return Error { "a load profile needs a name" };
    return m_store.transaction([&]() -> Status {
        SqlStatement& clash = m_store.m_db->prepare("SELECT 1 FROM profiles WHERE name = ? AND id <> ?");
        clash.bind(p.name).bind(p.id);
        if (clash.step()) return Error { "a load profile named '" + p.name + "' already exists" };
        SqlStatement& q = m_store.m_db->prepare("UPDATE profiles SET name = ?, config = ?, notes = ? WHERE id = ?");
        q.bind(p.name).bind(loadProfileToJson(p.load)).bind(p.notes).bind(p.id).run();
        if (m_store.m_db->changes() == 0) return Error { "no load profile with id " + std::to_string(p.id) };
        return {};
    });
}

Status ProfileRepository::remove(int64_t id)
{
    return m_store.transaction([&]() -> Status {
        m_store.m_db->prepare("DELETE FROM profiles WHERE id = ?").bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { "no load profile with id " + std::to_string(id) };
        return {};
    });
}

} // namespace wb
