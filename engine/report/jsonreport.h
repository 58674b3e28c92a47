#pragma once
// Machine-readable run result (`--json FILE`). Its "intervals" and histograms are
// the wire library's records (wire/intervalcodec.h), so a merger reads them back exactly.

#include "run/runresult.h"
#include "wire/loaderstream.h"

#include <string>

namespace wb {

/// The JSON document, pretty-printed with two-space indentation.
std::string formatJsonReport(const RunResult& result);

/// A loader's --json document (`run --shard I/N --json F`): the report plus the "loader" object
/// `merge` reads back (wire/loaderread.h).
std::string formatLoaderDocument(const RunResult& share, const LoaderIdentity& identity);

} // namespace wb
