// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "CommandLine.h"

using rvscope::app::Command;
using rvscope::app::parseCommandLine;

class TestCommandLine final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testNoArgumentsOpensGui();
    void testServeDefaults();
    void testPeriodOptions();
    void testServeOptions_data();
    void testServeOptions();
    void testEtcdOptions();
    void testErrors_data();
    void testErrors();
    void testHelpMentionsEveryFlag();
    void testHelpPrintsTheDefaultsInUse();
    void testScenarioCommands();
    void testClientOptions();
    void testCheckCommand();
    void testBulkWatchOptions();
    void testBulkWatchSpecs_data();
    void testBulkWatchSpecs();
};

void TestCommandLine::testNoArgumentsOpensGui()
{
    QCOMPARE(parseCommandLine({"rvscope"}).kind, Command::Kind::Gui);
    QCOMPARE(parseCommandLine({"rvscope", "gui"}).kind, Command::Kind::Gui);
    QCOMPARE(parseCommandLine({"rvscope", "-platform", "offscreen"}).kind, Command::Kind::Gui);
    const Command withServer = parseCommandLine({"rvscope", "--listen", "127.0.0.1:0"});
    QCOMPARE(withServer.kind, Command::Kind::Gui);
    QCOMPARE(withServer.serve.port, quint16(0));
}

void TestCommandLine::testServeDefaults()
{
    const Command command = parseCommandLine({"rvscope", "serve"});
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.address, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(command.serve.port, quint16(8001));
    QCOMPARE(command.serve.watchHistory, std::size_t(10000));
    QCOMPARE(command.serve.serverLimits.requestHeadTimeoutMs, 32'000);
    QCOMPARE(command.serve.serverLimits.requestTimeoutMs, 60'000);
    QCOMPARE(command.serve.aclRecheckMs, 1000);
}

void TestCommandLine::testPeriodOptions()
{
    const Command command =
        parseCommandLine({"rvscope", "serve", "--request-head-timeout", "1.5s", "--acl-recheck=250ms"});
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.serverLimits.requestHeadTimeoutMs, 1500);
    QCOMPARE(command.serve.aclRecheckMs, 250);
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--request-head-timeout", "100ms"}).serve.serverLimits.requestHeadTimeoutMs,
             100);
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--request-timeout", "2m"}).serve.serverLimits.requestTimeoutMs,
             120'000);
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--request-timeout=1h"}).serve.serverLimits.requestTimeoutMs,
             3'600'000);
}

void TestCommandLine::testServeOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("address");
    QTest::addColumn<int>("port");
    QTest::addColumn<int>("history");
    QTest::newRow("any port") << QStringList{"--listen", "127.0.0.1:0"} << "127.0.0.1" << 0 << 10000;
    QTest::newRow("equals form") << QStringList{"--listen=127.0.0.2:9000"} << "127.0.0.2" << 9000 << 10000;
    QTest::newRow("ipv6") << QStringList{"--listen", "[::1]:8443"} << "::1" << 8443 << 10000;
    QTest::newRow("localhost") << QStringList{"--listen", "localhost:80"} << "127.0.0.1" << 80 << 10000;
    QTest::newRow("history") << QStringList{"--watch-history", "50"} << "127.0.0.1" << 8001 << 50;
    QTest::newRow("both") << QStringList{"--watch-history=7", "--listen", "0.0.0.0:1"} << "0.0.0.0" << 1 << 7;
}

void TestCommandLine::testServeOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, address);
    QFETCH(int, port);
    QFETCH(int, history);
    const Command command = parseCommandLine(QStringList{"rvscope", "serve"} + args);
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.address, QHostAddress(address));
    QCOMPARE(int(command.serve.port), port);
    QCOMPARE(int(command.serve.watchHistory), history);
}

void TestCommandLine::testEtcdOptions()
{
    const Command defaults = parseCommandLine({"rvscope", "serve"});
    QCOMPARE(defaults.serve.storageKind, rvscope::engine::EngineOptions::StorageKind::Memory);
    const Command command = parseCommandLine({"rvscope", "serve", "--storage", "etcd", "--etcd-endpoints",
                                              "http://127.0.0.1:2379, http://127.0.0.1:22379", "--etcd-prefix=/lab"});
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.storageKind, rvscope::engine::EngineOptions::StorageKind::Etcd);
    QCOMPARE(command.serve.etcdEndpoints, (QStringList{"http://127.0.0.1:2379", "http://127.0.0.1:22379"}));
    QCOMPARE(command.serve.etcdPrefix, QStringLiteral("/lab"));
    const Command overrides = parseCommandLine({"rvscope", "serve", "--storage", "etcd", "--etcd-servers-overrides",
                                                "/events#http://127.0.0.1:2479;http://127.0.0.1:2579"});
    QCOMPARE(overrides.kind, Command::Kind::Serve);
    QCOMPARE(overrides.serve.etcdServersOverrides.value("events"),
             (QStringList{"http://127.0.0.1:2479", "http://127.0.0.1:2579"}));
    QVERIFY(overrides.serve.separateStorage.contains("events"));
    const Command bad = parseCommandLine({"rvscope", "serve", "--etcd-servers-overrides", "events"});
    QCOMPARE(bad.kind, Command::Kind::Error);
    QVERIFY2(bad.error.contains("TYPE#URL"), qPrintable(bad.error));
    // The window may open on etcd (it shows other instances' writes); not on a data directory.
    QVERIFY(rvscope::app::windowOptionsError(command.serve).isEmpty());
    const Command durable = parseCommandLine({"rvscope", "serve", "--data-dir", "/tmp/x"});
    QVERIFY(rvscope::app::windowOptionsError(durable.serve).contains("--data-dir is for `rvscope serve`"));
}

void TestCommandLine::testErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("unknown flag") << QStringList{"serve", "--nope"} << "unknown argument '--nope'";
    QTest::newRow("no port") << QStringList{"serve", "--listen", "127.0.0.1"} << "ADDR:PORT";
    QTest::newRow("bad port") << QStringList{"serve", "--listen", "127.0.0.1:99999"} << "not a port";
    QTest::newRow("bad host") << QStringList{"serve", "--listen", "no.such.host:80"} << "not an IP address";
    QTest::newRow("missing value") << QStringList{"serve", "--listen"} << "needs a value";
    QTest::newRow("bad history") << QStringList{"serve", "--watch-history", "0"} << "positive number";
    QTest::newRow("bad acl recheck") << QStringList{"serve", "--acl-recheck", "5"} << "such as 1s or 250ms (10ms to 1h)";
    QTest::newRow("short head timeout") << QStringList{"serve", "--request-head-timeout", "50ms"}
                                        << "--request-head-timeout expects a period such as 32s or 500ms (100ms to 1h), got '50ms'";
    QTest::newRow("nan head timeout") << QStringList{"serve", "--request-head-timeout", "nans"} << "got 'nans'";
    QTest::newRow("long request timeout") << QStringList{"serve", "--request-timeout", "2h"}
                                          << "--request-timeout expects a period such as 1m, 60s or 500ms (100ms to 1h), got '2h'";
    QTest::newRow("no unit request timeout") << QStringList{"serve", "--request-timeout", "60"} << "got '60'";
    QTest::newRow("bad backlog") << QStringList{"serve", "--watch-backlog", "8MB"} << "such as 8Mi";
    QTest::newRow("export, journal off") << QStringList{"serve", "--export", "h.jsonl", "--journal-size", "0"}
                                         << "--export writes the history journal, which --journal-size 0 turns off";
    QTest::newRow("export secrets alone") << QStringList{"serve", "--export-secrets"} << "--export-secrets needs --export";
    QTest::newRow("bad storage") << QStringList{"serve", "--storage", "disk"} << "--storage expects memory or etcd";
    QTest::newRow("bad endpoint") << QStringList{"serve", "--etcd-endpoints", "127.0.0.1:2379"} << "http:// or https://";
    QTest::newRow("no endpoint") << QStringList{"serve", "--etcd-endpoints", ","} << "at least one URL";
    QTest::newRow("bad prefix") << QStringList{"serve", "--etcd-prefix", "registry"} << "such as /registry";
    QTest::newRow("empty separate") << QStringList{"serve", "--separate-storage", ","} << "needs group resources";
    QTest::newRow("bad fault") << QStringList{"serve", "--fault", "update deployments/x every=3"}
                               << "--fault: fault rule \"update deployments/x every=3\": no action";
    QTest::newRow("window's bad fault") << QStringList{"--fault", "updte cm conflict"} << "unknown verb \"updte\"";
    QTest::newRow("scenario alone") << QStringList{"scenario"} << "needs 'list' or 'run NAME'";
    QTest::newRow("scenario verb") << QStringList{"scenario", "play"} << "unknown scenario command 'play'";
    QTest::newRow("scenario no name") << QStringList{"scenario", "run", "--check"} << "needs a scenario name";
    QTest::newRow("scenario two names") << QStringList{"scenario", "run", "a", "b"} << "takes one scenario";
    QTest::newRow("scenario seed") << QStringList{"scenario", "run", "a", "--seed", "x"} << "--seed expects";
    QTest::newRow("client clients") << QStringList{"client", "--clients", "0"} << "--clients expects a number from 1";
    QTest::newRow("client server") << QStringList{"client", "--server", "ftp://x"} << "--server expects http://";
    QTest::newRow("client flag") << QStringList{"client", "--fast"} << "unknown argument '--fast'";
    QTest::newRow("bulk-watch no server") << QStringList{"client", "bulk-watch", "--watch", "pods"} << "needs --server";
    QTest::newRow("bulk-watch no watch") << QStringList{"client", "bulk-watch", "--server", "http://h:1"}
                                         << "needs at least one --watch";
    QTest::newRow("bulk-watch server") << QStringList{"client", "bulk-watch", "--server", "h:1", "--watch", "pods"}
                                       << "--server expects http(s)://";
    QTest::newRow("bulk-watch flag") << QStringList{"client", "bulk-watch", "--clients", "2"} << "unknown argument '--clients'";
    QTest::newRow("bulk-watch tls") << QStringList{"client", "bulk-watch", "--server", "https://h:1", "--watch", "pods",
                                                   "--certificate-authority", "ca.pem", "--insecure-skip-tls-verify"}
                                    << "exclude each other";
    QTest::newRow("bulk-watch empty token") << QStringList{"client", "bulk-watch", "--token="} << "--token needs";
    QTest::newRow("spec empty") << QStringList{"client", "bulk-watch", "--watch="} << "--watch needs a SPEC";
    QTest::newRow("spec no resource") << QStringList{"client", "bulk-watch", "--watch", "/default"} << "no resource";
    QTest::newRow("spec slashes") << QStringList{"client", "bulk-watch", "--watch", "pods/a/b/c"} << "too many '/'";
    QTest::newRow("spec empty ns") << QStringList{"client", "bulk-watch", "--watch", "pods/"} << "empty namespace";
    QTest::newRow("spec empty name") << QStringList{"client", "bulk-watch", "--watch", "pods/a/"} << "empty name";
    QTest::newRow("spec upper") << QStringList{"client", "bulk-watch", "--watch", "Pods"} << "not a resource name";
    QTest::newRow("spec group") << QStringList{"client", "bulk-watch", "--watch", "pods.Apps"} << "not an API group";
    QTest::newRow("spec option") << QStringList{"client", "bulk-watch", "--watch", "pods?watch=1"} << "unknown option 'watch'";
    QTest::newRow("spec option value") << QStringList{"client", "bulk-watch", "--watch", "pods?labelSelector"}
                                       << "needs a value";
    QTest::newRow("spec space") << QStringList{"client", "bulk-watch", "--watch", "pods/a b"} << "holds a space";
}

void TestCommandLine::testErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const Command command = parseCommandLine(QStringList{"rvscope"} + args);
    QCOMPARE(command.kind, Command::Kind::Error);
    QVERIFY2(command.error.contains(fragment), qPrintable(command.error));
}

void TestCommandLine::testHelpMentionsEveryFlag()
{
    QCOMPARE(parseCommandLine({"rvscope", "--help"}).kind, Command::Kind::Help);
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--help"}).kind, Command::Kind::Help);
    const QString usage = rvscope::app::usageText();
    for (const char *word : {"serve", "--listen", "--watch-history", "--help", "--version", "gui", "scenario run",
                             "scenario list", "--check", "--export", "--seed", "client", "--server", "--clients",
                             "--strategy", "--objects", "--operations", "--think", "--json", "retry-default",
                             "blind-put", "lease", "json-patch-test", "merge-patch-rv", "bulk-watch", "--token",
                             "--certificate-authority", "--insecure-skip-tls-verify", "--watch", "labelSelector",
                             "--separate-storage", "--watch-backlog", "--storage", "--etcd-endpoints",
                             "--etcd-prefix", "--fault", "--request-head-timeout", "--request-timeout", "--acl-recheck"})
        QVERIFY2(usage.contains(QLatin1String(word)), word);
}

void TestCommandLine::testHelpPrintsTheDefaultsInUse()
{
    // The help is made from the option table and reads its defaults from EngineOptions, so
    // what it says is what a user gets.
    // One line per option, its help wrapped: compare with the wrapping undone.
    const QString usage = rvscope::app::usageText().simplified();
    const rvscope::app::ServeOptions defaults;
    QVERIFY(usage.contains(QStringLiteral("(default 127.0.0.1:%1)").arg(defaults.port)));
    QVERIFY(usage.contains(QStringLiteral("(default %1)").arg(defaults.watchHistory)));
    QVERIFY(usage.contains(QStringLiteral("(default 8Mi)")));
    QVERIFY(usage.contains(QStringLiteral("(default 1s)")));
    QVERIFY(usage.contains(QStringLiteral("(default memory)")));
    QVERIFY(usage.contains(QStringLiteral("(default %1)").arg(defaults.etcdEndpoints.join(u','))));
    QVERIFY(usage.contains(QStringLiteral("(default %1)").arg(defaults.etcdPrefix)));
    QVERIFY(usage.contains(
        QStringLiteral("(default %1 in the window and for `serve --export`; 0 for `serve` otherwise").arg(defaults.LAB_JOURNAL_SIZE)));
    const rvscope::app::ClientOptions client;
    QVERIFY(usage.contains(QStringLiteral("(default %1)").arg(client.server)));
    for (const QString &line : rvscope::app::usageText().split(u'\n'))
        QVERIFY2(line.size() <= 92, qPrintable(line));
}

void TestCommandLine::testScenarioCommands()
{
    const Command list = parseCommandLine({"rvscope", "scenario", "list"});
    QCOMPARE(list.kind, Command::Kind::Scenario);
    QVERIFY(list.scenario.list);
    const Command run = parseCommandLine({"rvscope", "scenario", "run", "lost-update", "--seed=7", "--export", "h.jsonl", "--check"});
    QCOMPARE(run.kind, Command::Kind::Scenario);
    QCOMPARE(run.scenario.nameOrPath, QStringLiteral("lost-update"));
    QCOMPARE(run.scenario.seed, quint64(7));
    QCOMPARE(run.scenario.exportPath, QStringLiteral("h.jsonl"));
    QVERIFY(run.scenario.check);
    // Unset, the journal follows the role: off for `serve` (headless, nobody reads it), on for
    // the window, which draws it. runServe() and LabWindow give the role.
    auto serveJournal = [](const QStringList &args) {
        rvscope::app::ServeOptions options = parseCommandLine(QStringList{"rvscope", "serve"} + args).serve;
        options.role = rvscope::app::ServeOptions::Role::Server;
        return options.journalCapacity();
    };
    QCOMPARE(serveJournal({}), std::size_t(0));
    QCOMPARE(serveJournal({"--journal-size", "1000"}), std::size_t(1000));
    QCOMPARE(serveJournal({"--journal-size", "0"}), std::size_t(0));
    // --export turns it on, at the window's size unless --journal-size says otherwise.
    QCOMPARE(serveJournal({"--export", "h.jsonl"}), rvscope::app::ServeOptions::LAB_JOURNAL_SIZE);
    QCOMPARE(serveJournal({"--export", "h.jsonl", "--journal-size", "500"}), std::size_t(500));
    const Command exporting = parseCommandLine({"rvscope", "serve", "--export", "h.jsonl", "--export-secrets"});
    QCOMPARE(exporting.serve.exportPath, QStringLiteral("h.jsonl"));
    QVERIFY(exporting.serve.exportSecrets);
    QCOMPARE(rvscope::app::windowOptionsError(parseCommandLine({"rvscope", "--export", "h.jsonl"}).serve),
             QStringLiteral("--export is for `rvscope serve`: the window exports its history from File → Export history"));
    QCOMPARE(parseCommandLine({"rvscope"}).serve.journalCapacity(), rvscope::app::ServeOptions::LAB_JOURNAL_SIZE);
    QCOMPARE(parseCommandLine({"rvscope", "--journal-size", "0"}).serve.journalCapacity(), std::size_t(0));
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--journal-size", "x"}).kind, Command::Kind::Error);
    QCOMPARE(parseCommandLine({"rvscope", "serve"}).serve.maxWatchBacklog, std::size_t(8 * 1024 * 1024));
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--watch-backlog", "512Ki"}).serve.maxWatchBacklog,
             std::size_t(512 * 1024));
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--watch-backlog", "0"}).serve.maxWatchBacklog, std::size_t(0));
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--watch-backlog", "2Gi"}).serve.maxWatchBacklog,
             std::size_t(2) * 1024 * 1024 * 1024);
    const Command separate = parseCommandLine(
        {"rvscope", "serve", "--separate-storage", "events,leases.coordination.k8s.io", "--separate-storage", "events"});
    QCOMPARE(separate.serve.separateStorage, (QStringList{"events", "leases.coordination.k8s.io"}));
    // --fault repeats, in order, for `serve` and the window alike.
    const QStringList rules{"update deployments/x every=3 conflict", "watch deployments/x expire-after=5"};
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--fault", rules[0], "--fault", rules[1]}).serve.faults, rules);
    QCOMPARE(parseCommandLine({"rvscope", "--fault", rules[0], "--fault", rules[1]}).serve.faults, rules);
    QVERIFY(parseCommandLine({"rvscope", "serve"}).serve.faults.isEmpty());
}

void TestCommandLine::testClientOptions()
{
    const Command command = parseCommandLine({"rvscope", "client", "--server", "http://127.0.0.1:9000", "--clients", "8",
                                              "--strategy", "lease", "--objects", "3", "--operations", "20", "--think",
                                              "exp:2ms", "--seed", "5", "--name", "w-", "--json"});
    QCOMPARE(command.kind, Command::Kind::Client);
    QCOMPARE(command.client.server, QStringLiteral("http://127.0.0.1:9000"));
    QCOMPARE(command.client.clients, 8);
    QCOMPARE(command.client.strategy, QStringLiteral("lease"));
    QCOMPARE(command.client.objects, 3);
    QCOMPARE(command.client.operations, 20);
    QCOMPARE(command.client.thinkTime, QStringLiteral("exp:2ms"));
    QCOMPARE(command.client.seed, quint64(5));
    QCOMPARE(command.client.namePrefix, QStringLiteral("w-"));
    QVERIFY(command.client.json);
    QCOMPARE(command.client.objectPrefix, QStringLiteral("counter"));
    QCOMPARE(parseCommandLine({"rvscope", "client", "--object-prefix", "soak"}).client.objectPrefix, QStringLiteral("soak"));
    QCOMPARE(parseCommandLine({"rvscope", "client", "--object-prefix="}).error,
             QStringLiteral("--object-prefix needs a name prefix"));
}

void TestCommandLine::testCheckCommand()
{
    const Command check = parseCommandLine({"rvscope", "check", "h.jsonl"});
    QCOMPARE(check.kind, Command::Kind::Check);
    QCOMPARE(check.check.path, QStringLiteral("h.jsonl"));
    QVERIFY(!check.check.json);
    QVERIFY(parseCommandLine({"rvscope", "check", "--json", "h.jsonl"}).check.json);
    QCOMPARE(parseCommandLine({"rvscope", "check", "--help"}).kind, Command::Kind::Help);
    QCOMPARE(parseCommandLine({"rvscope", "check"}).error,
             QStringLiteral("check needs a history file (JSON Lines, from serve --export or scenario run --export)"));
    QCOMPARE(parseCommandLine({"rvscope", "check", "a", "b"}).error, QStringLiteral("check takes one history file, got 'b' too"));
    QCOMPARE(parseCommandLine({"rvscope", "check", "a", "--jsn"}).error,
             QStringLiteral("unknown argument '--jsn' (see rvscope --help)"));
}

void TestCommandLine::testBulkWatchOptions()
{
    const Command command = parseCommandLine({"rvscope", "client", "bulk-watch", "--server=https://127.0.0.1:8443",
                                              "--token", "t0k", "--certificate-authority", "ca.pem", "--watch",
                                              "secrets/default/db", "--watch=configmaps", "--json"});
    QCOMPARE(command.kind, Command::Kind::BulkWatch);
    const rvscope::app::BulkWatchOptions &options = command.bulkWatch;
    QCOMPARE(options.server, QStringLiteral("https://127.0.0.1:8443"));
    QCOMPARE(options.token, QStringLiteral("t0k"));
    QCOMPARE(options.certificateAuthority, QStringLiteral("ca.pem"));
    QVERIFY(!options.insecureSkipTlsVerify);
    QVERIFY(options.json);
    QCOMPARE(options.watches.size(), 2);
    QCOMPARE(options.watches[0].text, QStringLiteral("secrets/default/db"));
    QCOMPARE(options.watches[1].resource, QStringLiteral("configmaps"));
    QCOMPARE(parseCommandLine({"rvscope", "client", "bulk-watch", "--help"}).kind, Command::Kind::Help);
    const Command insecure = parseCommandLine(
        {"rvscope", "client", "bulk-watch", "--server", "ws://h:1/prefix", "--insecure-skip-tls-verify", "--watch", "pods"});
    QCOMPARE(insecure.kind, Command::Kind::BulkWatch);
    QVERIFY(insecure.bulkWatch.insecureSkipTlsVerify);
    // Plain `client` keeps its own options.
    QCOMPARE(parseCommandLine({"rvscope", "client", "--clients", "2"}).kind, Command::Kind::Client);
}

void TestCommandLine::testBulkWatchSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("frame"); // the watch request it becomes, as id 7
    QTest::addColumn<QString>("label");
    QTest::newRow("one secret") << "secrets/default/db-password"
                                << R"({"id":7,"watch":{"selector":{"options":{"fieldSelector":"metadata.name=db-password",)"
                                   R"("namespace":"default"},"resource":{"group":"","resource":"secrets","version":"v1"}}}})"
                                << "secrets";
    QTest::newRow("namespace") << "pods/default"
                               << R"({"id":7,"watch":{"selector":{"options":{"namespace":"default"},)"
                                  R"("resource":{"group":"","resource":"pods","version":"v1"}}}})"
                               << "pods";
    QTest::newRow("everything") << "configmaps"
                                << R"({"id":7,"watch":{"selector":{"options":{},)"
                                   R"("resource":{"group":"","resource":"configmaps","version":"v1"}}}})"
                                << "configmaps";
    QTest::newRow("group") << "deployments.apps/default"
                           << R"({"id":7,"watch":{"selector":{"options":{"namespace":"default"},)"
                              R"("resource":{"group":"apps","resource":"deployments","version":""}}}})"
                           << "deployments.apps";
    QTest::newRow("group version") << "leases.v1.coordination.k8s.io/kube-node-lease"
                                   << R"({"id":7,"watch":{"selector":{"options":{"namespace":"kube-node-lease"},)"
                                      R"("resource":{"group":"coordination.k8s.io","resource":"leases","version":"v1"}}}})"
                                   << "leases.coordination.k8s.io";
    QTest::newRow("core version") << "pods.v1"
                                  << R"({"id":7,"watch":{"selector":{"options":{},)"
                                     R"("resource":{"group":"","resource":"pods","version":"v1"}}}})"
                                  << "pods";
    QTest::newRow("cluster name") << "nodes//n1"
                                  << R"({"id":7,"watch":{"selector":{"options":{"fieldSelector":"metadata.name=n1"},)"
                                     R"("resource":{"group":"","resource":"nodes","version":"v1"}}}})"
                                  << "nodes";
    QTest::newRow("options") << "pods/default/web?labelSelector=app=web,tier!=db&fieldSelector=spec.nodeName%3Dn1"
                                "&resourceVersion=42"
                             << R"({"id":7,"watch":{"selector":{"options":{"fieldSelector":"metadata.name=web,)"
                                R"(spec.nodeName=n1","labelSelector":"app=web,tier!=db","namespace":"default",)"
                                R"("resourceVersion":"42"},"resource":{"group":"","resource":"pods","version":"v1"}}}})"
                             << "pods";
}

void TestCommandLine::testBulkWatchSpecs()
{
    QFETCH(QString, spec);
    QFETCH(QString, frame);
    QFETCH(QString, label);
    QString error;
    const auto parsed = rvscope::app::parseBulkWatchSpec(spec, error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(parsed->text, spec);
    QCOMPARE(QString::fromStdString(parsed->watchRequestFrame(7)), frame);
    QCOMPARE(parsed->resourceLabel(), label);
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "TestCommandLine.moc"
