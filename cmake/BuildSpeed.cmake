# What keeps a cold build short on a 2-core machine (docs/DEVELOPMENT.md has the measurements).
#
# Where the time went (cold default build, .ninja_log summed per kind, 2026-12-04): compiling the
# ~130 test files took 42% of all compile and link time, the engine 23%, the GUI 15%, the CLI 8%,
# linking 6%. A test file spent about 60% of its compile in the optimiser (-O2 -g) and most of
# the rest parsing GoogleTest and nlohmann-json again. Hence:
#   - test code is compiled without optimisation (the engine it drives stays optimised: a test's
#     load runs in the libraries, never in the test's own code);
#   - the headers every test parses are precompiled once per kind of test (GoogleTest + json +
#     the standard library; QtTest + the Qt Widgets headers) and reused by every test of that kind;
#   - the GUI library precompiles the Qt headers its files share;
#   - mold links when installed (the ~120 test executables each link most of the engine).

# Debug information is line tables and function names (-g1), not every local's location: stack
# traces (ASan, UBSan, gdb's bt), perf, callgrind and hotspot need no more, and a json-heavy file
# compiles in 25-45% less time with -g1 than with -g, its object a quarter the size (measured on
# five engine files, docs/DEVELOPMENT.md). -DWB_FULL_DEBUG_INFO=ON gives a debugger the locals again.
# The fuzz tree sets its own flags (-gline-tables-only, tests/fuzz/run-fuzz.sh), which this leaves.
option(WB_FULL_DEBUG_INFO "Full debug information (-g): locals and types for a debugger" OFF)
if(NOT WB_FULL_DEBUG_INFO AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    foreach(lang C CXX)
        foreach(config DEBUG RELWITHDEBINFO)
            string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${lang}_FLAGS_${config} "${CMAKE_${lang}_FLAGS_${config}}")
        endforeach()
    endforeach()
endif()

# Unity builds: a target's files compiled a batch at a time, as one translation unit, so the headers
# they share (the engine's, the standard library's, json's, Qt's) are parsed and instantiated once per
# batch instead of once per file. The cold default build's compile and link time fell by a third (2,560
# s to 1,629 s, bench/results/build-times.md); what it costs is a larger recompile when one file of a
# batch changes. File-local names (anonymous namespaces, statics) must therefore be unique within a
# target.
option(WB_UNITY_BUILD "Compile each target's files in batches (unity build)" ON)
if(WB_UNITY_BUILD)
    set(CMAKE_UNITY_BUILD ON)
    set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
    # GCC warns when a class uses a type of an anonymous namespace in an included file, taking it for a
    # header that every includer would give another type; in a unity build every source is included so.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
    endif()
endif()

# wb_unity_for_batches_only(DIR): no unity build for the targets under DIR that compile one file (most
# test executables, the programs' mains): they gain nothing, and compiled as themselves their ccache
# entries are the same in every clone, where a unity file names its sources by absolute path.
function(wb_unity_for_batches_only dir)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
        get_target_property(sources ${target} SOURCES)
        if(sources)
            list(FILTER sources INCLUDE REGEX "\\.(c|cc|cpp|cxx)$")
            list(LENGTH sources count)
            if(count LESS_EQUAL 1)
                set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
            endif()
        endif()
    endforeach()
    get_property(subdirectories DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(subdirectory IN LISTS subdirectories)
        wb_unity_for_batches_only(${subdirectory})
    endforeach()
endfunction()

option(WB_FAST_LINK "Link with mold when it is installed" ON)
find_program(WB_MOLD mold)
if(WB_FAST_LINK AND WB_MOLD AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    add_link_options(-fuse-ld=mold)
endif()

option(WB_PCH "Precompile the headers tests and the GUI share" ON)
# GCC falls back to the headers when a precompiled one does not fit a target's flags; clang (the ASan
# and fuzz trees) refuses to compile instead, so precompiled headers are GCC's only.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(WB_PCH OFF)
endif()

# wb_test_code(target): compile a test's own code for a quick build (see above).
function(wb_test_code target)
    if(NOT CMAKE_BUILD_TYPE MATCHES "Debug")
        target_compile_options(${target} PRIVATE -O0)
    endif()
endfunction()

# wb_reuse_pch(target pch_target): use the precompiled headers of pch_target. Both must be compiled
# with the same flags and definitions, or GCC falls back to reading the headers (correct, only slower).
function(wb_reuse_pch target pch_target)
    if(WB_PCH AND TARGET ${pch_target})
        target_precompile_headers(${target} REUSE_FROM ${pch_target})
    endif()
endfunction()
