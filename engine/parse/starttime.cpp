#include "parse/starttime.h"

#include "parse/quantity.h"

#include <cctype>
#include <charconv>
#include <ctime>
#include <fmt/format.h>

namespace wb {

namespace {

constexpr int64_t US_PER_S = 1'000'000;
// Years 1970 to 9999: anything else is a typo, not a start time.
constexpr int64_t LATEST_UNIX_S = 253'402'300'799;

bool digits(const std::string& s, size_t at, size_t n, int& out)
{
    if (at + n > s.size()) return false;
    out = 0;
    for (size_t i = at; i < at + n; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

// ".25" at `at`: the fraction in µs (digits past the sixth are dropped); `at` moves past it.
bool fraction(const std::string& s, size_t& at, int64_t& us)
{
    us = 0;
    if (at >= s.size() || s[at] != '.') return true;
    ++at;
    const size_t first = at;
    int64_t scale = 100'000;
    while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
        us += (s[at] - '0') * scale;
        scale /= 10;
        ++at;
    }
    return at > first;
}

Result<int64_t> parseUnixSeconds(const std::string& s)
{
    size_t at = 0;
    int64_t seconds = 0;
    while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
        seconds = seconds * 10 + (s[at] - '0');
        if (seconds > LATEST_UNIX_S) return Error { fmt::format("start time '{}' is too far in the future", s) };
        ++at;
    }
    int64_t us = 0;
    if (at == 0 || !fraction(s, at, us) || at != s.size())
        return Error { fmt::format("start time '{}' is not unix seconds (e.g. 1764653400.5)", s) };
    return seconds * US_PER_S + us;
}

Result<int64_t> parseRfc3339(const std::string& s)
{
    const Error bad { fmt::format(
        "start time '{}' is not RFC 3339 (e.g. 2026-12-02T05:30:00Z or 2026-12-02T05:30:00.5+01:00)", s) };
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(s, 0, 4, year) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, month) || s[7] != '-'
        || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, hour)
        || s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':' || !digits(s, 17, 2, second))
        return bad;
    size_t at = 19;
    int64_t us = 0;
    if (!fraction(s, at, us)) return bad;
    int64_t offsetS = 0;
    if (at < s.size() && (s[at] == 'Z' || s[at] == 'z')) {
        ++at;
    } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
        int oh = 0, om = 0;
        if (!digits(s, at + 1, 2, oh) || at + 3 >= s.size() || s[at + 3] != ':' || !digits(s, at + 4, 2, om) || oh > 23
            || om > 59)
            return bad;
        offsetS = (s[at] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        at += 6;
    } else {
        return Error { fmt::format("start time '{}' needs a time zone: Z for UTC, or an offset such as +01:00", s) };
    }
    if (at != s.size()) return bad;
    if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return Error { fmt::format("start time '{}' is not a valid date and time", s) };
    std::tm tm {};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const time_t t = timegm(&tm);
    if (tm.tm_mday != day) return Error { fmt::format("start time '{}' is not a valid date and time", s) };
    return (static_cast<int64_t>(t) - offsetS) * US_PER_S + us;
}

} // namespace

Result<int64_t> parseStartTimeUs(const std::string& text, int64_t nowUnixUs)
{
    if (text.empty()) return Error { "the start time is empty" };
    if (text[0] == '+') {
        auto us = parseDurationUs(text.substr(1));
        if (!us) return Error { "start time '" + text + "': " + us.error() };
        return nowUnixUs + static_cast<int64_t>(*us);
    }
    if (text.find('-') != std::string::npos || text.find('T') != std::string::npos) return parseRfc3339(text);
    return parseUnixSeconds(text);
}

std::string formatRfc3339Utc(int64_t unixUs)
{
    const time_t seconds = static_cast<time_t>(unixUs / US_PER_S);
    std::tm tm {};
    gmtime_r(&seconds, &tm);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
        tm.tm_hour, tm.tm_min, tm.tm_sec, (unixUs % US_PER_S) / 1000);
}

Status checkStartNotPast(int64_t startUnixUs, int64_t nowUnixUs, int64_t toleranceUs)
{
    if (startUnixUs >= nowUnixUs - toleranceUs) return {};
    return Error { fmt::format("start time {} is {:.1f} s in the past (now {}); give a time in the future",
        formatRfc3339Utc(startUnixUs), static_cast<double>(nowUnixUs - startUnixUs) / 1e6,
        formatRfc3339Utc(nowUnixUs)) };
}

} // namespace wb
