#pragma once
// Internal to engine/store: how the records map onto columns. Each group of
// columns is named once here; the SQL text and the bind/read order both come
// from these lists, so they cannot drift apart.

#include "store/sessiontypes.h"

#include <string>
#include <vector>

namespace wb {

class SqlStatement;

/// Columns of RunTotals in the runs table, in bind/read order.
const std::vector<std::string>& totalsColumns();
void bindTotals(SqlStatement& q, const RunTotals& t);
/// Reads RunTotals from column `column` on; advances column past them.
RunTotals readTotals(const SqlStatement& q, int& column);

/// Columns of IntervalRecord (without run_id), in bind/read order.
const std::vector<std::string>& intervalColumns();
void bindInterval(SqlStatement& q, const IntervalRecord& r);
IntervalRecord readInterval(const SqlStatement& q, int& column);

/// The columns of run_entries (schema 7), without run_id; readEntry() returns the entry's index too.
const std::vector<std::string>& entryColumns();
void bindEntry(SqlStatement& q, size_t index, const std::string& label, const EntryStats& e);
EntryStats readEntry(const SqlStatement& q, int& column, size_t& index);

/// "a, b, c" and "?, ?, ?".
std::string joinColumns(const std::vector<std::string>& columns, const std::string& prefix = {});
std::string placeholders(size_t n);

/// A loader's cost as the wire's JSON (wire/intervalcodec loaderCostToJson), "" when nothing was measured;
/// and back (a text the codec refuses reads as not measured).
std::string loaderCostText(const LoaderCost& cost);
LoaderCost loaderCostOfText(const std::string& text);

/// {"200": 12, "503": 1} and back; malformed JSON reads as no codes.
std::string statusCodesToJson(const std::vector<std::pair<int, uint64_t>>& codes);
std::vector<std::pair<int, uint64_t>> statusCodesFromJson(const std::string& json);

/// Tags joined with "," (sorted), and split back.
std::string joinTags(const std::vector<std::string>& tags);
std::vector<std::string> splitTags(const std::string& text);

} // namespace wb
