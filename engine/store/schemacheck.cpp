#include "store/schemacheck.h"

#include "store/schema.h"
#include "store/sqldatabase.h"
#include "store/sqlfailure.h"

#include <cctype>
#include <map>
#include <mutex>
#include <sqlite3.h>
#include <string_view>
#include <vector>

namespace wb {

namespace {

// A name from the file, short and printable: it may hold anything, terminal escapes included.
std::string shownName(std::string_view name)
{
    return "'" + printableLine(name, 60) + "'";
}

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isWordByte(unsigned char c)
{
    return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

// The CREATE statement as tokens: comments and spacing dropped, keywords and identifiers in
// lower case and unquoted (ALTER TABLE ... RENAME quotes the new name), string literals as they
// are. Two statements with the same tokens define the same object; a comment edited in a
// released migration step does not make its old files different.
std::string normalizedSql(std::string_view sql)
{
    std::string out;
    const auto emit = [&](std::string_view token) {
        if (!out.empty()) out.push_back(' ');
        out += token;
    };
    size_t i = 0;
    const size_t n = sql.size();
    while (i < n) {
        const auto c = static_cast<unsigned char>(sql[i]);
        if (std::isspace(c)) {
            ++i;
        } else if (sql.substr(i, 2) == "--") {
            const size_t end = sql.find('\n', i);
            i = end == std::string_view::npos ? n : end + 1;
        } else if (sql.substr(i, 2) == "/*") {
            const size_t end = sql.find("*/", i + 2);
            i = end == std::string_view::npos ? n : end + 2;
        } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
            const char close = c == '[' ? ']' : static_cast<char>(c);
            std::string text;
            size_t j = i + 1;
            for (; j < n; ++j) {
                if (sql[j] != close) {
                    text.push_back(sql[j]);
                } else if (close != ']' && j + 1 < n && sql[j + 1] == close) {
                    text.push_back(close); // a doubled quote stands for one
                    ++j;
                } else {
                    break;
                }
            }
            i = j + 1;
            if (c == '\'')
                emit("'" + text + "'");
            else
                emit(lowered(text));
        } else if (isWordByte(c)) {
            size_t j = i;
            while (j < n && isWordByte(static_cast<unsigned char>(sql[j])))
                ++j;
            emit(lowered(sql.substr(i, j - i)));
            i = j;
        } else {
            emit(sql.substr(i, 1));
            ++i;
        }
    }
    return out;
}

struct SchemaObject
{
    std::string type; ///< table, index, view, trigger
    std::string name; ///< as written
    std::string key; ///< the name in lower case: SQLite's names ignore ASCII case
    std::string sql; ///< normalizedSql(); empty for the indexes SQLite makes itself (UNIQUE, keys)
    bool isVirtual = false;
};

std::vector<SchemaObject> objectsOf(SqlDatabase& db)
{
    std::vector<SchemaObject> out;
    SqlStatement& q = db.prepare("SELECT type, name, sql FROM main.sqlite_schema ORDER BY rowid");
    while (q.step()) {
        SchemaObject o;
        o.type = q.text(0);
        o.name = q.text(1);
        o.key = lowered(o.name);
        const std::string sql = q.text(2);
        o.sql = normalizedSql(sql);
        o.isVirtual = o.sql.starts_with("create virtual table");
        out.push_back(std::move(o));
    }
    return out;
}

SqlDatabase referenceDatabase(int version)
{
    SqlDatabase db = SqlDatabase::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    migrateSchemaTo(db, version);
    return db;
}

// What the migrations make, per version: built on first use, then kept (a few milliseconds each).
const std::vector<SchemaObject>& referenceObjects(int version)
{
    static std::mutex mutex;
    static std::map<int, std::vector<SchemaObject>> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(version);
    if (it == cache.end()) {
        SqlDatabase db = referenceDatabase(version);
        it = cache.emplace(version, objectsOf(db)).first;
    }
    return it->second;
}

std::string kindOf(const SchemaObject& o)
{
    return o.isVirtual ? "virtual table" : o.type;
}

struct Column
{
    std::string name, type, defaultValue;
    bool notNull = false;
    int64_t keyPosition = 0; ///< 1-based place in the primary key, 0 when not in it
    int64_t hidden = 0; ///< 2, 3: generated
};

std::vector<Column> columnsOf(SqlDatabase& db, const std::string& table)
{
    std::vector<Column> out;
    SqlStatement& q
        = db.prepare("SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?, 'main')");
    q.bind(table);
    while (q.step())
        out.push_back({ q.text(0), q.text(1), q.isNull(3) ? std::string("NULL") : q.text(3), q.int64(2) != 0,
            q.int64(4), q.int64(5) });
    return out;
}

// Why two tables whose CREATE statements differ are not the same, column by column.
std::string tableDifference(const std::string& table, const std::vector<Column>& file, const std::vector<Column>& ours)
{
    for (size_t i = 0; i < file.size() || i < ours.size(); ++i) {
        if (i >= ours.size())
            return "has a column " + shownName(table + "." + file[i].name) + " that wrkbench did not create";
        const Column& mine = ours[i];
        const std::string column = shownName(table + "." + mine.name);
        if (i >= file.size()) return "lacks the column " + column;
        const Column& theirs = file[i];
        if (lowered(theirs.name) != lowered(mine.name))
            return "has a column " + shownName(table + "." + theirs.name) + " where wrkbench made " + column;
        if (lowered(theirs.type) != lowered(mine.type))
            return "declares the column " + column + " as " + shownName(theirs.type) + " where wrkbench declares "
                + shownName(mine.type);
        if (theirs.notNull != mine.notNull)
            return std::string(theirs.notNull ? "makes" : "lets") + " the column " + column
                + (theirs.notNull ? " NOT NULL where wrkbench lets it be NULL"
                                  : " be NULL where wrkbench makes it NOT NULL");
        if (normalizedSql(theirs.defaultValue) != normalizedSql(mine.defaultValue))
            return "gives the column " + column + " the default " + printableLine(theirs.defaultValue, 60)
                + " where wrkbench gives " + mine.defaultValue;
        if (theirs.keyPosition != mine.keyPosition)
            return "keys the table " + shownName(table) + " otherwise than wrkbench (column " + column + ")";
        if (theirs.hidden != mine.hidden)
            return "makes the column " + column + " generated or hidden where wrkbench does not";
    }
    return "defines the table " + shownName(table) + " otherwise than wrkbench (its constraints differ)";
}

} // namespace

Status checkSchemaShape(SqlDatabase& db, int version)
{
    if (version < 1 || version > SCHEMA_VERSION)
        return Error { "has schema version " + std::to_string(version) + ", which wrkbench does not know" };
    const std::vector<SchemaObject>& ours = referenceObjects(version);
    const std::vector<SchemaObject> theirs = objectsOf(db);
    std::map<std::string, const SchemaObject*> ourByKey;
    std::map<std::string, const SchemaObject*> theirByKey;
    for (const SchemaObject& o : ours)
        ourByKey[o.key] = &o;
    for (const SchemaObject& o : theirs)
        theirByKey[o.key] = &o;

    // What should not be there at all (a trigger, a view, another table), or is there as something
    // else; what could run code first, as the most telling difference.
    for (const bool codeOnly : { true, false })
        for (const SchemaObject& o : theirs) {
            if (codeOnly && o.type != "trigger" && o.type != "view" && !o.isVirtual) continue;
            const std::string kind = kindOf(o);
            const std::string article = kind == "index" ? "an " : "a ";
            const auto it = ourByKey.find(o.key);
            if (it == ourByKey.end())
                return Error { "holds " + article + kind + " " + shownName(o.name) + " that wrkbench did not create" };
            if (kind != kindOf(*it->second))
                return Error { "holds " + article + kind + " " + shownName(o.name) + " where wrkbench made "
                    + (it->second->type == "index" ? "an " : "a ") + it->second->type };
        }
    // What should be there and is not.
    for (const SchemaObject& o : ours)
        if (!theirByKey.contains(o.key))
            return Error { "lacks the " + o.type + " " + shownName(o.name) + " that wrkbench makes" };
    // What is there, defined otherwise.
    for (const SchemaObject& o : ours) {
        const SchemaObject& file = *theirByKey.at(o.key);
        if (file.sql == o.sql) continue;
        if (o.type != "table")
            return Error { "defines the " + o.type + " " + shownName(o.name) + " otherwise than wrkbench" };
        SqlDatabase reference = referenceDatabase(version);
        return Error { tableDifference(o.name, columnsOf(db, o.name), columnsOf(reference, o.name)) };
    }
    return {};
}

} // namespace wb
