#pragma once
// Is a session file's schema the one wrkbench made? A .wrkbench is an SQLite file that people
// mail to each other; a trigger, view or reshaped table placed in it would run or mislead inside
// wrkbench. Before a file is used, its schema is compared with what this version's own
// migrations make of an empty file at the file's schema version (built once per version in an
// in-memory database and kept): the same tables with the same definition (columns, declared
// types, NOT NULL, defaults, keys, constraints), the same indexes, and nothing else.
//
//   if (auto st = checkSchemaShape(db, version); !st)
//       return Error { "'" + path + "' " + st.error() + ": it was not opened (nothing was written)" };

#include "common/result.h"

namespace wb {

class SqlDatabase;

/// Compares db's schema ("main") with the one wrkbench makes at `version` (1..SCHEMA_VERSION).
/// The error is one phrase naming the first difference, to follow the file's name:
/// "holds a trigger 'evil' that wrkbench did not create", "declares the column
/// 'runs.requests_per_s' TEXT where wrkbench declares it REAL". Throws SqlError when the schema
/// cannot be read at all.
Status checkSchemaShape(SqlDatabase& db, int version);

} // namespace wb
