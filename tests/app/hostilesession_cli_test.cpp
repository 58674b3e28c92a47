// wrkbench-cli with a session file from someone else: a listing that would have deleted runs,
// hung on a view or grown without bound, a run whose stored result a trigger would have changed,
// every hostile schema under every reading command (a case each), a value too large to read. Each
// is refused in one line with the file byte for byte as it was, or read safely; reading commands
// never write (not even a run of a dead process recovered, nor an old schema migrated).

#include "hostilesessions.h"
#include "testsupport.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <gtest/gtest.h>

using namespace wb;

namespace {

// A hostile listing ends long before this; today's would not (a view that never ends).
constexpr int HOSTILE_TIMEOUT_MS = 30'000;

class HostileSessionCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_template = m_dir.file("template.wrkbench");
        ASSERT_EQ(test::makeSampleSession(m_template), "");
    }

    std::string session(const std::string& name, const std::string& sql)
    {
        const std::string path = m_dir.file(name);
        std::filesystem::copy_file(m_template, path, std::filesystem::copy_options::overwrite_existing);
        EXPECT_EQ(test::tamperSession(path, sql), "") << sql;
        return path;
    }

    static std::string sqlOf(const std::string& caseName)
    {
        for (const test::HostileSchema& c : test::hostileSchemas())
            if (c.name == caseName) return c.sql;
        ADD_FAILURE() << "no case '" << caseName << "'";
        return {};
    }

    static std::string refusalOf(const std::string& path, const std::string& caseName)
    {
        for (const test::HostileSchema& c : test::hostileSchemas())
            if (c.name == caseName) return test::refusalOf(path, c.refusal);
        return {};
    }

    // The command failed with exactly the refusal, in one line, and changed nothing.
    static void expectRefused(
        const test::ProcessResult& r, const std::string& refusal, const std::string& path, const std::string& before)
    {
        EXPECT_FALSE(r.timedOut);
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_EQ(r.err, "wrkbench-cli: error: " + refusal + "\n");
        EXPECT_EQ(r.out, "");
        EXPECT_TRUE(test::readFile(path) == before) << "the file was changed";
        EXPECT_TRUE(test::sideFiles(path).empty());
    }

    test::TempDir m_dir;
    std::string m_template;
};

} // namespace

// The listing used to open the file for writing and recover the dead run: the trigger on that
// update deleted the two other runs.
TEST_F(HostileSessionCli, AListingOfASessionWithATriggerDeletesNothing)
{
    const std::string name = "a trigger after update that deletes the other runs";
    const std::string path = session("purge.wrkbench", test::deadRunSql(3) + sqlOf(name));
    const std::string before = test::readFile(path);
    expectRefused(test::runCli({ "runs", "--db", path }, HOSTILE_TIMEOUT_MS), refusalOf(path, name), path, before);
}

// A view that never ends where the listing joins the targets: the listing hung until killed.
TEST_F(HostileSessionCli, AListingOfARecursiveViewEnds)
{
    for (const std::string name : { "a recursive view in place of the targets a listing joins",
             "a recursive view in place of the run tags a listing concatenates" }) {
        SCOPED_TRACE(name);
        const std::string path = session("forever.wrkbench", sqlOf(name));
        const std::string before = test::readFile(path);
        const auto r = test::runCli({ "runs", "--db", path }, HOSTILE_TIMEOUT_MS);
        expectRefused(r, refusalOf(path, name), path, before);
        EXPECT_LT(r.peakRssKb, 200 * 1024) << "a view that grows was not run";
    }
}

// A trigger that tripled every new run's req/s and divided its latency: the stored result differed
// from what the run printed. The run is refused before any load, the file left as it was.
TEST_F(HostileSessionCli, ARunIntoASessionWithATriggerIsRefusedBeforeAnyLoad)
{
    const std::string name = "a trigger after update that triples req/s and divides latency";
    const std::string path = session("triple.wrkbench", sqlOf(name));
    const std::string before = test::readFile(path);
    const auto r
        = test::runCli({ "run", "-c2", "-t1", "-n", "100", "--db", path, "http://builtin/" }, HOSTILE_TIMEOUT_MS);
    expectRefused(r, refusalOf(path, name), path, before);
}

// One case per schema (a ctest test of its own: a failure names the schema, and the cases run side by
// side; one case for all of them took 205 s of a sanitized build on a busy machine).
class EveryHostileSchema : public HostileSessionCli, public ::testing::WithParamInterface<size_t>
{ };

TEST_P(EveryHostileSchema, IsRefusedByEveryReadingCommand)
{
    const test::HostileSchema& c = test::hostileSchemas().at(GetParam());
    SCOPED_TRACE(c.name);
    const std::string path = session("hostile.wrkbench", c.sql);
    const std::string before = test::readFile(path);
    for (const std::vector<std::string>& args : { std::vector<std::string> { "runs", "--db", path },
             std::vector<std::string> { "export", "--db", path, "--run", "1", "--what", "summary", "--csv" },
             std::vector<std::string> { "experiments", "--db", path },
             std::vector<std::string> { "tag", "--db", path, "--run", "1", "--add", "x" } }) {
        SCOPED_TRACE(args[0]);
        expectRefused(test::runCli(args, HOSTILE_TIMEOUT_MS), test::refusalOf(path, c.refusal), path, before);
    }
}

// Named after the schema's description: "a trigger after insert on runs" is ATriggerAfterInsertOnRuns.
INSTANTIATE_TEST_SUITE_P(Schemas, EveryHostileSchema, ::testing::Range<size_t>(0, test::hostileSchemas().size()),
    [](const ::testing::TestParamInfo<size_t>& param) {
        std::string name;
        bool upper = true;
        for (const char ch : test::hostileSchemas().at(param.param).name) {
            if (!std::isalnum(static_cast<unsigned char>(ch))) {
                upper = true;
                continue;
            }
            name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
            upper = false;
        }
        return name;
    });

// A 300 MB text where a run's configuration goes: the listing says so instead of reading it.
TEST_F(HostileSessionCli, AValueTooLargeToReadIsNeitherReadNorHeld)
{
    const std::string path = session("large.wrkbench", "");
    const auto made = test::runProcess(
        { "sqlite3", path, "UPDATE runs SET config = printf('%.*c', 300000000, 'x') WHERE id = 2;" }, 120'000);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const uint64_t before = test::fileDigest(path); // not the bytes: held here, they would count in the child's memory
    const long ownRssKb = test::ownRssKb();
    const auto r = test::runCli({ "runs", "--db", path }, HOSTILE_TIMEOUT_MS);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_EQ(r.err,
        "wrkbench-cli: error: '" + path + "' holds more than wrkbench reads or writes: a value larger than 256 MiB\n");
    // A child's peak counts the pages it shared with this process when it was forked (Linux keeps
    // them in ru_maxrss across exec): a sanitized test process holds more than the value alone.
    // Holding the value would add 300 MB to whichever is larger.
    const long limitKb = std::max<long>(300'000'000 / 1024, ownRssKb + 50'000);
    EXPECT_LT(r.peakRssKb, limitKb) << "less than the value itself: it was never held (this process: " << ownRssKb
                                    << " KB)";
    EXPECT_EQ(test::fileDigest(path), before);
    const auto one = test::runCli({ "export", "--db", path, "--run", "1", "--what", "summary", "--csv" });
    EXPECT_EQ(one.exitCode, 0) << one.err << "\nthe other runs still read";
}

// Reading commands open the file read-only: a run of a dead process reads as interrupted, but
// only a command that writes (here tag) stores that.
TEST_F(HostileSessionCli, ReadingCommandsWriteNothing)
{
    const std::string path = session("dead.wrkbench", test::deadRunSql(2));
    const std::string before = test::readFile(path);
    const auto listed = test::runCli({ "runs", "--db", path, "--csv" });
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const auto lines = test::splitLines(listed.out);
    ASSERT_EQ(lines.size(), 4u) << listed.out;
    EXPECT_NE(lines[2].find(",interrupted,"), std::string::npos) << lines[2];
    for (const std::vector<std::string>& args :
        { std::vector<std::string> { "export", "--db", path, "--run", "2", "--what", "series", "--csv" },
            std::vector<std::string> { "experiments", "--db", path } }) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 0) << args[0] << ": " << r.err;
    }
    EXPECT_TRUE(test::readFile(path) == before) << "a reading command wrote to the file";
    EXPECT_TRUE(test::sideFiles(path).empty());

    ASSERT_EQ(test::runCli({ "tag", "--db", path, "--run", "1", "--add", "seen" }).exitCode, 0);
    const auto stored = test::runProcess({ "sqlite3", path, "SELECT status FROM runs WHERE id = 2" });
    EXPECT_EQ(stored.out, "interrupted\n") << "a writer recovered it";
}

// A session of an older schema is listed as it is, not migrated by a listing.
TEST_F(HostileSessionCli, AListingDoesNotMigrateAnOlderSession)
{
    const std::string path = m_dir.file("v10.wrkbench");
    std::filesystem::copy_file(test::sourceDir() + "/tests/engine/store/fixtures/session-v10.wrkbench", path);
    const std::string before = test::readFile(path);
    const auto r = test::runCli({ "runs", "--db", path });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_GE(test::splitLines(r.out).size(), 3u) << r.out;
    EXPECT_TRUE(test::readFile(path) == before);
    EXPECT_TRUE(test::sideFiles(path).empty());
}
