#pragma once
// wrkbench-cli's door to the terminal: everything the CLI writes to std::cout and std::cerr
// passes through terminalText (common/text.h) on its way out, so a target name, a tag, a
// scraped label or an error message quoting a file cannot clear the screen, retitle the window
// or write the clipboard, whatever printed it. Installed first thing in main().
//
// It applies whether or not the stream is a terminal: text piped to `less -R` or `cat` ends on
// one too. Files named by --json, --csv, --html and the like are written by writeOutput as
// valid UTF-8 with their bytes otherwise kept, and a JSON report is the same either way
// (common/jsontext.h already writes every control character as a \u escape).

#include <memory>
#include <streambuf>
#include <string>

namespace wb::cli {

/// A streambuf that passes what it is given to `out` as terminalText, holding back only a UTF-8
/// sequence or a carriage return cut by the end of a write until the next write or a flush. It
/// keeps no buffer of its own, so its output interleaves with C stdio's as before.
class TerminalTextBuffer final : public std::streambuf
{
public:
    explicit TerminalTextBuffer(std::streambuf* out);
    ~TerminalTextBuffer() override;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void pass(bool all);

    std::streambuf* m_out;
    std::string m_pending;
};

/// Puts a TerminalTextBuffer in front of std::cout and std::cerr for the rest of the process.
void installTerminalText();

} // namespace wb::cli
