#pragma once
// The session schema and its forward migrations.
//
// A session file carries PRAGMA application_id = SESSION_APPLICATION_ID (so
// `file` and wrkbench recognise it) and PRAGMA user_version = the schema
// version it was written with. migrate() takes a file from any earlier version
// to SCHEMA_VERSION one step at a time, in one transaction; version 0 is the
// empty file, so creating a session is migrating it from 0.
//
// Adding version N+1: append one step to the list in schema.cpp (never edit a
// released step), bump SCHEMA_VERSION, and keep a fixture file of version N
// under tests/engine/store/fixtures/ for the migration test.

#include <cstdint>

namespace wb {

class SqlDatabase;

/// 'WRKB'.
inline constexpr int32_t SESSION_APPLICATION_ID = 0x57524B42;
/// The schema version this program writes and understands.
inline constexpr int SCHEMA_VERSION = 17;

/// Migrates db from its user_version to SCHEMA_VERSION inside one write
/// transaction (re-reading the version under the lock, so two processes opening
/// an old file at once migrate it once). Throws SqlError; the file is unchanged
/// then. Never called on a file newer than SCHEMA_VERSION.
void migrateSchema(SqlDatabase& db);

/// Migrates db from its user_version up to toVersion only (for the migration tests).
void migrateSchemaTo(SqlDatabase& db, int toVersion);

} // namespace wb
