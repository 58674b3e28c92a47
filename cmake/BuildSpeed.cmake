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
# target. -DWB_UNITY_BUILD=OFF compiles file by file.
option(WB_UNITY_BUILD "Compile each target's files in batches (unity build)" ON)
set(WB_UNITY_BATCH_SIZE 8)
if(WB_UNITY_BUILD)
    # GCC warns when a class uses a type of an anonymous namespace in an included file, taking it for a
    # header that every includer would give another type; in a unity build every source is included so.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
    endif()
endif()

# wb_unity_batches(DIR): the batches of every target under DIR that compiles more than one file, called
# once all targets exist. The batch files are ours, not CMake's UNITY_BUILD: CMake's include each source
# by its absolute path, so a clone in another directory (a CI's) compiled every batch again although
# the ccache held it; ours name each source relative to the batch file, the same text in every clone of
# the same commit (the ccache rewrites the paths on the command line itself, CCACHE_BASEDIR).
#   - A target of one file is compiled as itself: it gains nothing, and its ccache entry is shared.
#   - A file that two targets compile, and a generated one, are compiled as themselves too (a source
#     file's HEADER_FILE_ONLY, which keeps a batched file from being compiled twice, holds for every
#     target of its directory).
#   - Targets that run moc (AUTOMOC) keep CMake's UNITY_BUILD: moc finds a class's header through the
#     source files the target compiles.
function(wb_unity_batches dir)
    wb_targets_under(${dir} targets)
    # The files more than one target compiles.
    set(seen "")
    set(shared "")
    foreach(target IN LISTS targets)
        wb_compiled_sources(${target} sources)
        foreach(source IN LISTS sources)
            list(FIND seen ${source} at)
            if(at EQUAL -1)
                list(APPEND seen ${source})
            else()
                list(APPEND shared ${source})
            endif()
        endforeach()
    endforeach()
    foreach(target IN LISTS targets)
        wb_compiled_sources(${target} sources)
        get_target_property(automoc ${target} AUTOMOC)
        list(LENGTH sources count)
        if(count LESS_EQUAL 1)
            continue()
        elseif(automoc)
            set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${WB_UNITY_BATCH_SIZE})
            continue()
        endif()
        set(batchable "")
        foreach(source IN LISTS sources)
            list(FIND shared ${source} at)
            string(FIND ${source} "${CMAKE_SOURCE_DIR}/" in_sources)
            string(FIND ${source} "${CMAKE_BINARY_DIR}/" in_build)
            if(at EQUAL -1 AND in_sources EQUAL 0 AND in_build EQUAL -1)
                list(APPEND batchable ${source})
            endif()
        endforeach()
        list(LENGTH batchable count)
        if(count LESS_EQUAL 1)
            continue()
        endif()
        get_target_property(binary_dir ${target} BINARY_DIR)
        get_target_property(source_dir ${target} SOURCE_DIR)
        set(batch_dir ${binary_dir}/CMakeFiles/${target}.dir/batches)
        set(batch 0)
        set(text "")
        set(in_batch 0)
        set(batch_files "")
        foreach(source IN LISTS batchable)
            file(RELATIVE_PATH relative ${batch_dir} ${source})
            string(APPEND text "#include \"${relative}\"\n")
            math(EXPR in_batch "${in_batch} + 1")
            if(in_batch EQUAL WB_UNITY_BATCH_SIZE)
                wb_write_batch(${batch_dir}/batch_${batch}.cpp "${text}")
                list(APPEND batch_files ${batch_dir}/batch_${batch}.cpp)
                math(EXPR batch "${batch} + 1")
                set(text "")
                set(in_batch 0)
            endif()
        endforeach()
        if(in_batch GREATER 0)
            wb_write_batch(${batch_dir}/batch_${batch}.cpp "${text}")
            list(APPEND batch_files ${batch_dir}/batch_${batch}.cpp)
        endif()
        set_source_files_properties(${batchable} DIRECTORY ${source_dir} PROPERTIES HEADER_FILE_ONLY ON)
        target_sources(${target} PRIVATE ${batch_files})
    endforeach()
endfunction()

# The targets defined under dir, its subdirectories' included.
function(wb_targets_under dir out)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirectories DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(subdirectory IN LISTS subdirectories)
        wb_targets_under(${subdirectory} more)
        list(APPEND targets ${more})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
endfunction()

# The C++ files a target compiles, as absolute paths (none for a target that compiles nothing).
function(wb_compiled_sources target out)
    set(compiled "")
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        get_target_property(sources ${target} SOURCES)
        get_target_property(source_dir ${target} SOURCE_DIR)
        foreach(source IN LISTS sources)
            if(source MATCHES "\\$<" OR NOT source MATCHES "\\.(cc|cpp|cxx)$")
                continue()
            endif()
            get_filename_component(source ${source} ABSOLUTE BASE_DIR ${source_dir})
            list(APPEND compiled ${source})
        endforeach()
    endif()
    set(${out} ${compiled} PARENT_SCOPE)
endfunction()

# Writes a batch file only when its text changed, so a new configuration recompiles no batch.
function(wb_write_batch path text)
    set(text "// A unity batch (cmake/BuildSpeed.cmake): these files compiled as one.\n${text}")
    if(EXISTS ${path})
        file(READ ${path} old)
        if(old STREQUAL text)
            return()
        endif()
    endif()
    file(WRITE ${path} "${text}")
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
