// SPDX-License-Identifier: MIT
// `rvscope client bulk-watch` as a user runs it: a real `rvscope serve` process, the client
// as another process, objects written over HTTP on 127.0.0.1, the client's stdout read line
// by line through a pipe.
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include "Processes.h"
#include "RawHttp.h"

namespace {

constexpr int WAIT_MS = 5000;

using rvscope::testing::HttpReply;

// One request on its own connection, optionally with a bearer token.
HttpReply http(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
               const QByteArray &token = {}, const QByteArray &contentType = "application/json")
{
    QList<QByteArray> headers{"Accept: application/json"};
    if (!token.isEmpty())
        headers << "Authorization: Bearer " + token;
    return rvscope::testing::exchange(port, method, path, body, headers, contentType);
}

QByteArray configMap(const QByteArray &name, const QByteArray &value)
{
    return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("},"data":{"a":")" + value
        + R"("}})";
}

// The stdout of a running client, as lines.
class Output final {
public:
    explicit Output(QProcess &process)
        : m_process(process)
    {
    }

    // Waits until a line containing `fragment` has arrived; returns it ("" on timeout).
    QString waitFor(const QString &fragment, int timeoutMs = WAIT_MS)
    {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            read();
            for (const QString &line : std::as_const(m_lines)) {
                if (line.contains(fragment))
                    return line;
            }
            if (timer.elapsed() > timeoutMs || m_process.state() == QProcess::NotRunning) {
                read();
                qWarning() << "no line with" << fragment << "in" << m_lines
                           << "stderr:" << m_process.readAllStandardError();
                return {};
            }
            m_process.waitForReadyRead(50);
        }
    }

    QStringList lines()
    {
        read();
        return m_lines;
    }

private:
    void read()
    {
        m_buffer += m_process.readAllStandardOutput();
        qsizetype end = 0;
        while ((end = m_buffer.indexOf('\n')) >= 0) {
            m_lines << QString::fromUtf8(m_buffer.left(end));
            m_buffer.remove(0, end + 1);
        }
    }

    QProcess &m_process;
    QByteArray m_buffer;
    QStringList m_lines;
};

QString rvOf(const QString &line)
{
    return QRegularExpression(QStringLiteral("rv=(\\d+)$")).match(line).captured(1);
}

} // namespace

class TestBulkWatchCommand final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testArgumentErrors_data();
    void testArgumentErrors();
    void testUnreachableServer();
    void testEventsArriveOnTheirChannels();
    void testJsonPrintsFramesVerbatim();
    void testEndsWhenEveryChannelHasEnded();
    void testPartialRejectionAndTokens();
    void testAccessLossClosesOneChannel();
    void testTls();
    void testServerGoingAway();

private:
    // Starts `rvscope serve --listen 127.0.0.1:0 extra...`; returns the URL of its ready line.
    QString startServer(QProcess &process, const QStringList &extra = {});
    void startClient(QProcess &process, const QString &server, const QStringList &args);
    static quint16 portOf(const QString &url) { return static_cast<quint16>(QUrl(url).port()); }
    // Writes the token and policy files (admin: everything; alice: read configmaps in default).
    void writeAccessFiles();

    QTemporaryDir m_dir;
    QString m_tokens;
    QString m_policy;
};

QString TestBulkWatchCommand::startServer(QProcess &process, const QStringList &extra)
{
    process.start(QStringLiteral(RVSCOPE_BINARY),
                  QStringList{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} + extra);
    if (!process.waitForStarted(WAIT_MS))
        return {};
    QByteArray out;
    while (!out.contains('\n') && process.waitForReadyRead(WAIT_MS))
        out += process.readAllStandardOutput();
    const auto match = QRegularExpression(QStringLiteral("^listening on (https?://127\\.0\\.0\\.1:\\d+)\\n"))
                           .match(QString::fromUtf8(out));
    if (!match.hasMatch()) {
        qWarning() << "no ready line; stdout:" << out << "stderr:" << process.readAllStandardError();
        return {};
    }
    return match.captured(1);
}

void TestBulkWatchCommand::startClient(QProcess &process, const QString &server, const QStringList &args)
{
    process.start(QStringLiteral(RVSCOPE_BINARY),
                  QStringList{QStringLiteral("client"), QStringLiteral("bulk-watch"), QStringLiteral("--server"), server}
                      + args);
    QVERIFY(process.waitForStarted(WAIT_MS));
}

void TestBulkWatchCommand::writeAccessFiles()
{
    QVERIFY(m_dir.isValid());
    m_tokens = m_dir.filePath(QStringLiteral("tokens.csv"));
    m_policy = m_dir.filePath(QStringLiteral("policy.json"));
    QFile tokens(m_tokens);
    QVERIFY(tokens.open(QIODevice::WriteOnly));
    tokens.write("admin-token,admin,1,\"system:masters\"\nalice-token,alice,2,devs\n"
                 "node-token,system:node:n1,3,system:nodes\n");
    QFile policy(m_policy);
    QVERIFY(policy.open(QIODevice::WriteOnly));
    policy.write(R"({"rules": [
        {"users": ["admin"], "verbs": ["*"], "resources": ["*"]},
        {"groups": ["devs"], "verbs": ["get", "list", "watch"], "resources": ["configmaps"], "namespaces": ["default"]}
    ]})");
}

void TestBulkWatchCommand::testArgumentErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no server") << QStringList{"--watch", "pods"} << "needs --server URL";
    QTest::newRow("bad server") << QStringList{"--server", "ftp://x", "--watch", "pods"} << "--server expects http(s)://";
    QTest::newRow("no watch") << QStringList{"--server", "http://127.0.0.1:1"} << "needs at least one --watch SPEC";
    QTest::newRow("deep spec") << QStringList{"--server", "http://127.0.0.1:1", "--watch", "pods/a/b/c"}
                               << "--watch 'pods/a/b/c': too many '/'";
    QTest::newRow("upper case") << QStringList{"--server", "http://127.0.0.1:1", "--watch", "Pods"}
                                << "'Pods' is not a resource name";
    QTest::newRow("unknown option") << QStringList{"--server", "http://127.0.0.1:1", "--watch", "pods?limit=5"}
                                    << "unknown option 'limit'";
    QTest::newRow("both tls flags") << QStringList{"--server", "https://127.0.0.1:1", "--watch", "pods",
                                                   "--insecure-skip-tls-verify", "--certificate-authority", "ca.pem"}
                                    << "exclude each other";
    QTest::newRow("missing ca") << QStringList{"--server", "https://127.0.0.1:1", "--watch", "pods",
                                               "--certificate-authority", "/nonexistent/ca.pem"}
                                << "cannot read --certificate-authority /nonexistent/ca.pem";
}

void TestBulkWatchCommand::testArgumentErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QProcess client;
    client.start(QStringLiteral(RVSCOPE_BINARY), QStringList{"client", "bulk-watch"} + args);
    QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
    QCOMPARE(client.exitCode(), 2);
    const QString err = QString::fromUtf8(client.readAllStandardError());
    QVERIFY2(err.contains(message), qPrintable(err));
    QVERIFY(client.readAllStandardOutput().isEmpty());
}

void TestBulkWatchCommand::testUnreachableServer()
{
    // Straight to the websocket, and through discovery first (a group without a version).
    for (const QString &spec : {QStringLiteral("secrets/default"), QStringLiteral("deployments.apps/default")}) {
        QProcess client;
        startClient(client, QStringLiteral("http://127.0.0.1:1"), {QStringLiteral("--watch"), spec});
        QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
        const QString err = QString::fromUtf8(client.readAllStandardError());
        QVERIFY2(client.exitCode() == 2, qPrintable(QStringLiteral("exit code %1: %2").arg(client.exitCode()).arg(err)));
        QVERIFY2(err.startsWith("rvscope client bulk-watch: cannot connect to http://127.0.0.1:1: Connection refused"),
                 qPrintable(err));
    }
}

void TestBulkWatchCommand::testEventsArriveOnTheirChannels()
{
    QProcess server;
    const QString url = startServer(server);
    QVERIFY(!url.isEmpty());
    const quint16 port = portOf(url);
    QProcess client;
    startClient(client, url,
                {"--watch", "configmaps/default", "--watch", "configmaps/default/app", "--watch", "secrets/default",
                 "--watch", "deployments.apps/default"});
    Output out(client);
    QVERIFY(!out.waitFor("channel 1 opened: configmaps/default").isEmpty());
    QVERIFY(!out.waitFor("channel 2 opened: configmaps/default/app").isEmpty());
    QVERIFY(!out.waitFor("channel 3 opened: secrets/default").isEmpty());
    QVERIFY(!out.waitFor("channel 4 opened: deployments.apps/default").isEmpty()); // apps/v1 by discovery

    // One object selected by two channels is printed on both, with the same resourceVersion.
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/configmaps", configMap("app", "1")).status, 201);
    const QString added1 = out.waitFor("channel 1 ADDED configmaps default/app rv=");
    const QString added2 = out.waitFor("channel 2 ADDED configmaps default/app rv=");
    QVERIFY(!added1.isEmpty() && !added2.isEmpty());
    QCOMPARE(rvOf(added1), rvOf(added2));
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/configmaps", configMap("other", "1")).status, 201);
    QVERIFY(!out.waitFor("channel 1 ADDED configmaps default/other").isEmpty());
    QCOMPARE(http(port, "PATCH", "/api/v1/namespaces/default/configmaps/app", R"({"data":{"a":"2"}})", {},
                  "application/merge-patch+json")
                 .status,
             200);
    const QString modified = out.waitFor("channel 2 MODIFIED configmaps default/app rv=");
    QVERIFY(!modified.isEmpty());
    QVERIFY(rvOf(modified).toLongLong() > rvOf(added2).toLongLong());
    QVERIFY(!out.waitFor("channel 1 MODIFIED configmaps default/app rv=" + rvOf(modified)).isEmpty());
    QCOMPARE(http(port, "DELETE", "/api/v1/namespaces/default/configmaps/app").status, 200);
    QVERIFY(!out.waitFor("channel 1 DELETED configmaps default/app").isEmpty());
    QVERIFY(!out.waitFor("channel 2 DELETED configmaps default/app").isEmpty());
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/secrets",
                  R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"p":"s3cret"}})")
                 .status,
             201);
    QVERIFY(!out.waitFor("channel 3 ADDED secrets default/db rv=").isEmpty());
    // Channel 2 (one name) never saw "other"; channel 3 never saw a ConfigMap.
    for (const QString &line : out.lines()) {
        QVERIFY2(!(line.startsWith("channel 2 ") && line.contains("other")), qPrintable(line));
        QVERIFY2(!(line.startsWith("channel 3 ") && line.contains("configmaps")), qPrintable(line));
    }

    client.terminate(); // SIGTERM: closes the socket, exits 0
    QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
    QCOMPARE(client.exitStatus(), QProcess::NormalExit);
    QCOMPARE(client.exitCode(), 0);
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testJsonPrintsFramesVerbatim()
{
    QProcess server;
    const QString url = startServer(server);
    QVERIFY(!url.isEmpty());
    QProcess client;
    startClient(client, url, {"--json", "--watch", "configmaps/default", "--watch", "nosuchthings"});
    Output out(client);
    QCOMPARE(out.waitFor("\"requestId\":1"), QStringLiteral(R"({"channel":1,"requestId":1})"));
    const QJsonObject rejected = QJsonDocument::fromJson(out.waitFor("\"requestId\":2").toUtf8()).object();
    QCOMPARE(rejected.value("error").toObject().value("code").toInt(), 404);
    QCOMPARE(http(portOf(url), "POST", "/api/v1/namespaces/default/configmaps", configMap("app", "1")).status, 201);
    const QJsonObject event = QJsonDocument::fromJson(out.waitFor("\"event\"").toUtf8()).object();
    QCOMPARE(event.value("channel").toInt(), 1);
    QCOMPARE(event.value("event").toObject().value("type").toString(), QStringLiteral("ADDED"));
    QCOMPARE(event.value("event").toObject().value("object").toObject().value("data").toObject().value("a").toString(),
             QStringLiteral("1"));
    for (const QString &line : out.lines())
        QVERIFY2(QJsonDocument::fromJson(line.toUtf8()).isObject(), qPrintable(line));
    client.terminate();
    QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
    QCOMPARE(client.exitCode(), 0);
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testEndsWhenEveryChannelHasEnded()
{
    QProcess server;
    const QString url = startServer(server, {QStringLiteral("--watch-history"), QStringLiteral("2")});
    QVERIFY(!url.isEmpty());
    for (const QByteArray name : {"a", "b", "c", "d"})
        QCOMPARE(http(portOf(url), "POST", "/api/v1/namespaces/default/configmaps", configMap(name, "1")).status, 201);

    // A resourceVersion older than the history: the channel opens, then ends with 410; the
    // other request is rejected. Nothing is left to watch, so the client exits by itself.
    QProcess client;
    startClient(client, url, {"--watch", "configmaps/default?resourceVersion=1", "--watch", "nosuchthings"});
    QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
    QCOMPARE(client.exitCode(), 0);
    const QStringList lines = QString::fromUtf8(client.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.contains("channel 1 opened: configmaps/default?resourceVersion=1"), qPrintable(lines.join('\n')));
    QVERIFY(lines.contains("request 2 rejected (nosuchthings): 404 NotFound: the server could not find the requested "
                           "resource"));
    QVERIFY2(std::any_of(lines.cbegin(), lines.cend(),
                         [](const QString &line) { return line.startsWith("channel 1 closed: 410 Expired: "); }),
             qPrintable(lines.join('\n')));

    // A group the server does not serve: caught by discovery, nothing started (exit 2).
    QProcess rejected;
    startClient(rejected, url, {"--watch", "nosuchthings", "--watch", "configmaps.nosuch.group.v1"});
    QVERIFY(rvscope::testing::finishes(rejected, WAIT_MS));
    const QString err = QString::fromUtf8(rejected.readAllStandardError());
    QCOMPARE(rejected.exitCode(), 2);
    QVERIFY2(err.contains("--watch 'configmaps.nosuch.group.v1': the server has no API group 'nosuch.group.v1'"),
             qPrintable(err));
    // Every request rejected: nothing was watched (exit 1).
    QProcess allRejected;
    startClient(allRejected, url, {"--watch", "nosuchthings", "--watch", "configmaps/default?labelSelector=a%20in"});
    QVERIFY(rvscope::testing::finishes(allRejected, WAIT_MS));
    QCOMPARE(allRejected.exitCode(), 1);
    QVERIFY(allRejected.readAllStandardError().contains("every watch request was rejected"));
    const QByteArray allRejectedOut = allRejected.readAllStandardOutput();
    QVERIFY2(allRejectedOut.contains("request 2 rejected (configmaps/default?labelSelector=a%20in): 400 BadRequest"),
             allRejectedOut.constData());
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testPartialRejectionAndTokens()
{
    writeAccessFiles();
    QProcess server;
    const QString url = startServer(server, {"--token-file", m_tokens, "--policy-file", m_policy, "--no-anonymous"});
    QVERIFY(!url.isEmpty());
    QProcess alice;
    startClient(alice, url, {"--token", "alice-token", "--watch", "configmaps/default", "--watch", "secrets/default"});
    Output out(alice);
    QVERIFY(!out.waitFor("channel 1 opened: configmaps/default").isEmpty());
    QVERIFY(!out.waitFor("request 2 rejected (secrets/default): 403 Forbidden: secrets is forbidden: User \"alice\" "
                         "cannot watch resource \"secrets\" in API group \"\" in the namespace \"default\"")
                 .isEmpty());
    // The other channel goes on.
    QCOMPARE(http(portOf(url), "POST", "/api/v1/namespaces/default/configmaps", configMap("x", "1"), "admin-token").status,
             201);
    QVERIFY(!out.waitFor("channel 1 ADDED configmaps default/x rv=").isEmpty());
    alice.terminate();
    QVERIFY(rvscope::testing::finishes(alice, WAIT_MS));
    QCOMPARE(alice.exitCode(), 0);

    // A bad token (straight to the websocket, and through discovery), and none at all.
    const QList<QStringList> refused = {
        {"--token", "wrong-token", "--watch", "configmaps/default"},
        {"--token", "wrong-token", "--watch", "deployments.apps/default"},
        {"--watch", "configmaps/default"},
    };
    for (const QStringList &args : refused) {
        QProcess client;
        startClient(client, url, args);
        QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
        const QString err = QString::fromUtf8(client.readAllStandardError());
        QCOMPARE(client.exitCode(), 2);
        const QString expected = args.first() == "--token"
            ? "rvscope client bulk-watch: the server rejected the token (401 Unauthorized: Unauthorized); check --token"
            : "rvscope client bulk-watch: the server requires a token (401 Unauthorized: Unauthorized); pass --token";
        QVERIFY2(err.startsWith(expected), qPrintable(err));
    }
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testAccessLossClosesOneChannel()
{
    // The node authorizer: system:node:n1 may watch the secret and the configmap its pods use.
    // Deleting the pod that uses the secret ends that channel with a 403; the other goes on.
    writeAccessFiles();
    QProcess server;
    const QString url = startServer(server, {"--token-file", m_tokens, "--policy-file", m_policy, "--acl-recheck", "50ms"});
    QVERIFY(!url.isEmpty());
    const quint16 port = portOf(url);
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/secrets",
                  R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"},"stringData":{"p":"1"}})", "admin-token")
                 .status,
             201);
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/configmaps", configMap("c1", "1"), "admin-token").status, 201);
    const auto pod = [](const QByteArray &name, const QByteArray &volume) {
        return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
            + R"("},"spec":{"nodeName":"n1","containers":[{"name":"app","image":"nginx"}],"volumes":[{"name":"v",)"
            + volume + "}]}}";
    };
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/pods", pod("uses-secret", R"("secret":{"secretName":"s1"})"),
                  "admin-token")
                 .status,
             201);
    QCOMPARE(http(port, "POST", "/api/v1/namespaces/default/pods", pod("uses-cm", R"("configMap":{"name":"c1"})"),
                  "admin-token")
                 .status,
             201);
    QProcess node;
    startClient(node, url, {"--token", "node-token", "--watch", "secrets/default/s1", "--watch", "configmaps/default/c1"});
    Output out(node);
    QVERIFY(!out.waitFor("channel 1 ADDED secrets default/s1").isEmpty());
    QVERIFY(!out.waitFor("channel 2 ADDED configmaps default/c1").isEmpty());
    QCOMPARE(http(port, "DELETE", "/api/v1/namespaces/default/pods/uses-secret", {}, "admin-token").status, 200);
    QVERIFY(!out.waitFor("channel 1 closed: 403 Forbidden: secrets \"s1\" is forbidden: User \"system:node:n1\" cannot "
                         "watch resource \"secrets\"")
                 .isEmpty());
    QCOMPARE(http(port, "PUT", "/api/v1/namespaces/default/configmaps/c1", configMap("c1", "2"), "admin-token").status,
             200);
    QVERIFY(!out.waitFor("channel 2 MODIFIED configmaps default/c1").isEmpty());
    QCOMPARE(node.state(), QProcess::Running);
    // The last channel lost too: nothing left to watch, the client ends by itself.
    QCOMPARE(http(port, "DELETE", "/api/v1/namespaces/default/pods/uses-cm", {}, "admin-token").status, 200);
    QVERIFY(!out.waitFor("channel 2 closed: 403 Forbidden: ").isEmpty());
    QVERIFY(rvscope::testing::finishes(node, WAIT_MS));
    QCOMPARE(node.exitCode(), 0);
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testTls()
{
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    // dev.sh installs it with the test packages; without it this test cannot run.
    QVERIFY2(!openssl.isEmpty(), "openssl is not installed (./dev.sh test installs it)");
    QVERIFY(m_dir.isValid());
    const QString cert = m_dir.filePath(QStringLiteral("cert.pem"));
    const QString key = m_dir.filePath(QStringLiteral("key.pem"));
    QProcess make;
    make.start(openssl, {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"});
    QVERIFY(rvscope::testing::finishes(make, 30000));
    QCOMPARE(make.exitCode(), 0);
    QProcess server;
    const QString url = startServer(server, {"--tls-cert", cert, "--tls-key", key});
    QVERIFY2(url.startsWith("https://"), qPrintable(url));

    // The server's own (self-signed) certificate as the authority, or no verification.
    const QList<QStringList> trusted = {{"--certificate-authority", cert, "--watch", "configmaps/default"},
                                        {"--certificate-authority", cert, "--watch", "leases.coordination.k8s.io"},
                                        {"--insecure-skip-tls-verify", "--watch", "configmaps/default"}};
    for (const QStringList &args : trusted) {
        QProcess client;
        startClient(client, url, args);
        Output out(client);
        QVERIFY(!out.waitFor("channel 1 opened: " + args.last()).isEmpty());
        client.terminate();
        QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
        QCOMPARE(client.exitCode(), 0);
    }
    // Neither: the system's authorities do not know this certificate.
    for (const QString &spec : {QStringLiteral("configmaps/default"), QStringLiteral("leases.coordination.k8s.io")}) {
        QProcess client;
        startClient(client, url, {"--watch", spec});
        QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
        const QString err = QString::fromUtf8(client.readAllStandardError());
        QVERIFY2(client.exitCode() == 2, qPrintable(QStringLiteral("exit code %1: %2").arg(client.exitCode()).arg(err)));
        QVERIFY2(err.startsWith("rvscope client bulk-watch: TLS handshake with " + url + " failed: "), qPrintable(err));
        QVERIFY2(err.contains("--certificate-authority FILE or --insecure-skip-tls-verify"), qPrintable(err));
    }
    server.terminate();
    QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
}

void TestBulkWatchCommand::testServerGoingAway()
{
    // A server that stops cleanly closes the websocket (exit 0); one that dies loses it (1).
    for (const bool clean : {true, false}) {
        QProcess server;
        const QString url = startServer(server);
        QVERIFY(!url.isEmpty());
        QProcess client;
        startClient(client, url, {"--watch", "configmaps"});
        Output out(client);
        QVERIFY(!out.waitFor("channel 1 opened: configmaps").isEmpty());
        if (clean)
            server.terminate();
        else
            server.kill();
        QVERIFY(rvscope::testing::finishes(server, WAIT_MS));
        QVERIFY(rvscope::testing::finishes(client, WAIT_MS));
        const QString err = QString::fromUtf8(client.readAllStandardError());
        QCOMPARE(client.exitStatus(), QProcess::NormalExit);
        if (clean) {
            QCOMPARE(err, QStringLiteral("rvscope client bulk-watch: the server closed the connection\n"));
            QCOMPARE(client.exitCode(), 0);
        } else {
            QVERIFY2(err.startsWith("rvscope client bulk-watch: lost the connection to " + url + ": "), qPrintable(err));
            QCOMPARE(client.exitCode(), 1);
        }
    }
}

QTEST_GUILESS_MAIN(TestBulkWatchCommand)
#include "TestBulkWatchCommand.moc"
