// Compiled only to make the precompiled header the engine's JSON users share (engine/CMakeLists.txt).
