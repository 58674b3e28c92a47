// The target and load profile editors' checks: every problem is reported on
// its field in words the user can act on, and a valid form round-trips.

#include "forms/formvalidation.h"
#include "session/sessionseed.h"
#include "uitestsupport.h"

#include <QTemporaryDir>
#include <QTest>
#include <tuple>

using namespace wb;
using namespace wb::ui;

Q_DECLARE_METATYPE(wb::ui::TargetForm)
Q_DECLARE_METATYPE(wb::ui::ProfileForm)

class FormsTest : public QObject
{
    Q_OBJECT

    static TargetForm validTarget()
    {
        TargetForm f;
        f.name = QStringLiteral("NEG ingress");
        f.url = QStringLiteral("https://10.0.0.1:8443/api?x=1");
        f.method = QStringLiteral("POST");
        f.headers = { { QStringLiteral("Host"), QStringLiteral("api.example") }, { QString(), QString() } };
        f.bodyText = QStringLiteral("{\"k\":1}");
        f.verifyTls = false;
        f.tags = { QStringLiteral("NEG"), QStringLiteral("GKE") };
        return f;
    }

private slots:
    void textBodiesAreValidUtf8WithoutNul()
    {
        QVERIFY(isTextBody(""));
        QVERIFY(isTextBody("{\"a\": 1}\n"));
        QVERIFY(isTextBody("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80")); // é, 日本, 🚀
        QVERIFY(!isTextBody(std::string("a\0b", 3)));
        QVERIFY(!isTextBody("\xff\xfe"));
        QVERIFY(!isTextBody("caf\xc3")); // cut inside a character
        QVERIFY(!isTextBody("\xe6\x97")); // cut inside a character
        QVERIFY(!isTextBody("\xc0\xaf")); // overlong '/'
        QVERIFY(!isTextBody("\xed\xa0\x80")); // a UTF-16 surrogate
        QVERIFY(!isTextBody("\xf4\x90\x80\x80")); // past U+10FFFF
        QVERIFY(!isTextBody("\xe6x\xac")); // a continuation byte missing
        QVERIFY(!isTextBody("a\x80"
                            "b")); // a lone continuation byte
        QVERIFY(!isTextBody("\xf5\x80\x80\x80")); // no such lead byte
        QVERIFY(isTextBody("\xef\xbf\xbf\xf4\x8f\xbf\xbf")); // U+FFFF, U+10FFFF: the longest forms
        QVERIFY(isTextBody("\xc2\x80\xe0\xa0\x80\xf0\x90\x80\x80")); // the shortest non-overlong forms
        QVERIFY(!isTextBody("\xe0\x9f\xbf")); // overlong three-byte form
    }

    void validTargetFormFillsTheTarget()
    {
        Target t;
        t.id = 7;
        const FieldErrors errors = checkTargetForm(validTarget(), { QStringLiteral("NodePort") }, &t);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.values().join(QLatin1Char(';'))));
        QCOMPARE(t.id, 7); // the id is kept
        QCOMPARE(t.name, std::string("NEG ingress"));
        QCOMPARE(t.method, std::string("POST")); // as typed (a lower-case method is refused: roundtrip_test)
        QCOMPARE(t.headers.size(), size_t(1)); // the empty row is ignored
        QCOMPARE(t.headers[0].value, std::string("api.example"));
        QCOMPARE(t.body, std::string("{\"k\":1}"));
        QVERIFY(!t.tls.verifyPeer);
        QCOMPARE(t.tags.size(), size_t(2));
        // And back.
        const TargetForm again = targetFormOf(t);
        QCOMPARE(again.url, validTarget().url);
        QCOMPARE(again.tags, validTarget().tags);
    }

    // The protocol field's three choices reach the target and come back (HTTP/3 wins over HTTP/2,
    // as the combo box can only say one), and the store's id of each is what the CLI takes.
    void protocolFieldReachesTheTarget()
    {
        for (const auto& [http2, http3, version, id] : { std::tuple { false, false, HttpVersion::Http1, "http/1.1" },
                 std::tuple { true, false, HttpVersion::Http2, "h2" },
                 std::tuple { false, true, HttpVersion::Http3, "h3" } }) {
            TargetForm form = validTarget();
            form.url = QStringLiteral("https://10.0.0.1/");
            form.http2 = http2;
            form.http3 = http3;
            Target t;
            const FieldErrors errors = checkTargetForm(form, {}, &t);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.values().join(QLatin1Char(';'))));
            QCOMPARE(t.httpVersion, version);
            QCOMPARE(std::string(httpVersionId(t.httpVersion)), std::string(id));
            const TargetForm again = targetFormOf(t);
            QCOMPARE(again.http2, http2);
            QCOMPARE(again.http3, http3);
        }
    }

    // HTTP/3 on an http:// URL is refused in the editor, on the protocol, in the engine's words.
    void http3NeedsAnHttpsUrlInTheEditor()
    {
        TargetForm form = validTarget();
        form.url = QStringLiteral("http://10.0.0.1/");
        form.http3 = true;
        Target t;
        const FieldErrors errors = checkTargetForm(form, {}, &t);
        QCOMPARE(errors.keys(), QStringList { QStringLiteral("protocol") });
        QVERIFY2(errors.value(QStringLiteral("protocol")).contains(QStringLiteral("use an https:// URL")),
            qPrintable(errors.value(QStringLiteral("protocol"))));
        form.http3 = false;
        QVERIFY(checkTargetForm(form, {}, &t).isEmpty());
    }

    void badTargetFields_data()
    {
        QTest::addColumn<TargetForm>("form");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("says");
        TargetForm f = validTarget();
        f.name.clear();
        QTest::newRow("empty name") << f << "name"
                                    << "needs a name";
        f = validTarget();
        f.name = QStringLiteral("NodePort");
        QTest::newRow("taken name") << f << "name"
                                    << "already called";
        f = validTarget();
        f.url = QStringLiteral("ftp://example.com/");
        QTest::newRow("scheme") << f << "url"
                                << "ftp";
        f.url = QStringLiteral("http://");
        QTest::newRow("no host") << f << "url"
                                 << "";
        f.url = QStringLiteral("https://builtin/");
        QTest::newRow("https builtin") << f << "url"
                                       << "plain http";
        f = validTarget();
        f.method = QStringLiteral("GE T");
        QTest::newRow("method") << f << "method"
                                << "not a method";
        f = validTarget();
        f.headers = { { QStringLiteral("Bad Name"), QStringLiteral("x") } };
        QTest::newRow("header name") << f << "header:0"
                                     << "";
        f.headers = { { QStringLiteral("X-Ok"), QStringLiteral("1") }, { QString(), QStringLiteral("value only") } };
        QTest::newRow("header without name") << f << "header:1"
                                             << "";
        f = validTarget();
        f.bodyFromFile = true;
        f.bodyFile = QStringLiteral("/nonexistent/body.json");
        QTest::newRow("body file") << f << "bodyFile"
                                   << "does not exist";
        f.bodyFile = QStringLiteral("/tmp");
        QTest::newRow("body dir") << f << "bodyFile"
                                  << "directory";
        f = validTarget();
        f.caFile = QStringLiteral("/nonexistent/ca.pem");
        QTest::newRow("ca file") << f << "caFile"
                                 << "does not exist";
        f = validTarget();
        f.tags = { QStringLiteral("a,b") };
        QTest::newRow("tag") << f << "tags"
                             << "a,b";
    }

    void badTargetFields()
    {
        QFETCH(TargetForm, form);
        QFETCH(QString, field);
        QFETCH(QString, says);
        Target t;
        t.name = "untouched";
        const FieldErrors errors = checkTargetForm(form, { QStringLiteral("NodePort") }, &t);
        QVERIFY2(errors.contains(field), qPrintable(errors.keys().join(QLatin1Char(','))));
        QVERIFY2(errors[field].contains(says), qPrintable(errors[field]));
        QCOMPARE(errors.size(), 1); // only the field that is wrong
        QCOMPARE(t.name, std::string("untouched")); // nothing half-applied
    }

    void bodyIsReadFromAFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("body.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("\x01\x02payload", 9));
        file.close();
        TargetForm f = validTarget();
        f.bodyFromFile = true;
        f.bodyFile = path;
        Target t;
        QVERIFY(checkTargetForm(f, {}, &t).isEmpty());
        QCOMPARE(t.body, std::string("\x01\x02payload", 9));
    }

    void profileFormRoundTrips()
    {
        RunConfig load = defaultLoad();
        ProfileForm f = profileFormOf(load);
        QCOMPARE(f.value(QStringLiteral("threads")), QStringLiteral("2"));
        QCOMPARE(f.value(QStringLiteral("connections")), QStringLiteral("50"));
        QCOMPARE(f.value(QStringLiteral("duration")), QStringLiteral("10s"));
        QCOMPARE(f.value(QStringLiteral("interval")), QStringLiteral("250ms"));
        f.values[QStringLiteral("connections")] = QStringLiteral("10k");
        f.values[QStringLiteral("duration")] = QStringLiteral("2m");
        f.mode = ProfileForm::Mode::ConstantRate;
        f.values[QStringLiteral("rate")] = QStringLiteral("1.5k");
        RunConfig out;
        const FieldErrors errors = checkProfileForm(f, &out);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.values().join(QLatin1Char(';'))));
        QCOMPARE(out.connections, 10'000u);
        QCOMPARE(out.durationUs, uint64_t(120'000'000));
        QCOMPARE(out.ratePerS, 1500.0);
        QVERIFY(out.openModel());

        f.mode = ProfileForm::Mode::Stages;
        f.values[QStringLiteral("stages")] = QStringLiteral("10s:50c,30s:200c");
        f.values[QStringLiteral("warmup")] = QStringLiteral("0s");
        QVERIFY(checkProfileForm(f, &out).isEmpty());
        QVERIFY(out.stagesAreConnections);
        QCOMPARE(out.ratePerS, 0.0); // the rate of the other mode is not kept
        QCOMPARE(profileFormOf(out).value(QStringLiteral("stages")), QStringLiteral("10s:50c,30s:200c"));
        // Loaders: this process, child processes, or a Kubernetes Job, and what is refused.
        f.values[QStringLiteral("loaders")] = QStringLiteral("4");
        QVERIFY(checkProfileForm(f, &out).isEmpty());
        QCOMPARE(out.loaders.count, 4u);
        QVERIFY(out.loaders.on == LoaderPlacement::On::Local);
        f.values[QStringLiteral("loaders")] = QStringLiteral("8 kubernetes namespace=load image=reg/wrkbench-cli:1");
        QVERIFY(checkProfileForm(f, &out).isEmpty());
        QVERIFY(out.loaders.on == LoaderPlacement::On::Kubernetes);
        QCOMPARE(out.loaders.kubeNamespace, std::string("load"));
        QCOMPARE(profileFormOf(out).value(QStringLiteral("loaders")),
            QStringLiteral("8 kubernetes namespace=load image=reg/wrkbench-cli:1"));
        f.values[QStringLiteral("loaders")] = QStringLiteral("four");
        QVERIFY(checkProfileForm(f, &out).contains(QStringLiteral("loaders")));
        f.values[QStringLiteral("loaders")]
            = QStringLiteral("500"); // more loaders than the 200 connections of the stages' peak
        QVERIFY(!checkProfileForm(f, &out).isEmpty());
        // Behind the front door: the CLI's specs, read as it reads them, shown back as typed.
        f.values[QStringLiteral("loaders")] = QStringLiteral("1");
        f.values[QStringLiteral("backend_from")] = QStringLiteral(" body-regex:pod=([a-z0-9-]+) ");
        f.values[QStringLiteral("upstream_time")] = QStringLiteral("header:X-Upstream-Time:s");
        QVERIFY(checkProfileForm(f, &out).isEmpty());
        QCOMPARE(out.backendFrom.source, BackendFrom::Source::BodyRegex);
        QCOMPARE(
            profileFormOf(out).value(QStringLiteral("backend_from")), QStringLiteral("body-regex:pod=([a-z0-9-]+)"));
        QCOMPARE(profileFormOf(out).value(QStringLiteral("upstream_time")), QStringLiteral("header:X-Upstream-Time:s"));
        f.values[QStringLiteral("backend_from")] = QStringLiteral("bodyy");
        f.values[QStringLiteral("upstream_time")] = QStringLiteral("header:");
        const FieldErrors bad = checkProfileForm(f, &out);
        QVERIFY(bad.contains(QStringLiteral("backend_from")));
        QVERIFY(bad.contains(QStringLiteral("upstream_time")));
        f.values[QStringLiteral("backend_from")].clear();
        f.values[QStringLiteral("upstream_time")].clear();
        QVERIFY(checkProfileForm(f, &out).isEmpty());
        QVERIFY(!out.backendFrom.enabled());
        QVERIFY(!out.upstreamTime.enabled());
        QCOMPARE(durationText(1'500'000), QStringLiteral("1500ms"));
        QCOMPARE(durationText(90'000'000), QStringLiteral("90s"));
    }

    void badProfileFields_data()
    {
        QTest::addColumn<ProfileForm>("form");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("says");
        ProfileForm f;
        f.values[QStringLiteral("threads")] = QStringLiteral("zero");
        QTest::newRow("threads text") << f << "threads"
                                      << "invalid number";
        f = {};
        f.values[QStringLiteral("threads")] = QStringLiteral("0");
        QTest::newRow("threads 0") << f << "threads"
                                   << "between 1";
        f = {};
        f.values[QStringLiteral("threads")] = QStringLiteral("8");
        f.values[QStringLiteral("connections")] = QStringLiteral("4");
        QTest::newRow("fewer connections than threads") << f << "connections"
                                                        << "per thread";
        f = {};
        f.values[QStringLiteral("duration")] = QStringLiteral("10 parsecs");
        QTest::newRow("duration") << f << "duration"
                                  << "invalid duration";
        f = {};
        f.values[QStringLiteral("duration")] = QStringLiteral("50ms");
        QTest::newRow("short") << f << "duration"
                               << "100ms";
        f = {};
        f.values[QStringLiteral("timeout")] = QStringLiteral("0s");
        QTest::newRow("timeout") << f << "timeout"
                                 << "greater than zero";
        f = {};
        f.values[QStringLiteral("pipeline")] = QStringLiteral("5000");
        QTest::newRow("pipeline") << f << "pipeline"
                                  << "between 1 and 1024";
        f = {};
        f.values[QStringLiteral("interval")] = QStringLiteral("10ms");
        QTest::newRow("interval") << f << "interval"
                                  << "100ms";
        f = {};
        f.mode = ProfileForm::Mode::ConstantRate;
        f.values[QStringLiteral("rate")] = QString();
        QTest::newRow("rate missing") << f << "rate"
                                      << "needs a rate";
        f = {};
        f.mode = ProfileForm::Mode::Stages;
        f.values[QStringLiteral("stages")] = QStringLiteral("10s:50c,10s:100");
        QTest::newRow("mixed stages") << f << "stages"
                                      << "mix";
        f.values[QStringLiteral("stages")] = QStringLiteral("10s:100");
        f.values[QStringLiteral("warmup")] = QStringLiteral("5s");
        QTest::newRow("warmup with stages") << f << "warmup"
                                            << "stage";
    }

    void badProfileFields()
    {
        QFETCH(ProfileForm, form);
        QFETCH(QString, field);
        QFETCH(QString, says);
        RunConfig load = defaultLoad();
        const RunConfig before = load;
        const FieldErrors errors = checkProfileForm(form, &load);
        QVERIFY2(errors.contains(field), qPrintable(errors.keys().join(QLatin1Char(','))));
        QVERIFY2(errors[field].contains(says), qPrintable(errors[field]));
        QCOMPARE(load.threads, before.threads); // untouched on error
        QCOMPARE(load.durationUs, before.durationUs);
    }
};

WB_UI_TEST(FormsTest)
#include "forms_test.moc"
