# One INTERFACE target carries the project's warning flags and language level;
# every library and executable links it instead of repeating flags.
add_library(wb_warnings INTERFACE)
target_compile_features(wb_warnings INTERFACE cxx_std_20)
target_compile_options(wb_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough>
    $<$<BOOL:${WB_WERROR}>:-Werror>)
