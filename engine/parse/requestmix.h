#pragma once
// Request mixes (wrkbench-cli run --requests FILE): several requests, each with its own method, headers, body and
// weight, sent to one origin. Two formats, told apart by the first non-blank character: JSON Lines ('{') and vegeta's
// line format (entries separated by blank lines, '#' comment lines, weight 1 each); docs/CLI.md, "Request mixes", has
// both. Every problem is refused whole, with one line "FILE:LINE: message"; nothing is partially returned.

#include "common/result.h"
#include "http/request.h"
#include "http/url.h"
#include "run/mixorder.h"
#include "run/runconfig.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct MixEntry
{
    RequestSpec request; ///< method, url (parsed with parseUrl), headers, body
    double weight = 1; ///< > 0 and finite
    unsigned line = 0; ///< 1-based line where the entry starts in the file
    /// Short display name for report tables: method and request target, "GET /path?q".
    std::string label() const;
};

struct RequestMix
{
    std::string source; ///< the file path as given (for messages)
    std::vector<MixEntry> entries; ///< at least one
    /// Scheme, host and port every entry shares, as a Url with target "/" (one
    /// connection pool serves one origin).
    Url origin() const;
};

constexpr uint64_t MAX_REQUEST_MIX_BYTES = 100ull * 1024 * 1024; ///< the mix file, and each body file
constexpr size_t MAX_REQUEST_MIX_ENTRIES = 65535; ///< entries are indexed by uint16_t in the engine
/// All the entries' bodies together (a body file named by many entries counts each time):
/// each entry keeps its own copy, so this bounds the memory a mix can take.
constexpr uint64_t MAX_REQUEST_MIX_BODY_TOTAL_BYTES = 1024ull * 1024 * 1024;

/// Reads and parses a mix file. Format detected by the first non-blank character:
/// '{' = JSON Lines, else line format. Body files (@path / body_file) are resolved
/// relative to the mix file's directory unless absolute. A file over
/// MAX_REQUEST_MIX_BYTES is refused before it is read.
Result<RequestMix> loadRequestMix(const std::string& path);
/// Same from text already in memory (name is used in messages, baseDir resolves body files).
Result<RequestMix> parseRequestMix(std::string_view text, const std::string& name, const std::string& baseDir);

/// Makes `config` send the mix: config.mix holds the entries (with `extraHeaders`, e.g. the
/// CLI's -H, added to each unless the entry sets the same name), config.request the first
/// entry (the origin that the pre-run check, TLS and the report read).
void applyRequestMix(RunConfig& config, const RequestMix& mix, MixOrder order, uint64_t seed,
    const std::vector<Header>& extraHeaders = {});

} // namespace wb
