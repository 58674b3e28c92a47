// What a scripted run sends first, made without a run (a probe's request): wrk.path and
// wrk.headers set at load, setup() and init() run before request(), the first of a pipelined
// request() string, and a script that never makes its request is stopped, not waited for.
#include "script/scriptrun.h"

#include <atomic>
#include <gtest/gtest.h>

using namespace wb;

namespace {

RunConfig scripted(const std::string& text)
{
    RunConfig c;
    auto url = parseUrl("http://127.0.0.1:9/start");
    c.request.url = *url;
    c.script.name = "probe.lua";
    c.script.text = text;
    return c;
}

} // namespace

TEST(ScriptFirstRequest, WrksFieldsMakeTheStaticRequest)
{
    const auto r = scriptFirstRequest(scripted("wrk.method = 'POST'; wrk.path = '/status/404'; wrk.body = 'abc'\n"
                                               "wrk.headers['X-Probe'] = 'yes'"));
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->method, "POST");
    EXPECT_EQ(r->url.target, "/status/404");
    EXPECT_EQ(r->body, "abc");
    EXPECT_EQ(r->url.port, 9);
    bool header = false;
    for (const auto& [name, value] : r->headers)
        header = header || (name == "x-probe" && value == "yes") || (name == "X-Probe" && value == "yes");
    EXPECT_TRUE(header);
}

TEST(ScriptFirstRequest, RequestRunsAfterSetupAndInitAndItsFirstRequestIsSent)
{
    const auto r = scriptFirstRequest(scripted(R"(
setup = function(thread) thread:set("prefix", "/from-setup") end
init = function(args) suffix = "/" .. (args[1] or "none") end
request = function()
  return wrk.format("GET", prefix .. suffix) .. wrk.format("DELETE", "/second")
end
)"));
    // A thread's globals come from thread:set in setup (wrk's way): prefix, then init's suffix.
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->method, "GET");
    EXPECT_EQ(r->url.target, "/from-setup/none");
}

TEST(ScriptFirstRequest, AnErrorOfTheScriptIsTheAnswer)
{
    const auto r = scriptFirstRequest(scripted("request = function() return nil .. 'x' end"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("attempt to concatenate"), std::string::npos) << r.error();
}

TEST(ScriptFirstRequest, AScriptThatNeverEndsIsStopped)
{
    // A JIT-compiled loop included: the state runs without the JIT so the hook is asked.
    const auto looped = scriptFirstRequest(
        scripted("init = function() local x = 0 while true do x = x + 1 end end"), nullptr, 200'000);
    ASSERT_FALSE(looped.ok());
    EXPECT_NE(looped.error().find("stopped: the script ran 0.2 s without making its first request"), std::string::npos)
        << looped.error();
    std::atomic<bool> cancel { true };
    const auto cancelled = scriptFirstRequest(scripted("while true do end"), &cancel);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_NE(cancelled.error().find("stopped: cancelled"), std::string::npos) << cancelled.error();
}
