#pragma once
// CSV as Python's csv module reads it (tests/engine/store/csv2json.py): the independent reader every
// CSV export is checked against.

#include "testsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace wb::test {

/// What csv2json.py prints for csvText (its header and rows), or a discarded value when Python could
/// not read it (the failure recorded in the test).
inline nlohmann::json parseCsvWithPython(const std::string& csvText)
{
    TempDir dir;
    writeFile(dir.file("x.csv"), csvText);
    const auto r = runProcess({ "python3", sourceDir() + "/tests/engine/store/csv2json.py", dir.file("x.csv") });
    EXPECT_EQ(r.exitCode, 0) << r.err << "\n" << csvText;
    return nlohmann::json::parse(r.out, nullptr, false);
}

/// An experiment's or a study's CSV export read the same way, its pooled rows (level "pooled", one per
/// variant) under "pooled", apart from the cells' rows under "rows".
inline nlohmann::json parseResultsCsvWithPython(const std::string& csvText)
{
    nlohmann::json table = parseCsvWithPython(csvText);
    if (!table.is_object() || !table.contains("rows")) return table;
    nlohmann::json cells = nlohmann::json::array(), pooled = nlohmann::json::array();
    for (const auto& row : table["rows"])
        (row.value("level", "") == "pooled" ? pooled : cells).push_back(row);
    table["rows"] = cells;
    table["pooled"] = pooled;
    return table;
}

} // namespace wb::test
