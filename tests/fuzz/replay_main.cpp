// main() for builds without libFuzzer: runs every file of the given directories
// (or the given files) through the fuzz target once, so the corpus is a plain
// regression test. Fails when there is nothing to replay.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

static bool replayFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "cannot read " << path << "\n";
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <corpus dir or file>...\n";
        return 2;
    }
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code error;
        if (fs::is_directory(arg, error)) {
            std::vector<fs::path> files;
            for (const auto& entry : fs::directory_iterator(arg, error))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end()); // a stable order makes failures reproducible
            for (const auto& file : files) {
                if (!replayFile(file)) return 1;
                ++replayed;
            }
        } else if (fs::is_regular_file(arg, error)) {
            if (!replayFile(arg)) return 1;
            ++replayed;
        } else {
            std::cerr << "no such file or directory: " << arg << "\n";
            return 1;
        }
    }
    std::cout << "replayed " << replayed << " inputs\n";
    return replayed > 0 ? 0 : 1;
}
