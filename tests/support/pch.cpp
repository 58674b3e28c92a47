// Compiled only to make the precompiled header the GoogleTest files share (tests/CMakeLists.txt).
