// One definition of a run's settings (settings/runsettings.h): every load setting reads the same
// from the CLI's arguments, a plan and the window's load profile, with the same defaults, and
// survives the stored configuration's JSON. The test walks the table: a setting added to it
// without a sample here fails, so none is added without being checked on every surface.

#include "experiment/experimentplan.h"
#include "forms/formvalidation.h"
#include "runcommand.h"
#include "settings/runsettings.h"
#include "uitestsupport.h"
#include "wire/configcodec.h"

#include <CLI/CLI.hpp>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>

using namespace wb;
using namespace wb::ui;
using namespace wb::cli;

namespace {

/// What a setting is set to in the test, with the settings it needs beside it.
struct Sample
{
    std::vector<std::pair<std::string, std::string>> given; ///< (key, text), the setting's own first
    std::vector<std::string> cliExtra; ///< flags the CLI needs beside it (the protocol)
};

const std::map<std::string, Sample>& samples()
{
    static const std::map<std::string, Sample> all = {
        { "threads", { { { "threads", "4" } }, {} } },
        { "connections", { { { "connections", "40" } }, {} } },
        { "duration", { { { "duration", "3s" } }, {} } },
        { "responses", { { { "responses", "5000" } }, {} } },
        { "warmup", { { { "warmup", "1s" } }, {} } },
        { "timeout", { { { "timeout", "750ms" } }, {} } },
        { "connect_timeout", { { { "connect_timeout", "3s" } }, {} } },
        { "interval", { { { "interval", "500ms" } }, {} } },
        { "pipeline", { { { "pipeline", "4" } }, {} } },
        { "streams", { { { "streams", "8" } }, { "--http2" } } },
        { "rate", { { { "rate", "1500" } }, {} } },
        { "stages", { { { "stages", "1s:100,2s:300" } }, {} } },
        { "conn_requests", { { { "conn_requests", "100:200" } }, {} } },
        { "conn_lifetime", { { { "conn_lifetime", "10s:30s" } }, {} } },
        { "source", { { { "source", "127.0.0.2-127.0.0.4" } }, {} } },
        { "slo", { { { "slo", "p99<250ms, errors<0.1%" } }, {} } },
        { "slo_abort", { { { "slo_abort", "true" }, { "slo", "errors<1%" } }, {} } },
        { "backend_from", { { { "backend_from", "header:x-backend" } }, {} } },
        { "max_backends", { { { "max_backends", "64" }, { "backend_from", "body" } }, {} } },
        { "upstream_time", { { { "upstream_time", "header:x-envoy-upstream-service-time" } }, {} } },
        { "loaders", { { { "loaders", "4" } }, {} } },
        { "window_bits", { { { "window_bits", "20" } }, { "--http2" } } },
        { "connection_window_bits", { { { "connection_window_bits", "24" } }, { "--http2" } } },
        { "header_table_size", { { { "header_table_size", "4096" } }, { "--http2" } } },
        { "send_spin", { { { "send_spin", "20us" } }, {} } },
    };
    return all;
}

const char* URL = "http://127.0.0.1:8080/";

/// The CLI: `run` with the settings' flags (repeatable ones once per comma-separated item).
Result<RunConfig> fromCli(const Sample& sample)
{
    CLI::App app;
    RunArgs args;
    addRunCommand(app, args);
    std::vector<std::string> argv { "run" };
    for (const auto& [key, text] : sample.given) {
        const RunSetting* s = findRunSetting(key);
        if (s->flag) {
            if (text == "true") argv.push_back(flagName(*s));
            continue;
        }
        if (s->repeatable) {
            QString all = QString::fromStdString(text);
            for (const QString& item : all.split(QLatin1Char(','), Qt::SkipEmptyParts))
                argv.insert(argv.end(), { flagName(*s), item.trimmed().toStdString() });
            continue;
        }
        argv.insert(argv.end(), { flagName(*s), text });
    }
    argv.insert(argv.end(), sample.cliExtra.begin(), sample.cliExtra.end());
    argv.push_back(URL);
    std::reverse(argv.begin(), argv.end()); // CLI11 takes them last to first
    try {
        app.parse(argv);
    } catch (const CLI::ParseError& e) {
        return Error { std::string("the CLI refused ") + e.what() };
    }
    return runConfigOf(args);
}

/// A plan with two targets and the settings where a plan keeps them.
Result<RunConfig> fromPlan(const Sample& sample, bool http2)
{
    nlohmann::ordered_json plan;
    plan["targets"] = nlohmann::ordered_json::array();
    for (const char* name : { "a", "b" }) {
        nlohmann::ordered_json t { { "name", name }, { "url", URL } };
        if (http2) t["http_version"] = "h2";
        plan["targets"].push_back(t);
    }
    nlohmann::ordered_json load = nlohmann::ordered_json::object();
    for (const auto& [key, text] : sample.given) {
        const RunSetting* s = findRunSetting(key);
        if (s->plan == PlanPlace::Load) load[key] = text;
        if (s->plan == PlanPlace::Plan) {
            if (key == "slo") {
                nlohmann::ordered_json list = nlohmann::ordered_json::array();
                for (const QString& item : QString::fromStdString(text).split(QLatin1Char(',')))
                    list.push_back(item.trimmed().toStdString());
                plan["slo"] = list;
            } else {
                plan[key] = text;
            }
        }
    }
    if (!load.empty()) plan["load"] = load;
    auto parsed = parseExperimentPlan(plan.dump());
    if (!parsed) return Error { parsed.error() };
    return parsed->runConfig(0, 0);
}

/// The window's load profile, the mode set by what the sample sets.
Result<RunConfig> fromWindow(const Sample& sample)
{
    ProfileForm form;
    for (const auto& [key, text] : sample.given) {
        form.values[QString::fromStdString(key)] = QString::fromStdString(text);
        if (key == "rate") form.mode = ProfileForm::Mode::ConstantRate;
        if (key == "stages") form.mode = ProfileForm::Mode::Stages;
    }
    RunConfig load;
    const FieldErrors errors = checkProfileForm(form, &load);
    if (!errors.isEmpty()) {
        std::string all;
        for (auto it = errors.cbegin(); it != errors.cend(); ++it)
            all += (it.key() + QStringLiteral(": ") + it.value() + QStringLiteral("; ")).toStdString();
        return Error { all };
    }
    return load;
}

/// What went wrong, "" when nothing did (QVERIFY2 evaluates its message either way).
template<typename T> std::string why(const Result<T>& r)
{
    return r.ok() ? std::string() : r.error();
}

std::string describe(const RunConfig& c)
{
    std::string out;
    for (const RunSetting& s : runSettings())
        out += std::string(s.key) + "=" + s.text(c) + " ";
    return out;
}

} // namespace

class SettingsTest : public QObject
{
    Q_OBJECT

private slots:
    void everySettingHasASampleAndAKey()
    {
        for (const RunSetting& s : runSettings()) {
            QVERIFY2(samples().count(std::string(s.key)), ("no sample for '" + std::string(s.key) + "'").c_str());
            QVERIFY(s.read && s.text && s.put && s.get);
            QVERIFY2(!s.help.empty(), std::string(s.key).c_str());
            // Its default reads back as itself.
            RunConfig c;
            QVERIFY2(s.read(c, s.defaultText()).ok(), std::string(s.key).c_str());
            QVERIFY2(s.isDefault(c), std::string(s.key).c_str());
        }
        QCOMPARE(samples().size(), runSettings().size());
    }

    // With nothing given, the CLI, a plan and the window make the same load: one default each.
    void theDefaultsAgreeEverywhere()
    {
        const Sample none;
        auto cli = fromCli(none);
        auto plan = fromPlan(none, false);
        auto window = fromWindow(none);
        QVERIFY2(cli.ok(), why(cli).c_str());
        QVERIFY2(plan.ok(), why(plan).c_str());
        QVERIFY2(window.ok(), why(window).c_str());
        QVERIFY2(sameLoad(*cli, RunConfig {}), describe(*cli).c_str());
        QVERIFY2(sameLoad(*plan, RunConfig {}), describe(*plan).c_str());
        QVERIFY2(sameLoad(*window, RunConfig {}), describe(*window).c_str());
    }

    // Each setting, given the same text on every surface, reads the same, and the stored
    // configuration gives it back.
    void everySettingReadsTheSameFromTheCliAPlanAndTheWindow_data()
    {
        QTest::addColumn<QString>("key");
        for (const RunSetting& s : runSettings())
            QTest::newRow(std::string(s.key).c_str()) << QString::fromLatin1(s.key.data(), s.key.size());
    }
    void everySettingReadsTheSameFromTheCliAPlanAndTheWindow()
    {
        QFETCH(QString, key);
        const RunSetting& setting = *findRunSetting(key.toStdString());
        const Sample& sample = samples().at(key.toStdString());
        RunConfig expected;
        for (const auto& [k, text] : sample.given)
            QVERIFY(findRunSetting(k)->read(expected, text).ok());
        QVERIFY2(!setting.isDefault(expected), "the sample must differ from the default");
        const bool http2
            = std::find(sample.cliExtra.begin(), sample.cliExtra.end(), "--http2") != sample.cliExtra.end();
        if (http2) expected.httpVersion = HttpVersion::Http2;

        if (!setting.flags.empty()) {
            auto cli = fromCli(sample);
            QVERIFY2(cli.ok(), why(cli).c_str());
            QCOMPARE(QString::fromStdString(setting.text(*cli)), QString::fromStdString(setting.text(expected)));
            // As it will run: stages set the duration (RunConfig::normalized(), wherever a run is prepared).
            QVERIFY2(sameLoad(cli->normalized(), expected.normalized()),
                (describe(*cli) + "\n" + describe(expected)).c_str());
        }
        if (setting.plan != PlanPlace::None && key != QLatin1String("slo_abort")) { // plans judge, never abort
            auto plan = fromPlan(sample, http2);
            QVERIFY2(plan.ok(), why(plan).c_str());
            QCOMPARE(QString::fromStdString(setting.text(*plan)), QString::fromStdString(setting.text(expected)));
            // As it will run: stages set the duration (RunConfig::normalized(), wherever a run is prepared).
            QVERIFY2(sameLoad(plan->normalized(), expected.normalized()),
                (describe(*plan) + "\n" + describe(expected)).c_str());
        }
        if (!setting.label.empty()) {
            auto window = fromWindow(sample);
            QVERIFY2(window.ok(), why(window).c_str());
            QCOMPARE(QString::fromStdString(setting.text(*window)), QString::fromStdString(setting.text(expected)));
            // As it will run: stages set the duration (RunConfig::normalized(), wherever a run is prepared).
            QVERIFY2(sameLoad(window->normalized(), expected.normalized()),
                (describe(*window) + "\n" + describe(expected)).c_str());
            // And the window shows it as it reads it.
            QCOMPARE(profileFormOf(*window).value(key), QString::fromStdString(setting.text(expected)));
        }
        // Stored and read back (the session, a loader's --config, a pod's ConfigMap, an agent).
        expected.request.url = *parseUrl(URL);
        auto back = runConfigFromJson(runConfigToJson(expected));
        QVERIFY2(back.ok(), why(back).c_str());
        // As it will run: stages set the duration (RunConfig::normalized(), wherever a run is prepared).
        QVERIFY2(
            sameLoad(back->normalized(), expected.normalized()), (describe(*back) + "\n" + describe(expected)).c_str());
    }

    // A setting's error names it as each surface shows it: the flag, the plan's path, the field.
    void errorsNameTheSettingAsEachSurfaceShowsIt()
    {
        Sample bad { { { "conn_requests", "many" } }, {} };
        auto cli = fromCli(bad);
        QVERIFY(!cli.ok());
        QVERIFY2(
            QString::fromStdString(cli.error()).startsWith(QStringLiteral("--conn-requests: ")), cli.error().c_str());
        auto plan = fromPlan(bad, false);
        QVERIFY(!plan.ok());
        QVERIFY2(QString::fromStdString(plan.error()).startsWith(QStringLiteral("load.conn_requests: ")),
            plan.error().c_str());
        auto window = fromWindow(bad);
        QVERIFY(!window.ok());
        QVERIFY2(QString::fromStdString(window.error()).startsWith(QStringLiteral("conn_requests: ")),
            window.error().c_str());
    }

    // A plan sweeps churn as a factor: keep-alive against reopening after 100 requests.
    void aPlanSweepsChurnAsAFactor()
    {
        const std::string text
            = "{\"targets\": [{\"name\": \"a\", \"url\": \"http://127.0.0.1:8080/\"}, "
              "{\"name\": \"b\", \"url\": \"http://127.0.0.1:8081/\"}], "
              "\"sweep\": {\"axis\": \"conn_requests\", \"values\": [\"\", \"100\", \"1000:2000\"]}}";
        auto plan = parseExperimentPlan(text);
        QVERIFY2(plan.ok(), why(plan).c_str());
        QCOMPARE(plan->levels.size(), size_t(3));
        QCOMPARE(QString::fromStdString(plan->levels[0].label), QStringLiteral("keep-alive"));
        QCOMPARE(QString::fromStdString(plan->levels[1].label), QStringLiteral("conn_requests 100"));
        QVERIFY(!plan->levels[0].load.churn.enabled());
        QCOMPARE(plan->levels[2].load.churn.requestsMin, 1000u);
        QCOMPARE(plan->levels[2].load.churn.requestsMax, 2000u);
        // And the canonical form reads back as the same plan.
        auto again = parseExperimentPlan(experimentPlanToJson(*plan));
        QVERIFY2(again.ok(), why(again).c_str());
        for (size_t i = 0; i < 3; ++i)
            QVERIFY(sameLoad(again->levels[i].load, plan->levels[i].load));
    }
};

WB_UI_TEST(SettingsTest)
#include "settings_test.moc"
