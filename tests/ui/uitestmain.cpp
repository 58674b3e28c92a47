// main() of ui_test, the one executable of the window tests: `ui_test NAME [QtTest arguments]` runs
// the test class of NAME_test.cpp, one class a process as each had its own executable, offscreen and
// in a private XDG home (uitestsupport.h). One executable lets the files compile in unity batches and
// link once; ctest runs each class as a test of its own (tests/ui/CMakeLists.txt).

#include "uitestsupport.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace wb::uitest {

namespace {

std::map<std::string, TestFactory>& registry()
{
    static std::map<std::string, TestFactory> tests;
    return tests;
}

} // namespace

bool registerTest(const char* sourceFile, TestFactory factory)
{
    std::string name = sourceFile;
    if (const size_t slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
    if (name.ends_with("_test.cpp")) name.resize(name.size() - std::string("_test.cpp").size());
    registry()[name] = std::move(factory);
    return true;
}

} // namespace wb::uitest

int main(int argc, char** argv)
{
    const auto& tests = wb::uitest::registry();
    const auto test = argc > 1 ? tests.find(argv[1]) : tests.end();
    if (test == tests.end()) {
        std::fprintf(stderr, "usage: %s NAME [QtTest arguments], NAME one of:", argc > 0 ? argv[0] : "ui_test");
        for (const auto& entry : tests)
            std::fprintf(stderr, " %s", entry.first.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    // QtTest sees the program and the arguments after NAME.
    std::vector<char*> args { argv[0] };
    args.insert(args.end(), argv + 2, argv + argc);
    const int count = static_cast<int>(args.size());
    args.push_back(nullptr);
    return wb::uitest::runTestClass(count, args.data(), test->second);
}
