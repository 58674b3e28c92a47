#include "prometheus/exposition/exposition.h"

#include "common/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace wb {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

void skipBlanks(std::string_view& s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
}

std::string_view takeName(std::string_view& s)
{
    if (s.empty() || !isNameStart(s.front())) return {};
    size_t n = 1;
    while (n < s.size() && isNameChar(s[n]))
        ++n;
    std::string_view name = s.substr(0, n);
    s.remove_prefix(n);
    return name;
}

std::string_view takeToken(std::string_view& s)
{
    size_t n = 0;
    while (n < s.size() && !isBlank(s[n]))
        ++n;
    std::string_view token = s.substr(0, n);
    s.remove_prefix(n);
    return token;
}

/// A quoted string with the format's escapes (\\, \", \n); s starts at the opening quote.
/// Returns false when it does not end on this line or is longer than maxBytes. The text is
/// made valid UTF-8 here, where it enters (common/text.h): both formats say label values are
/// UTF-8, Prometheus refuses a scrape that breaks that, and a name that is not would reach
/// every JSON writer, the session and the terminal.
bool takeQuoted(std::string_view& s, size_t maxBytes, std::string& out)
{
    out.clear();
    if (s.empty() || s.front() != '"') return false;
    size_t i = 1;
    for (; i < s.size() && s[i] != '"'; ++i) {
        char c = s[i];
        if (c == '\\') {
            if (++i == s.size()) return false;
            c = s[i] == 'n' ? '\n' : s[i]; // \\ and \" stand for themselves; others are kept as written
        }
        if (out.size() == maxBytes) return false;
        out.push_back(c);
    }
    if (i == s.size()) return false;
    s.remove_prefix(i + 1);
    if (!isValidUtf8(out)) out = validUtf8(out);
    return true;
}

/// A value as both formats write it: a float, +Inf, -Inf, NaN (any case).
bool parseValue(std::string_view token, double& out)
{
    if (token.empty()) return false;
    bool negative = false;
    if (token.front() == '+' || token.front() == '-') {
        negative = token.front() == '-';
        token.remove_prefix(1);
        if (token.empty() || token.front() == '+' || token.front() == '-') return false;
    }
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    if (ec != std::errc() || end != token.data() + token.size()) {
        // from_chars refuses values out of double's range with the rest parsed; the format's
        // writers never print those, so they are refused too.
        return false;
    }
    if (negative) out = -out;
    return true;
}

MetricType typeNamed(std::string_view name, bool& known)
{
    known = true;
    if (name == "counter") return MetricType::Counter;
    if (name == "gauge") return MetricType::Gauge;
    if (name == "histogram") return MetricType::Histogram;
    if (name == "summary") return MetricType::Summary;
    if (name == "gaugehistogram") return MetricType::GaugeHistogram;
    if (name == "info") return MetricType::Info;
    if (name == "stateset") return MetricType::StateSet;
    if (name == "untyped" || name == "unknown") return MetricType::Untyped;
    known = false;
    return MetricType::Untyped;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct Resolved
{
    std::string_view family;
    MetricType type = MetricType::Untyped;
    SampleRole role = SampleRole::Value;
};

class Parser
{
public:
    Parser(const SampleFilter& keep, const ExpositionLimits& limits)
        : m_keep(keep)
        , m_limits(limits)
    { }

    Exposition run(std::string_view text)
    {
        if (text.size() > m_limits.maxBytes) {
            text = text.substr(0, m_limits.maxBytes);
            // The cut line is incomplete: drop it rather than read half a value.
            text = text.substr(0, text.rfind('\n') == std::string_view::npos ? 0 : text.rfind('\n') + 1);
            m_out.truncated = true;
            note(0, "more than " + std::to_string(m_limits.maxBytes) + " bytes; the rest was not read");
        }
        size_t lineNo = 0;
        bool eof = false;
        while (!text.empty()) {
            size_t eol = text.find('\n');
            std::string_view line = text.substr(0, eol);
            text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
            ++lineNo;
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            if (eof) {
                if (!line.empty()) bad(lineNo, "text after '# EOF'");
                break;
            }
            if (line.empty() || std::all_of(line.begin(), line.end(), isBlank)) continue;
            if (line.front() == '#') {
                eof = comment(lineNo, line);
                continue;
            }
            if (!sample(lineNo, line)) break; // the sample limit was reached
        }
        if (m_badBeyond > 0)
            m_out.warnings.push_back("and " + std::to_string(m_badBeyond) + " more lines not understood");
        return std::move(m_out);
    }

private:
    void note(size_t lineNo, const std::string& what)
    {
        if (m_out.warnings.size() < m_limits.maxWarnings)
            m_out.warnings.push_back(lineNo ? "line " + std::to_string(lineNo) + ": " + what : what);
        else
            ++m_badBeyond;
    }

    void bad(size_t lineNo, const std::string& what)
    {
        ++m_out.badLines;
        note(lineNo, what);
    }

    /// Returns true on '# EOF'.
    bool comment(size_t lineNo, std::string_view line)
    {
        line.remove_prefix(1);
        skipBlanks(line);
        if (line == "EOF") return true;
        std::string_view keyword = takeToken(line);
        if (keyword != "TYPE") return false; // HELP, UNIT and plain comments say nothing we use
        skipBlanks(line);
        std::string_view name = takeName(line);
        skipBlanks(line);
        std::string_view type = takeToken(line);
        bool known = false;
        MetricType t = typeNamed(type, known);
        if (name.empty() || !known) {
            bad(lineNo, "a TYPE line that names no metric or no known type");
            return false;
        }
        if (name.size() > m_limits.maxNameBytes) {
            bad(lineNo, "a metric name longer than " + std::to_string(m_limits.maxNameBytes) + " bytes");
            return false;
        }
        if (m_types.size() < 4 * m_limits.maxSamples) m_types[std::string(name)] = t;
        return false;
    }

    Resolved resolve(std::string_view name, bool hasQuantile) const
    {
        auto declared = [&](std::string_view family) -> const MetricType* {
            auto it = m_types.find(std::string(family));
            return it == m_types.end() ? nullptr : &it->second;
        };
        if (const MetricType* t = declared(name)) {
            const bool quantile = *t == MetricType::Summary && hasQuantile;
            return { name, *t, quantile ? SampleRole::Quantile : SampleRole::Value };
        }
        struct Suffix
        {
            std::string_view text;
            SampleRole role;
        };
        static constexpr Suffix SUFFIXES[] = { { "_total", SampleRole::Total }, { "_created", SampleRole::Created },
            { "_bucket", SampleRole::Bucket }, { "_sum", SampleRole::Sum }, { "_count", SampleRole::Count },
            { "_gsum", SampleRole::Sum }, { "_gcount", SampleRole::Count }, { "_info", SampleRole::Value } };
        for (const Suffix& s : SUFFIXES) {
            if (!endsWith(name, s.text)) continue;
            std::string_view family = name.substr(0, name.size() - s.text.size());
            if (const MetricType* t = declared(family)) return { family, *t, s.role };
        }
        return { name, MetricType::Untyped, SampleRole::Value };
    }

    bool kept(const Resolved& r, std::string_view name)
    {
        if (!m_keep) return true;
        auto it = m_keepCache.find(std::string(name));
        if (it != m_keepCache.end()) return it->second;
        const bool keep = m_keep(r.family, name);
        m_keepCache.emplace(std::string(name), keep);
        return keep;
    }

    /// Returns false when no more samples may be kept.
    bool sample(size_t lineNo, std::string_view line)
    {
        std::string_view rest = line;
        std::string name(takeName(rest));
        std::vector<MetricLabel> labels;
        if (name.empty() && (rest.empty() || rest.front() != '{')) {
            bad(lineNo, "not a metric name");
            return true;
        }
        std::string_view afterName = rest; // "name {" is read as "name{"; the blank before a value stays
        skipBlanks(afterName);
        if (!afterName.empty() && afterName.front() == '{') {
            rest = afterName;
            if (!labelSet(lineNo, rest, name, labels)) return true;
        }
        if (name.empty()) {
            bad(lineNo, "a label set without a metric name");
            return true;
        }
        if (name.size() > m_limits.maxNameBytes) {
            bad(lineNo, "a metric name longer than " + std::to_string(m_limits.maxNameBytes) + " bytes");
            return true;
        }
        if (rest.empty() || !isBlank(rest.front())) {
            bad(lineNo, "no value after the metric");
            return true;
        }
        skipBlanks(rest);
        double value = 0;
        if (!parseValue(takeToken(rest), value)) {
            bad(lineNo, "the value is not a number");
            return true;
        }
        skipBlanks(rest);
        // A timestamp may follow, then (OpenMetrics) an exemplar after '#': neither is used.
        if (!rest.empty() && rest.front() != '#') {
            double timestamp = 0;
            if (!parseValue(takeToken(rest), timestamp)) {
                bad(lineNo, "text after the value that is not a timestamp");
                return true;
            }
            skipBlanks(rest);
            if (!rest.empty() && rest.front() != '#') {
                bad(lineNo, "text after the timestamp");
                return true;
            }
        }
        ++m_out.samplesSeen;
        const bool hasQuantile
            = std::any_of(labels.begin(), labels.end(), [](const MetricLabel& l) { return l.name == "quantile"; });
        const Resolved r = resolve(name, hasQuantile);
        if (!kept(r, name)) return true;
        if (m_out.samples.size() == m_limits.maxSamples) {
            m_out.truncated = true;
            note(lineNo, "more than " + std::to_string(m_limits.maxSamples) + " series kept; the rest were dropped");
            return false;
        }
        MetricSample s;
        s.family = std::string(r.family);
        s.type = r.type;
        s.role = r.role;
        s.name = std::move(name);
        s.labels = std::move(labels);
        s.value = value;
        m_out.samples.push_back(std::move(s));
        return true;
    }

    /// {name="value",...}; OpenMetrics 2 / Prometheus 3 also allow a quoted metric name as the
    /// first item ({"my.metric", a="b"}) and quoted label names.
    bool labelSet(size_t lineNo, std::string_view& rest, std::string& name, std::vector<MetricLabel>& labels)
    {
        rest.remove_prefix(1);
        std::string text;
        for (;;) {
            skipBlanks(rest);
            if (rest.empty()) {
                bad(lineNo, "the label set does not end");
                return false;
            }
            if (rest.front() == '}') {
                rest.remove_prefix(1);
                return true;
            }
            std::string labelName;
            if (rest.front() == '"') {
                if (!takeQuoted(rest, m_limits.maxNameBytes, labelName)) {
                    bad(lineNo, "a quoted name that does not end or is too long");
                    return false;
                }
                skipBlanks(rest);
                if (!rest.empty() && rest.front() != '=') { // the quoted metric name
                    if (!name.empty() || !labels.empty()) {
                        bad(lineNo, "a second metric name in the label set");
                        return false;
                    }
                    name = std::move(labelName);
                    if (!comma(lineNo, rest)) return false;
                    continue;
                }
            } else {
                labelName = std::string(takeName(rest));
                if (labelName.empty()) {
                    bad(lineNo, "a label name that is not a name");
                    return false;
                }
                if (labelName.size() > m_limits.maxNameBytes) {
                    bad(lineNo, "a label name longer than " + std::to_string(m_limits.maxNameBytes) + " bytes");
                    return false;
                }
            }
            skipBlanks(rest);
            if (rest.empty() || rest.front() != '=') {
                bad(lineNo, "a label without '='");
                return false;
            }
            rest.remove_prefix(1);
            skipBlanks(rest);
            if (!takeQuoted(rest, m_limits.maxLabelValueBytes, text)) {
                bad(lineNo,
                    "a label value that is not quoted, does not end or is longer than "
                        + std::to_string(m_limits.maxLabelValueBytes) + " bytes");
                return false;
            }
            if (labels.size() == m_limits.maxLabels) {
                bad(lineNo, "more than " + std::to_string(m_limits.maxLabels) + " labels");
                return false;
            }
            labels.push_back({ std::move(labelName), text });
            if (!comma(lineNo, rest)) return false;
        }
    }

    bool comma(size_t lineNo, std::string_view& rest)
    {
        skipBlanks(rest);
        if (!rest.empty() && rest.front() == ',') {
            rest.remove_prefix(1);
            return true;
        }
        if (!rest.empty() && rest.front() == '}') return true;
        bad(lineNo, "labels not separated by ','");
        return false;
    }

    const SampleFilter& m_keep;
    const ExpositionLimits& m_limits;
    Exposition m_out;
    std::unordered_map<std::string, MetricType> m_types;
    std::unordered_map<std::string, bool> m_keepCache;
    size_t m_badBeyond = 0;
};

void appendEscaped(std::string& out, std::string_view value)
{
    for (char c : value) {
        if (c == '\\' || c == '"')
            out.push_back('\\'), out.push_back(c);
        else if (c == '\n')
            out += "\\n";
        else
            out.push_back(c);
    }
}

} // namespace

std::string_view MetricSample::label(std::string_view labelName) const
{
    for (const MetricLabel& l : labels)
        if (l.name == labelName) return l.value;
    return {};
}

Exposition parseExposition(std::string_view text, const SampleFilter& keep, const ExpositionLimits& limits)
{
    return Parser(keep, limits).run(text);
}

const char* metricTypeName(MetricType type)
{
    switch (type) {
    case MetricType::Untyped:
        return "untyped";
    case MetricType::Counter:
        return "counter";
    case MetricType::Gauge:
        return "gauge";
    case MetricType::Histogram:
        return "histogram";
    case MetricType::Summary:
        return "summary";
    case MetricType::GaugeHistogram:
        return "gaugehistogram";
    case MetricType::Info:
        return "info";
    case MetricType::StateSet:
        return "stateset";
    }
    return "untyped";
}

std::string seriesKey(std::string_view name, const std::vector<MetricLabel>& labels, std::string_view without)
{
    std::vector<const MetricLabel*> sorted;
    sorted.reserve(labels.size());
    for (const MetricLabel& l : labels)
        if (without.empty() || l.name != without) sorted.push_back(&l);
    std::sort(sorted.begin(), sorted.end(), [](const MetricLabel* a, const MetricLabel* b) {
        return a->name != b->name ? a->name < b->name : a->value < b->value;
    });
    std::string key(name);
    if (sorted.empty()) return key;
    key += '{';
    for (size_t i = 0; i < sorted.size(); ++i) {
        if (i) key += ',';
        key += sorted[i]->name;
        key += "=\"";
        appendEscaped(key, sorted[i]->value);
        key += '"';
    }
    key += '}';
    return key;
}

} // namespace wb
