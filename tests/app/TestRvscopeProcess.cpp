// SPDX-License-Identifier: MIT
// The rvscope executable as a user runs it: real process, real sockets on 127.0.0.1.
#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QRegularExpression>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "Processes.h"
#include "RawHttp.h"

namespace {

using rvscope::testing::HttpReply;
using rvscope::testing::readReply;

HttpReply request(QTcpSocket &socket, const QByteArray &path)
{
    socket.write(rvscope::testing::rawRequest("GET", path, {}, {"Accept: application/json"}));
    return readReply(socket);
}

} // namespace

class TestRvscopeProcess final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testHelp();
    void testBadArgumentsExitWithMessage();
    void testServePrintsReadyLineAndAnswers();
    void testNoDisplayFallsBackToServe();
    void testHeadlessCommandsLoadNoGuiLibrary();
    void testWindowRunsInRvscopeGui();
    void testPortInUseIsReported();
    void testMissingEtcdModuleIsReported();
    void testSeparateStorageSeries();
    void testDataDirInUseIsReported();
    void testWindowRefusesDataDir();
    void testScenarioListAndRunWithCheck();
    void testScenarioRunExportsHistory();
    void testUnknownScenarioExitsWithTheList();
    void testClientProcessAgainstServe();
    void testClientCannotReachServer();

private:
    // Starts rvscope with `args`, waits for the ready line, returns the port (0 on failure).
    quint16 startServer(QProcess &process, const QStringList &args, const QProcessEnvironment &env = {});
};

quint16 TestRvscopeProcess::startServer(QProcess &process, const QStringList &args, const QProcessEnvironment &env)
{
    if (!env.isEmpty())
        process.setProcessEnvironment(env);
    process.start(QStringLiteral(RVSCOPE_BINARY), args);
    if (!process.waitForStarted(5000))
        return 0;
    QByteArray out;
    while (!out.contains('\n') && process.waitForReadyRead(5000))
        out += process.readAllStandardOutput();
    const auto match = QRegularExpression(QStringLiteral("^listening on http://127\\.0\\.0\\.1:(\\d+)\\n"))
                           .match(QString::fromUtf8(out));
    if (!match.hasMatch()) {
        qWarning() << "no ready line; stdout:" << out << "stderr:" << process.readAllStandardError();
        return 0;
    }
    return static_cast<quint16>(match.captured(1).toUInt());
}

void TestRvscopeProcess::testHelp()
{
    QProcess process;
    process.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("--help")});
    QVERIFY(rvscope::testing::finishes(process, 5000));
    QCOMPARE(process.exitCode(), 0);
    const QByteArray out = process.readAllStandardOutput();
    for (const char *word : {"serve", "--listen", "--watch-history"})
        QVERIFY2(out.contains(word), word);
}

void TestRvscopeProcess::testBadArgumentsExitWithMessage()
{
    QProcess process;
    process.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("serve"), QStringLiteral("--listen"),
                                                   QStringLiteral("nowhere")});
    QVERIFY(rvscope::testing::finishes(process, 5000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().startsWith("rvscope: --listen expects ADDR:PORT"));
}

void TestRvscopeProcess::testServePrintsReadyLineAndAnswers()
{
    QProcess process;
    const quint16 port = startServer(process, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                               QStringLiteral("127.0.0.1:0")});
    QVERIFY(port != 0);

    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(socket.waitForConnected(5000));
    const HttpReply health = request(socket, "/healthz");
    QCOMPARE(health.status, 200);
    QCOMPARE(health.body, QByteArray("ok"));

    // Same keep-alive connection: an unknown path is a Kubernetes 404 Status.
    const HttpReply missing = request(socket, "/api/v1/nothing-here");
    QCOMPARE(missing.status, 404);
    QVERIFY(missing.headers.contains("Content-Type: application/json"));
    const auto status = nlohmann::json::parse(missing.body.toStdString());
    QCOMPARE(status["kind"], "Status");
    QCOMPARE(status["code"], 404);
    QCOMPARE(status["reason"], "NotFound");
    QCOMPARE(status["message"], "the server could not find the requested resource");

    // Garbage on the wire does not take the server down.
    QTcpSocket garbage;
    garbage.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(garbage.waitForConnected(5000));
    garbage.write("\x01\x02 not http at all\r\n\r\n");
    garbage.waitForReadyRead(500);
    QCOMPARE(request(socket, "/livez").status, 200);

    process.terminate(); // SIGTERM: a clean stop
    QVERIFY(rvscope::testing::finishes(process, 5000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
}

void TestRvscopeProcess::testNoDisplayFallsBackToServe()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    QProcess process;
    const quint16 port = startServer(process, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}, env);
    QVERIFY(port != 0);
    QVERIFY(process.readAllStandardError().contains("no display found"));
    process.terminate();
    QVERIFY(rvscope::testing::finishes(process, 5000));
    QCOMPARE(process.exitCode(), 0);
}

// The shared libraries a running process has mapped.
QByteArray mappedLibraries(qint64 pid)
{
    QFile maps(QStringLiteral("/proc/%1/maps").arg(pid));
    return maps.open(QIODevice::ReadOnly) ? maps.readAll() : QByteArray();
}

void TestRvscopeProcess::testHeadlessCommandsLoadNoGuiLibrary()
{
    // `serve` (and the window's fallback without a display) is a lean apiserver: Qt Core,
    // Network and WebSockets, nothing of Gui, Widgets, X11 or EGL, nor of gRPC (the etcd
    // module brings it only to `--storage etcd`).
    QProcess process;
    const quint16 port = startServer(process, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                               QStringLiteral("127.0.0.1:0")});
    QVERIFY(port != 0);
    const QByteArray maps = mappedLibraries(process.processId());
    QVERIFY(maps.contains("libQt6WebSockets"));
    for (const char *gui : {"libQt6Gui", "libQt6Widgets", "libQt6Svg", "libX11", "libEGL", "libGL", "libQt6HttpServer",
                            "libgrpc", "libgpr", "libabsl", "librvscope_etcd"})
        QVERIFY2(!maps.contains(gui), gui);
    process.terminate();
    QVERIFY(rvscope::testing::finishes(process, 5000));
}

void TestRvscopeProcess::testWindowRunsInRvscopeGui()
{
    // `rvscope` with a display starts the window's own executable in its place (same
    // process), which serves on --listen as the window always does.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    QTemporaryDir settings; // the window's QSettings go here, not to the user's
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), settings.path());
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)});
    QVERIFY(process.waitForStarted(5000));
    // The window opens on its first-run scenario, whose fresh core restarts the server once:
    // a connection made just then may be closed, so ask again on a new one.
    // A wall-clock bound: on a loaded CI machine the window's start took longer than the
    // 15 s QTRY_VERIFY_WITH_TIMEOUT counts in polling steps (a failed connect returns early).
    QTcpSocket socket;
    QDeadlineTimer deadline(30000);
    bool served = false;
    while (!served && !deadline.hasExpired() && process.state() == QProcess::Running) {
        socket.abort();
        socket.connectToHost(QHostAddress::LocalHost, port);
        served = socket.waitForConnected(200) && request(socket, "/version").status == 200;
        if (!served)
            QTest::qWait(100);
    }
    QVERIFY2(served, qPrintable(QStringLiteral("the window served no /version on port %1 within 30 s").arg(port)));
    const QByteArray maps = mappedLibraries(process.processId());
    QVERIFY(maps.contains("libQt6Widgets"));
    const QString executable = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(process.processId()));
    QCOMPARE(QFileInfo(executable).fileName(), QStringLiteral("rvscope-gui"));
    process.terminate();
    QVERIFY(rvscope::testing::finishes(process, 5000));
}

void TestRvscopeProcess::testPortInUseIsReported()
{
    QProcess first;
    const quint16 port = startServer(first, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                             QStringLiteral("127.0.0.1:0")});
    QVERIFY(port != 0);
    QProcess second;
    second.start(QStringLiteral(RVSCOPE_BINARY),
                 {QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)});
    QVERIFY(rvscope::testing::finishes(second, 5000));
    QCOMPARE(second.exitCode(), 1);
    QVERIFY(second.readAllStandardError().contains("cannot serve on 127.0.0.1:"));
    first.terminate();
    QVERIFY(rvscope::testing::finishes(first, 5000));
}

// `--storage etcd` loads librvscope_etcd.so from beside the executable: a binary copied
// without it refuses to serve and says which file it could not load.
void TestRvscopeProcess::testMissingEtcdModuleIsReported()
{
#ifndef RVSCOPE_ETCD
    QSKIP("built without etcd support (RVSCOPE_ETCD=OFF)");
#endif
    QTemporaryDir dir;
    const QString alone = dir.filePath(QStringLiteral("rvscope"));
    QVERIFY(QFile::copy(QStringLiteral(RVSCOPE_BINARY), alone));
    QProcess process;
    process.start(alone, {QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                          QStringLiteral("--storage"), QStringLiteral("etcd"), QStringLiteral("--etcd-endpoints"),
                          QStringLiteral("http://127.0.0.1:9")});
    QVERIFY(rvscope::testing::finishes(process, 10000));
    QCOMPARE(process.exitCode(), 1);
    const QByteArray error = process.readAllStandardError();
    const QString module = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/librvscope_etcd.so");
    QVERIFY2(error.contains("--storage etcd: cannot load the etcd module " + module.toUtf8()), error.constData());
    QVERIFY2(!process.readAllStandardOutput().contains("listening on"), "served without its storage");
}

void TestRvscopeProcess::testDataDirInUseIsReported()
{
    QTemporaryDir dir;
    const QStringList args{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                           QStringLiteral("--data-dir"), dir.path()};
    QProcess first;
    QVERIFY(startServer(first, args) != 0);
    QProcess second;
    second.start(QStringLiteral(RVSCOPE_BINARY), args);
    QVERIFY(rvscope::testing::finishes(second, 5000));
    QCOMPARE(second.exitCode(), 1);
    const QByteArray error = second.readAllStandardError();
    QVERIFY2(error.contains("cannot serve on 127.0.0.1:0: data directory ") && error.contains("is in use by another rvscope"),
             error.constData());
    first.terminate();
    QVERIFY(rvscope::testing::finishes(first, 5000));
}

void TestRvscopeProcess::testWindowRefusesDataDir()
{
    // With a display the window would open on a scenario's fresh store: refused before any
    // window or connection to the display is made.
    QTemporaryDir dir;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":99"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("--data-dir"), dir.path()});
    QVERIFY(rvscope::testing::finishes(process, 5000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains("--data-dir is for `rvscope serve`"));
    QVERIFY(QDir(dir.path()).isEmpty()); // nothing was opened
}

void TestRvscopeProcess::testSeparateStorageSeries()
{
    QProcess process;
    const quint16 port = startServer(process, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                               QStringLiteral("127.0.0.1:0"), QStringLiteral("--separate-storage"),
                                               QStringLiteral("events")});
    QVERIFY(port != 0);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(socket.waitForConnected(5000));
    auto post = [&socket](const QByteArray &path, const QByteArray &body) {
        socket.write(rvscope::testing::rawRequest("POST", path, body));
        return readReply(socket);
    };
    auto rvOf = [](const HttpReply &reply) {
        return std::stoll(nlohmann::json::parse(reply.body.toStdString())["metadata"]["resourceVersion"].get<std::string>());
    };
    const HttpReply first = post("/api/v1/namespaces/default/events",
                                 R"({"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod","name":"p"},"reason":"Started"})");
    QCOMPARE(first.status, 201);
    for (int i = 0; i < 3; ++i) {
        const HttpReply cm = post("/api/v1/namespaces/default/configmaps",
                                  R"({"metadata":{"name":"c)" + QByteArray::number(i) + R"("}})");
        QCOMPARE(cm.status, 201);
    }
    const HttpReply second = post("/api/v1/namespaces/default/events",
                                  R"({"metadata":{"name":"e2"},"involvedObject":{"kind":"Pod","name":"p"},"reason":"Started"})");
    QCOMPARE(second.status, 201);
    // The ConfigMaps went to the main series: the events' own series moved by one.
    QCOMPARE(rvOf(second), rvOf(first) + 1);
    QCOMPARE(rvOf(request(socket, "/api/v1/namespaces/default/events")), rvOf(second));
    QVERIFY(rvOf(request(socket, "/api/v1/namespaces/default/configmaps")) != rvOf(second));
    process.terminate();
    QVERIFY(rvscope::testing::finishes(process, 5000));

    // A type the server does not serve is refused at start.
    QProcess bad;
    bad.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("serve"), QStringLiteral("--listen"),
                                               QStringLiteral("127.0.0.1:0"), QStringLiteral("--separate-storage"),
                                               QStringLiteral("evnets")});
    QVERIFY(rvscope::testing::finishes(bad, 5000));
    QCOMPARE(bad.exitCode(), 1);
    QVERIFY(bad.readAllStandardError().contains("--separate-storage: 'evnets' is not a served resource"));
}

void TestRvscopeProcess::testScenarioListAndRunWithCheck()
{
    QProcess list;
    list.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("scenario"), QStringLiteral("list")});
    QVERIFY(rvscope::testing::finishes(list, 10000));
    QCOMPARE(list.exitCode(), 0);
    const QByteArray names = list.readAllStandardOutput();
    for (const char *name : {"lost-update", "put-vs-patch", "kubectl-replace-vs-apply", "list-watch-410", "occ-vs-pcc", "hot-key"})
        QVERIFY2(names.contains(name), name);

    QProcess run;
    run.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("scenario"), QStringLiteral("run"),
                                               QStringLiteral("lost-update"), QStringLiteral("--check")});
    QVERIFY(rvscope::testing::finishes(run, 30000));
    const QByteArray out = run.readAllStandardOutput();
    QVERIFY2(run.exitCode() == 0, out.constData());
    QVERIFY(out.contains("Client #2 PUT configmaps/default/foo (rv "));
    QVERIFY(out.contains("409 Conflict: Operation cannot be fulfilled on configmaps \"foo\""));
    QVERIFY(out.contains("history: 9 operations"));
    QVERIFY(out.contains("lost-update configmaps/default/foo: FAIL (expected fail)"));
    QVERIFY(out.contains("linearizability: PASS (expected pass)"));
}

void TestRvscopeProcess::testScenarioRunExportsHistory()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.jsonl"));
    QProcess run;
    run.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("scenario"), QStringLiteral("run"),
                                               QStringLiteral("put-vs-patch"), QStringLiteral("--seed"),
                                               QStringLiteral("3"), QStringLiteral("--export"), path});
    QVERIFY(rvscope::testing::finishes(run, 30000));
    QCOMPARE(run.exitCode(), 0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QVERIFY(lines.size() > 20);
    const QJsonObject first = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(first.value(QStringLiteral("record")).toString(), QStringLiteral("operation"));
    QCOMPARE(first.value(QStringLiteral("verb")).toString(), QStringLiteral("create"));
}

void TestRvscopeProcess::testUnknownScenarioExitsWithTheList()
{
    QProcess run;
    run.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("scenario"), QStringLiteral("run"), QStringLiteral("lost")});
    QVERIFY(rvscope::testing::finishes(run, 10000));
    QCOMPARE(run.exitCode(), 1);
    QVERIFY(run.readAllStandardError().contains("no scenario named \"lost\" (built in: lost-update"));
    QProcess bad;
    bad.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("scenario"), QStringLiteral("fly")});
    QVERIFY(rvscope::testing::finishes(bad, 10000));
    QCOMPARE(bad.exitCode(), 2);
}

void TestRvscopeProcess::testClientProcessAgainstServe()
{
    QProcess server;
    const quint16 port = startServer(server, {QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
    QVERIFY(port != 0);
    QProcess client;
    client.start(QStringLiteral(RVSCOPE_BINARY),
                 {QStringLiteral("client"), QStringLiteral("--server"), QStringLiteral("http://127.0.0.1:%1").arg(port),
                  QStringLiteral("--clients"), QStringLiteral("4"), QStringLiteral("--operations"), QStringLiteral("15"),
                  QStringLiteral("--strategy"), QStringLiteral("retry-backoff"), QStringLiteral("--think"),
                  QStringLiteral("0-2ms")});
    QVERIFY(rvscope::testing::finishes(client, 60000));
    const QByteArray out = client.readAllStandardOutput();
    QVERIFY2(client.exitCode() == 0, client.readAllStandardError().constData());
    QVERIFY(out.contains("client-1: "));
    const QJsonObject summary = QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
    QCOMPARE(summary.value(QStringLiteral("clients")).toInt(), 4);
    const int landed = summary.value(QStringLiteral("succeeded")).toInt();
    QCOMPARE(landed + summary.value(QStringLiteral("failed")).toInt(), 60);
    // The counter holds exactly the landed increments: no update was lost over HTTP either.
    const HttpReply counter = rvscope::testing::exchange(port, "GET", "/api/v1/namespaces/default/configmaps/counter-0");
    const QJsonObject object = QJsonDocument::fromJson(counter.body).object();
    QCOMPARE(object.value(QStringLiteral("data")).toObject().value(QStringLiteral("counter")).toString(),
             QString::number(landed));
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, 5000));
}

void TestRvscopeProcess::testClientCannotReachServer()
{
    QProcess client;
    client.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("client"), QStringLiteral("--server"),
                                                  QStringLiteral("http://127.0.0.1:1")});
    QVERIFY(rvscope::testing::finishes(client, 20000));
    QCOMPARE(client.exitCode(), 1);
    QVERIFY(client.readAllStandardError().startsWith("rvscope client: cannot reach http://127.0.0.1:1"));
    QProcess bad;
    bad.start(QStringLiteral(RVSCOPE_BINARY), {QStringLiteral("client"), QStringLiteral("--strategy"), QStringLiteral("hope")});
    QVERIFY(rvscope::testing::finishes(bad, 20000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("unknown strategy \"hope\""));
}

QTEST_GUILESS_MAIN(TestRvscopeProcess)
#include "TestRvscopeProcess.moc"
