#pragma once
// Where a run's load is made, as one line a person types (the GUI's Loaders field):
//
//   "1"                                   this process (the default)
//   "4" or "4 local"                      four loaders, child processes on this machine
//   "8 kubernetes namespace=load image=registry.example/wrkbench-cli:0.1.0 context=gke cpu=2 memory=1Gi"
//   "remote vm1, vm2"                     one loader on each remote agent (names of the GUI's
//                                         remote loaders, or HOST:PORT), docs/AGENT.md
//
// Keys after "kubernetes" are optional and in any order.

#include "common/result.h"
#include "run/runconfig.h"

#include <string>

namespace wb {

Result<LoaderPlacement> parseLoaderPlacement(const std::string& text);
/// The inverse: the shortest text that parses back to placement.
std::string loaderPlacementText(const LoaderPlacement& placement);

} // namespace wb
