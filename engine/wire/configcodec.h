#pragma once
// The run configuration on the wire and in the store: RunConfig as JSON, so a stored run can be re-run years later
// exactly as it was made, and every loader, pod and agent of a distributed run runs exactly what the user asked for.
// Durations are integer microseconds (no rounding). Bytes are bytes: a body or header value that is not valid UTF-8
// (strictly: common/utf8.h) travels as base64 ("body_base64", "value_base64"), never as replaced text. The parse is
// bounded (wire/wirejson.h); malformed input is one sentence, never an exception. In short:
//   {"format":1,"url":"https://10.0.0.1/","method":"GET","http_version":"h2","headers":[{"name":..,"value":..}],
//    "body":"","tls":{"verify":true,"ca_file":""},"threads":2,"connections":10,...,"duration_us":10000000,...}

#include "common/result.h"
#include "run/runconfig.h"
#include "wire/wirejson.h"

#include <string>
#include <vector>

namespace wb {

/// The whole configuration: request, TLS and load.
std::string runConfigToJson(const RunConfig& config);
/// Inverse of runConfigToJson(). Missing keys keep RunConfig's defaults; a URL
/// that does not parse (an imported log's "http://svc... :80/") is kept as
/// typed in request.url.original. Fails only on malformed JSON or wrong types.
Result<RunConfig> runConfigFromJson(const std::string& json);

/// Only the load shape (threads ... stages): what a load profile holds.
std::string loadProfileToJson(const RunConfig& load);
/// Reads the load fields of json into a default RunConfig.
Result<RunConfig> loadProfileFromJson(const std::string& json);

/// Headers as a JSON array of {"name","value"} objects (order kept).
std::string headersToJson(const std::vector<Header>& headers);
Result<std::vector<Header>> headersFromJson(const std::string& json);

/// A run's SLO verdicts as stored (runs.slo) and reported (run --json, capacity --json):
/// [{"expr", "value" (null when unknown), "unit", "ok"}].
WireJson sloVerdictsJson(const std::vector<SloVerdict>& verdicts);
std::string sloVerdictsToJson(const std::vector<SloVerdict>& verdicts);
/// The inverse; an unreadable text is no verdicts (never an exception).
std::vector<SloVerdict> sloVerdictsFromJson(const std::string& json);

} // namespace wb
