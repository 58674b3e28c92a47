#pragma once
// What a fresh session starts with, and the load shapes wrkbench ships.
//
// Demo targets use the built-in target server: their URL host is "builtin"
// (e.g. http://builtin/delay/2). When such a target runs, the server is
// started in-process on a free loopback port and the URL is pointed at it,
// so the first Run works offline with no set-up (see engine/serve/builtinserver.h).

#include "store/sessionstore.h"

#include <vector>

namespace wb::ui {

/// "Demo: fast" (/), "Demo: large answers (16 KB)", "Demo: not found (404)", "Demo: slow (2 ms delay)".
std::vector<Target> demoTargets();
/// Adds the demo targets to store in one transaction.
Status seedDemoTargets(SessionStore& store);

/// The load used when nothing else is chosen: 2 threads, 50 connections, 10 s.
RunConfig defaultLoad();
/// The classics from the studies wrkbench replaces (wrk -t12 -c400 -d30s, ...).
/// Presets are not stored in sessions; they have negative ids.
std::vector<LoadProfile> presetProfiles();

} // namespace wb::ui
