// Request mixes (--requests FILE): both formats from real files in a temporary
// directory, body files, and every refusal with its exact FILE:LINE.

#include "parse/requestmix.h"
#include "testsupport.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;
using wb::test::TempDir;

namespace {

void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    ASSERT_TRUE(out.good()) << path;
}

// A file of `size` bytes that takes no disk: ftruncate leaves a hole.
void makeSparseFile(const std::string& path, off_t size)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    ASSERT_EQ(::ftruncate(fd, size), 0) << std::strerror(errno);
    ::close(fd);
}

std::vector<std::string> headerLines(const MixEntry& entry)
{
    std::vector<std::string> out;
    for (const Header& h : entry.request.headers)
        out.push_back(h.name + ": " + h.value);
    return out;
}

class RequestMixTest : public ::testing::Test
{
protected:
    TempDir dir;

    Result<RequestMix> parse(const std::string& text) { return parseRequestMix(text, "mix.txt", dir.path()); }

    // The whole message, exactly: FILE:LINE and the words.
    void expectError(const std::string& text, const std::string& message)
    {
        auto mix = parse(text);
        ASSERT_FALSE(mix.ok()) << text;
        EXPECT_EQ(mix.error(), message) << text;
        EXPECT_EQ(mix.error().find('\n'), std::string::npos);
    }
    // FILE:LINE exactly, and a part of the words.
    void expectErrorAt(const std::string& text, const std::string& where, const std::string& part)
    {
        auto mix = parse(text);
        ASSERT_FALSE(mix.ok()) << text;
        EXPECT_EQ(mix.error().rfind(where + ": ", 0), 0u) << mix.error();
        EXPECT_NE(mix.error().find(part), std::string::npos) << mix.error();
        EXPECT_EQ(mix.error().find('\n'), std::string::npos) << mix.error();
    }
};

} // namespace

TEST_F(RequestMixTest, LineFormatEntriesHeadersBodiesAndComments)
{
    writeFile(dir.file("order.json"), "{\"id\": 1}\r\n\x01\x02 raw");
    writeFile(dir.file("abs.bin"), "absolute");
    writeFile(dir.file("mix.txt"),
        "# a comment before anything\n"
        "\n"
        "GET http://api.test:8080/items?page=2\n"
        "Accept: application/json\n"
        "# a comment inside an entry does not end it\n"
        "X-Trace:   abc  \n"
        "\n\n\n"
        "POST http://api.test:8080/orders\n"
        "Content-Type: application/json\n"
        "@order.json\n"
        "\n"
        "  PUT   http://API.test:8080/abs#fragment  \n"
        "@ " + dir.file("abs.bin")
            + "\n"
              "\n"
              "DELETE http://api.test:8080/items/7"); // no newline at the end
    auto mix = loadRequestMix(dir.file("mix.txt"));
    ASSERT_TRUE(mix.ok()) << mix.error();
    EXPECT_EQ(mix->source, dir.file("mix.txt"));
    ASSERT_EQ(mix->entries.size(), 4u);

    const MixEntry& get = mix->entries[0];
    EXPECT_EQ(get.line, 3u);
    EXPECT_EQ(get.request.method, "GET");
    EXPECT_EQ(get.request.url.target, "/items?page=2");
    EXPECT_EQ(headerLines(get), (std::vector<std::string> { "Accept: application/json", "X-Trace: abc" }));
    EXPECT_EQ(get.request.body, "");
    EXPECT_EQ(get.weight, 1);
    EXPECT_EQ(get.label(), "GET /items?page=2");

    const MixEntry& post = mix->entries[1];
    EXPECT_EQ(post.line, 10u);
    EXPECT_EQ(post.request.body, "{\"id\": 1}\r\n\x01\x02 raw"); // bytes as they are
    EXPECT_EQ(headerLines(post), std::vector<std::string> { "Content-Type: application/json" });

    const MixEntry& put = mix->entries[2];
    EXPECT_EQ(put.line, 14u);
    EXPECT_EQ(put.request.method, "PUT");
    EXPECT_EQ(put.label(), "PUT /abs");
    EXPECT_EQ(put.request.body, "absolute");

    EXPECT_EQ(mix->entries[3].line, 17u);
    EXPECT_EQ(mix->entries[3].label(), "DELETE /items/7");
    for (const MixEntry& e : mix->entries)
        EXPECT_EQ(e.weight, 1); // the line format has no weights

    const Url origin = mix->origin();
    EXPECT_EQ(origin.scheme, "http");
    EXPECT_EQ(origin.host, "api.test");
    EXPECT_EQ(origin.port, 8080);
    EXPECT_EQ(origin.target, "/");
    EXPECT_EQ(origin.displayText(), "http://api.test:8080/");
}

TEST_F(RequestMixTest, CrlfLineEndsReadTheSame)
{
    writeFile(dir.file("b.txt"), "body\r\n");
    const std::string lf = "GET http://h/a\nA: 1\n\nPOST http://h/b\nB: 2\n@b.txt\n";
    std::string crlf;
    for (char c : lf)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    auto a = parse(lf);
    auto b = parse(crlf);
    ASSERT_TRUE(a.ok()) << a.error();
    ASSERT_TRUE(b.ok()) << b.error();
    ASSERT_EQ(a->entries.size(), 2u);
    ASSERT_EQ(b->entries.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(a->entries[i].label(), b->entries[i].label());
        EXPECT_EQ(a->entries[i].line, b->entries[i].line);
        EXPECT_EQ(a->entries[i].request.headers, b->entries[i].request.headers);
        EXPECT_EQ(a->entries[i].request.body, b->entries[i].request.body);
    }
    EXPECT_EQ(b->entries[1].request.body, "body\r\n");
    // The same file through JSON Lines with CRLF.
    auto j = parse("{\"url\": \"http://h/a\"}\r\n\r\n{\"url\": \"http://h/b\", \"body_file\": \"b.txt\"}\r\n");
    ASSERT_TRUE(j.ok()) << j.error();
    ASSERT_EQ(j->entries.size(), 2u);
    EXPECT_EQ(j->entries[1].line, 3u);
    EXPECT_EQ(j->entries[1].request.body, "body\r\n");
}

TEST_F(RequestMixTest, JsonLinesKeysDefaultsAndWeights)
{
    writeFile(dir.file("payload.bin"), std::string("\0\xff\n", 3));
    writeFile(dir.file("mix.jsonl"),
        "\n"
        "  {\"url\": \"https://[::1]:8443/health\"}\n"
        "{\"method\": \"POST\", \"url\": \"https://[::1]:8443/orders\", \"body\": \"{\\\"a\\\":1}\", \"weight\": 3}\n"
        "\n"
        "\t\n"
        "{\"method\": \"PUT\", \"url\": \"https://[::1]:8443/up\", \"body_file\": \"payload.bin\", \"weight\": 0.5,"
        " \"headers\": {\"Zeta\": \"z\", \"Alpha\": \" a \"}}\n"
        "{\"method\": \"PATCH\", \"url\": \"https://[::1]:8443/p\", \"headers\": [\"X-A: 1\", \"X-A: 2\"]}\n");
    auto mix = loadRequestMix(dir.file("mix.jsonl"));
    ASSERT_TRUE(mix.ok()) << mix.error();
    ASSERT_EQ(mix->entries.size(), 4u);
    EXPECT_EQ(mix->entries[0].request.method, "GET");
    EXPECT_EQ(mix->entries[0].line, 2u);
    EXPECT_EQ(mix->entries[0].weight, 1);
    EXPECT_EQ(mix->entries[1].request.body, "{\"a\":1}");
    EXPECT_EQ(mix->entries[1].weight, 3);
    EXPECT_EQ(mix->entries[1].line, 3u);
    EXPECT_EQ(mix->entries[2].line, 6u);
    EXPECT_EQ(mix->entries[2].weight, 0.5);
    EXPECT_EQ(mix->entries[2].request.body, std::string("\0\xff\n", 3));
    // Headers keep the order written, not alphabetical order.
    EXPECT_EQ(headerLines(mix->entries[2]), (std::vector<std::string> { "Zeta: z", "Alpha: a" }));
    EXPECT_EQ(headerLines(mix->entries[3]), (std::vector<std::string> { "X-A: 1", "X-A: 2" }));
    EXPECT_EQ(mix->entries[3].label(), "PATCH /p");
    EXPECT_EQ(mix->origin().toString(), "https://[::1]:8443/");
}

TEST_F(RequestMixTest, BodyFilesAreRelativeToTheMixFile)
{
    ASSERT_EQ(::mkdir(dir.file("sub").c_str(), 0755), 0);
    writeFile(dir.file("sub/b.txt"), "in sub");
    writeFile(dir.file("b.txt"), "in top");
    writeFile(dir.file("sub/mix.txt"), "POST http://h/\n@b.txt\n");
    auto mix = loadRequestMix(dir.file("sub/mix.txt"));
    ASSERT_TRUE(mix.ok()) << mix.error();
    EXPECT_EQ(mix->entries[0].request.body, "in sub");
}

TEST_F(RequestMixTest, OneOriginIsSchemeHostAndPort)
{
    // The default port written or not, the host's case, paths and queries: one origin.
    auto same = parse("GET http://a/x\n\nGET http://A:80/y?z\n\nGET http://a:80\n");
    ASSERT_TRUE(same.ok()) << same.error();
    EXPECT_EQ(same->entries[2].label(), "GET /");
    expectError("GET http://a/\n\nGET http://a/b\n\n\nGET http://b:81/\n",
        "mix.txt:6: http://b:81 is a second origin; every request of a mix must go to http://a:80 (line 1; one "
        "connection pool serves one origin)");
    expectErrorAt("GET http://a/\n\nGET https://a/\n", "mix.txt:3", "https://a:443 is a second origin");
    expectErrorAt("{\"url\": \"http://a:8080/\"}\n{\"url\": \"http://a:8081/\"}\n", "mix.txt:2",
        "http://a:8081 is a second origin; every request of a mix must go to http://a:8080");
}

// vegeta's README starts with exactly this file: one request per line, no blank lines.
TEST_F(RequestMixTest, VegetaFileWithoutBlankLines)
{
    auto mix = parse("GET http://a/x\nGET http://a/y\nX-H: 1\nPOST http://a/z\n");
    ASSERT_TRUE(mix) << mix.error();
    ASSERT_EQ(mix->entries.size(), 3u);
    EXPECT_EQ(mix->entries[0].request.url.target, "/x");
    EXPECT_EQ(mix->entries[1].request.url.target, "/y");
    ASSERT_EQ(mix->entries[1].request.headers.size(), 1u);
    EXPECT_EQ(mix->entries[1].request.headers[0].name, "X-H");
    EXPECT_EQ(mix->entries[2].request.method, "POST");
    EXPECT_EQ(mix->entries[2].line, 4u);
}

TEST_F(RequestMixTest, LineFormatRefusals)
{
    expectError("GET http://a/\n\nGET http://a/b\n\nPOST http://a/c\n\nGTE http://a/d\n",
        "mix.txt:7: unknown method 'GTE' (use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS or TRACE)");
    expectErrorAt("get http://a/\n", "mix.txt:1", "unknown method 'get'"); // methods are case-sensitive
    expectError("\n# c\nGET ftp://a/\n", "mix.txt:3: unsupported scheme 'ftp' in 'ftp://a/' (use http or https)");
    expectErrorAt("GET http://a:99999/\n", "mix.txt:1", "invalid port '99999'");
    expectErrorAt("GET\n", "mix.txt:1", "expected 'METHOD URL'");
    expectErrorAt("GET http://a/ HTTP/1.1\n", "mix.txt:1", "found more after the URL");
    expectError("GET http://a/\nAccept json\n", "mix.txt:2: invalid header 'Accept json' (expected 'Name: value')");
    expectErrorAt("GET http://a/\nBad Name: x\n", "mix.txt:2", "'Bad Name' is not a valid header name");
    expectErrorAt("GET http://a/\n: x\n", "mix.txt:2", "empty name");
    expectError("GET http://a/\nA: 1\nGTE http://a/b\n",
        "mix.txt:3: 'GTE http://a/b' is neither a header nor a body line, nor a request (unknown method)");
    writeFile(dir.file("b1"), "1");
    writeFile(dir.file("b2"), "2");
    expectError(
        "POST http://a/\n@b1\n@b2\n", "mix.txt:3: a second body line; the request already has its body from line 2");
    expectError("POST http://a/\n@b1\nA: 1\n",
        "mix.txt:3: header after the body line (line 2); headers come before "
        "'@file'");
    expectError("POST http://a/\n@\n", "mix.txt:2: no body file name after '@'");
    expectError("\n\nPOST http://a/\n@missing.bin\n",
        "mix.txt:4: cannot read body file " + dir.file("missing.bin") + ": No such file or directory");
    expectError(
        "POST http://a/\n@" + dir.path() + "\n", "mix.txt:2: cannot read body file " + dir.path() + ": Is a directory");
    expectError("POST http://a/\n@/dev/null\n", "mix.txt:2: cannot read body file /dev/null: not a regular file");
    expectErrorAt("# comments only\n{\"url\": \"http://a/\"}\n", "mix.txt:2", "a JSON Lines mix has '{' as its first");
}

TEST_F(RequestMixTest, UnreadableBodyFileNamesPathAndReason)
{
    if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
    writeFile(dir.file("secret"), "x");
    ASSERT_EQ(::chmod(dir.file("secret").c_str(), 0), 0);
    expectError(
        "POST http://a/\n@secret\n", "mix.txt:2: cannot read body file " + dir.file("secret") + ": Permission denied");
}

TEST_F(RequestMixTest, EmptyMixes)
{
    expectError("", "mix.txt: no requests in the mix");
    expectError("\n\n  \r\n\t\n", "mix.txt: no requests in the mix");
    expectError("# only\n# comments\n", "mix.txt: no requests in the mix");
    writeFile(dir.file("empty.txt"), "");
    auto mix = loadRequestMix(dir.file("empty.txt"));
    ASSERT_FALSE(mix.ok());
    EXPECT_EQ(mix.error(), dir.file("empty.txt") + ": no requests in the mix");
}

TEST_F(RequestMixTest, JsonLinesRefusals)
{
    expectError("{\"url\": \"http://a/\"}\n{\"url\": \"http://a/\", \"wieght\": 2}\n",
        "mix.txt:2: unknown key 'wieght' (use method, url, headers, body, body_file or weight)");
    expectError("{\"method\": \"GET\"}\n", "mix.txt:1: missing 'url'");
    expectError("{\"url\": 7}\n", "mix.txt:1: 'url' must be a string, not 7");
    expectError("{\"url\": \"http://a/\", \"method\": \"GTE\"}\n",
        "mix.txt:1: unknown method 'GTE' (use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS or TRACE)");
    expectError("{\"url\": \"http://a/\", \"method\": \"post\"}\n",
        "mix.txt:1: unknown method 'post' (use GET, HEAD, "
        "POST, PUT, DELETE, PATCH, OPTIONS or TRACE)");
    expectError("{\"url\": \"http://a/\", \"method\": [\"GET\"]}\n",
        "mix.txt:1: 'method' must be a string, not "
        "[\"GET\"]");
    expectError("{\"url\": \"http//a/\"}\n",
        "mix.txt:1: invalid URL 'http//a/': expected http://host[:port]/path or https://...");
    expectError(
        "\n{\"url\": \"http://a/\", \"weight\": 0}\n", "mix.txt:2: weight must be a number greater than 0, not 0");
    expectError(
        "{\"url\": \"http://a/\", \"weight\": -0.0}\n", "mix.txt:1: weight must be a number greater than 0, not -0.0");
    expectError("{\"url\": \"http://a/\", \"weight\": -2}\n",
        "mix.txt:1: weight must be a number greater than 0, not "
        "-2");
    expectError("{\"url\": \"http://a/\", \"weight\": \"3\"}\n",
        "mix.txt:1: weight must be a number greater than 0, not \"3\"");
    expectError(
        "{\"url\": \"http://a/\", \"weight\": null}\n", "mix.txt:1: weight must be a number greater than 0, not null");
    // NaN and infinity are not JSON; a number too large for a double is refused by the JSON reader.
    expectErrorAt("{\"url\": \"http://a/\", \"weight\": NaN}\n", "mix.txt:1", "invalid JSON");
    expectError("{\"url\": \"http://a/\", \"weight\": 1e999}\n",
        "mix.txt:1: invalid JSON: number overflow parsing "
        "'1e999'");
    expectError("{\"url\": \"http://a/\", \"body\": \"x\", \"body_file\": \"f\"}\n",
        "mix.txt:1: use either 'body' or 'body_file', not both");
    expectError("{\"url\": \"http://a/\", \"body_file\": \"nope\"}\n",
        "mix.txt:1: cannot read body file " + dir.file("nope") + ": No such file or directory");
    expectError("{\"url\": \"http://a/\", \"body\": 5}\n", "mix.txt:1: 'body' must be a string, not 5");
    expectError("{\"url\": \"http://a/\", \"headers\": \"A: 1\"}\n",
        "mix.txt:1: 'headers' must be an object {\"Name\": \"value\"} or an array [\"Name: value\"], not \"A: 1\"");
    expectError("{\"url\": \"http://a/\", \"headers\": {\"A\": 1}}\n", "mix.txt:1: header 'A' must be a string, not 1");
    expectError("{\"url\": \"http://a/\", \"headers\": {\"A:B\": \"1\"}}\n",
        "mix.txt:1: invalid header name 'A:B': contains ':'");
    expectErrorAt(
        "{\"url\": \"http://a/\", \"headers\": {\"A B\": \"1\"}}\n", "mix.txt:1", "'A B' is not a valid header name");
    expectError("{\"url\": \"http://a/\", \"headers\": [\"no colon\"]}\n",
        "mix.txt:1: invalid header 'no colon' (expected 'Name: value')");
    expectErrorAt("{\"url\": \"http://a/\", \"headers\": [1]}\n", "mix.txt:1", "lines must be strings");
    expectErrorAt("{\"url\": \"http://a/\"}\n{\"url\": \"http://a/\"\n", "mix.txt:2", "invalid JSON: column");
    expectErrorAt("{\"url\": \"http://a/\"}\n\nGET http://a/\n", "mix.txt:3", "invalid JSON");
    expectError("{\"url\": \"http://a/\"}\n[1]\n", "mix.txt:2: expected a JSON object, found [1]");
    // The message quotes the value: 100,000 levels of it overflowed the stack of the writer.
    expectError("{\"url\": \"http://a/\"}\n" + std::string(100'000, '[') + std::string(100'000, ']') + "\n",
        "mix.txt:2: invalid JSON: nested deeper than 64 levels");
}

TEST_F(RequestMixTest, ErrorsStayOneLine)
{
    // A JSON string may hold newlines and control characters; the message shows them escaped.
    expectError("{\"url\": \"http://a/\", \"method\": \"G\\nE\\u0001T\"}\n",
        "mix.txt:1: unknown method 'G\\nE\\x01T' (use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS or TRACE)");
    // A huge URL is cut, not repeated whole.
    auto mix = parse("GET http://a/" + std::string(100000, 'x') + " y\n");
    ASSERT_FALSE(mix.ok());
    EXPECT_LT(mix.error().size(), 1100u);
    EXPECT_EQ(mix.error().substr(mix.error().size() - 3), "...");
}

TEST_F(RequestMixTest, EntryLimit)
{
    std::string text;
    for (size_t i = 0; i < MAX_REQUEST_MIX_ENTRIES; ++i)
        text += "GET http://a/" + std::to_string(i) + "\n\n";
    auto full = parse(text);
    ASSERT_TRUE(full.ok()) << full.error();
    EXPECT_EQ(full->entries.size(), MAX_REQUEST_MIX_ENTRIES);
    EXPECT_EQ(full->entries.back().line, 2 * MAX_REQUEST_MIX_ENTRIES - 1);
    text += "GET http://a/one-too-many\n";
    expectError(text, "mix.txt:131071: more than 65535 requests in the mix (the limit)");
}

TEST_F(RequestMixTest, FilesOverTheSizeLimitAreRefusedBeforeReading)
{
    makeSparseFile(dir.file("huge.txt"), MAX_REQUEST_MIX_BYTES + 1);
    auto mix = loadRequestMix(dir.file("huge.txt"));
    ASSERT_FALSE(mix.ok());
    EXPECT_EQ(mix.error(),
        "request mix " + dir.file("huge.txt") + " is 104857601 bytes; the limit is 104857600 bytes (100 MB)");

    makeSparseFile(dir.file("huge.bin"), MAX_REQUEST_MIX_BYTES + 1);
    expectError("POST http://a/\n@huge.bin\n",
        "mix.txt:2: body file " + dir.file("huge.bin") + " is 104857601 bytes; the limit is 104857600 bytes (100 MB)");
}

TEST_F(RequestMixTest, UnreadableMixFile)
{
    auto missing = loadRequestMix(dir.file("nope.txt"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error(), "cannot read request mix " + dir.file("nope.txt") + ": No such file or directory");
    auto directory = loadRequestMix(dir.path());
    ASSERT_FALSE(directory.ok());
    EXPECT_EQ(directory.error(), "cannot read request mix " + dir.path() + ": Is a directory");
}

TEST_F(RequestMixTest, BodyFileNamedTwiceIsReadOnce)
{
    writeFile(dir.file("b"), "same");
    auto twice = parse("POST http://a/1\n@b\n\nPUT http://a/2\n@b\n");
    ASSERT_TRUE(twice.ok()) << twice.error();
    EXPECT_EQ(twice->entries[0].request.body, "same");
    EXPECT_EQ(twice->entries[1].request.body, "same");
}

TEST(MixOrder, NamesRoundTrip)
{
    for (MixOrder order : { MixOrder::RoundRobin, MixOrder::Random, MixOrder::Weighted }) {
        auto parsed = parseMixOrder(mixOrderId(order));
        ASSERT_TRUE(parsed.ok());
        EXPECT_EQ(*parsed, order);
    }
    EXPECT_STREQ(mixOrderId(MixOrder::RoundRobin), "round-robin");
    auto bad = parseMixOrder("roundrobin");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "unknown request order 'roundrobin' (use round-robin, random or weighted)");
}
