#include "terminalout.h"

#include "common/text.h"

#include <iostream>

namespace wb::cli {

TerminalTextBuffer::TerminalTextBuffer(std::streambuf* out)
    : m_out(out)
{ }

TerminalTextBuffer::~TerminalTextBuffer()
{
    pass(true);
}

TerminalTextBuffer::int_type TerminalTextBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    m_pending.push_back(traits_type::to_char_type(c));
    pass(false);
    return c;
}

std::streamsize TerminalTextBuffer::xsputn(const char* s, std::streamsize n)
{
    m_pending.append(s, static_cast<size_t>(n));
    pass(false);
    return n;
}

int TerminalTextBuffer::sync()
{
    pass(true);
    return m_out->pubsync();
}

void TerminalTextBuffer::pass(bool all)
{
    // What the next write may complete stays: a UTF-8 sequence cut in two, or a carriage return
    // that a line feed may follow ("\r\n" is a line break; a lone "\r" is escaped).
    size_t keep = all ? 0 : utf8IncompleteTail(m_pending);
    if (!all && keep == 0 && !m_pending.empty() && m_pending.back() == '\r') keep = 1;
    if (m_pending.size() == keep) return;
    const std::string text = terminalText(std::string_view(m_pending).substr(0, m_pending.size() - keep));
    m_out->sputn(text.data(), static_cast<std::streamsize>(text.size()));
    m_pending.erase(0, m_pending.size() - keep);
}

void installTerminalText()
{
    // Never destroyed: std::cout is flushed at exit after every static destructor has run.
    static auto* const out = new TerminalTextBuffer(std::cout.rdbuf());
    static auto* const err = new TerminalTextBuffer(std::cerr.rdbuf());
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
}

} // namespace wb::cli
