// SPDX-License-Identifier: MIT
// The Server panel against a real Engine and real sockets: start on port 0 from the panel,
// a kubeconfig with the URL it got, real HTTP requests in the request log, open watches
// counted; the request log model under QAbstractItemModelTester.
#include <QtCore/QDir>
#include <QtGui/QClipboard>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>

#include "engine/Engine.h"
#include "serverpanel/RequestLogModel.h"
#include "serverpanel/ServerConnectionText.h"
#include "serverpanel/ServerPanel.h"

using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::engine::OperationSummary;
using rvscope::engine::ServerState;
using rvscope::ui::RequestLogModel;
using rvscope::ui::ServerPanel;
namespace ServerConnectionText = rvscope::ui::ServerConnectionText;

class TestServerPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testConnectionTexts();
    void testRequestLogIsCappedOldestDropped();
    void testStartOnPortZeroServeAndStop();
    void testOpenWatchesAreCounted();
    void testBadAddressIsReported();
    void testHistoryResetKeepsTheServer();
};

namespace {
constexpr auto FAIL_IN_QTEST = QAbstractItemModelTester::FailureReportingMode::QtTest;

template<typename T>
T *child(QWidget &parent, const char *name)
{
    auto *widget = parent.findChild<T *>(QLatin1String(name));
    if (!widget)
        qWarning("no child %s", name);
    return widget;
}

QString artifactPath(const QString &name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

OperationSummary operation(quint64 id)
{
    OperationSummary op;
    op.id = id;
    op.clientId = "c1";
    op.verb = "update";
    op.key = "configmaps/default/foo";
    op.startNs = qint64(id) * 1'000'000;
    op.endNs = op.startNs + 2'500'000;
    op.statusCode = id % 2 ? 200 : 409;
    op.reason = id % 2 ? QString() : QStringLiteral("Conflict");
    return op;
}

// Starts the server from the panel on a free port and returns its URL.
QString startFromPanel(ServerPanel &panel)
{
    child<QSpinBox>(panel, "serverPortSpin")->setValue(0);
    QTest::mouseClick(child<QPushButton>(panel, "serverToggleButton"), Qt::LeftButton);
    auto *kubectl = child<QLineEdit>(panel, "kubectlCommandEdit");
    if (!QTest::qWaitFor([&] { return kubectl->text().contains("http://127.0.0.1:"); }, 5000))
        return {};
    return QRegularExpression("http://127\\.0\\.0\\.1:\\d+").match(kubectl->text()).captured();
}

void showPanel(QWidget &panel)
{
    panel.resize(1100, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
}
} // namespace

void TestServerPanel::testConnectionTexts()
{
    ServerState state;
    QCOMPARE(ServerConnectionText::clientUrl(state), QString());
    state.running = true;
    state.address = QHostAddress(QHostAddress::AnyIPv4);
    state.port = 8001;
    QCOMPARE(ServerConnectionText::clientUrl(state), QStringLiteral("http://127.0.0.1:8001"));
    state.address = QHostAddress(QHostAddress::LocalHostIPv6);
    QCOMPARE(ServerConnectionText::clientUrl(state), QStringLiteral("http://[::1]:8001"));
    const QString kubeconfig = ServerConnectionText::kubeconfig("http://127.0.0.1:8001");
    QVERIFY(kubeconfig.contains("    server: http://127.0.0.1:8001\n"));
    QVERIFY(kubeconfig.contains("insecure-skip-tls-verify: true"));
    QVERIFY(kubeconfig.contains("current-context: rvscope"));
    QVERIFY(kubeconfig.contains("    user: rvscope\n"));
    QCOMPARE(ServerConnectionText::kubectlCommand("http://127.0.0.1:8001"),
             QStringLiteral("kubectl --server http://127.0.0.1:8001 get configmaps -w"));
}

void TestServerPanel::testRequestLogIsCappedOldestDropped()
{
    RequestLogModel model(nullptr, 5);
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    model.append({operation(1), operation(2), operation(3)});
    model.append({operation(4), operation(5), operation(6), operation(7)});
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.totalOperations(), quint64(7));
    QCOMPARE(model.operation(0).id, quint64(3));
    QCOMPARE(model.rowOf(6), 3);
    QCOMPARE(model.rowOf(2), -1);
    QCOMPARE(model.index(0, RequestLogModel::TimeColumn).data().toString(), QStringLiteral("0.002000"));
    QCOMPARE(model.index(0, RequestLogModel::LatencyColumn).data().toString(), QStringLiteral("2.500"));
    QCOMPARE(model.index(1, RequestLogModel::StatusColumn).data().toInt(), 409);
    QCOMPARE(model.index(1, RequestLogModel::ReasonColumn).data().toString(), QStringLiteral("Conflict"));
    QVERIFY(model.index(1, RequestLogModel::KeyColumn).data(Qt::ForegroundRole).value<QColor>().isValid());
    QVERIFY(!model.index(0, RequestLogModel::KeyColumn).data(Qt::ForegroundRole).isValid());
    OperationSummary watch = operation(8);
    watch.verb = "watch";
    watch.endNs = -1;
    model.append({watch});
    QCOMPARE(model.index(4, RequestLogModel::LatencyColumn).data().toString(), QStringLiteral("open"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestServerPanel::testStartOnPortZeroServeAndStop()
{
    Engine engine;
    ServerPanel panel(engine);
    showPanel(panel);
    QAbstractItemModelTester tester(panel.requestLog(), FAIL_IN_QTEST);
    auto *kubeconfig = child<QPlainTextEdit>(panel, "kubeconfigText");
    auto *state = child<QLabel>(panel, "serverStateLabel");
    auto *toggle = child<QPushButton>(panel, "serverToggleButton");
    QVERIFY(kubeconfig && state && toggle);
    QCOMPARE(kubeconfig->toPlainText(), QString());
    QVERIFY(!child<QPushButton>(panel, "copyKubeconfigButton")->isEnabled());

    const QString url = startFromPanel(panel);
    QVERIFY(!url.isEmpty());
    QVERIFY(!url.endsWith(":0"));
    QTRY_VERIFY(kubeconfig->toPlainText().contains("server: " + url + "\n"));
    QVERIFY(state->text().contains(url));
    QVERIFY(toggle->isChecked());
    QCOMPARE(toggle->text(), QStringLiteral("Stop server"));
    QVERIFY(!child<QSpinBox>(panel, "serverPortSpin")->isEnabled());
    QCOMPARE(child<QSpinBox>(panel, "serverPortSpin")->value(), int(engine.serverState().port));

    QTest::mouseClick(child<QPushButton>(panel, "copyKubeconfigButton"), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), panel.kubeconfig());
    QTest::mouseClick(child<QPushButton>(panel, "copyKubectlButton"), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("kubectl --server %1 get configmaps -w").arg(url));

    // A real HTTP request to the URL the panel shows lands in the request log.
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy::NoProxy); // straight to 127.0.0.1 whatever the environment says
    QNetworkRequest request(QUrl(url + "/api/v1/namespaces/default/configmaps"));
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    QNetworkReply *reply = network.post(request, R"({"apiVersion":"v1","kind":"ConfigMap",)"
                                                 R"("metadata":{"name":"from-the-panel"},"data":{"a":"1"}})");
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(done.wait(5000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 201);
    reply->deleteLater();
    RequestLogModel *log = panel.requestLog();
    auto logged = [log] {
        for (int row = 0; row < log->rowCount(); ++row) {
            const OperationSummary &op = log->operation(row);
            if (op.verb == "create" && op.key == "configmaps/default/from-the-panel")
                return row;
        }
        return -1;
    };
    QTRY_VERIFY(logged() >= 0);
    const int row = logged();
    QCOMPARE(log->index(row, RequestLogModel::StatusColumn).data().toInt(), 201);
    QCOMPARE(log->index(row, RequestLogModel::VerbColumn).data().toString(), QStringLiteral("create"));
    QVERIFY(log->index(row, RequestLogModel::LatencyColumn).data().toString().toDouble() > 0);

    // A conflicting write is logged with its status and reason.
    QNetworkRequest put(QUrl(url + "/api/v1/namespaces/default/configmaps/from-the-panel"));
    put.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    QNetworkReply *conflict = network.put(put, R"({"apiVersion":"v1","kind":"ConfigMap",)"
                                               R"("metadata":{"name":"from-the-panel","resourceVersion":"1"}})");
    QSignalSpy conflictDone(conflict, &QNetworkReply::finished);
    QVERIFY(conflictDone.wait(5000));
    conflict->deleteLater();
    QTRY_COMPARE(log->index(log->rowCount() - 1, RequestLogModel::StatusColumn).data().toInt(), 409);
    QCOMPARE(log->index(log->rowCount() - 1, RequestLogModel::ReasonColumn).data().toString(), QStringLiteral("Conflict"));
    QVERIFY(child<QLabel>(panel, "requestLogSummary")->text().contains("operations"));

    QVERIFY(panel.grab().toImage().save(artifactPath("server-panel.png")));

    QTest::mouseClick(toggle, Qt::LeftButton);
    QTRY_COMPARE(state->text(), QStringLiteral("Server off"));
    QVERIFY(!toggle->isChecked());
    QCOMPARE(kubeconfig->toPlainText(), QString());
    QVERIFY(child<QSpinBox>(panel, "serverPortSpin")->isEnabled());
    QVERIFY(panel.grab().toImage().save(artifactPath("server-panel-off.png")));
}

void TestServerPanel::testOpenWatchesAreCounted()
{
    Engine engine;
    ServerPanel panel(engine);
    showPanel(panel);
    const QString url = startFromPanel(panel);
    QVERIFY(!url.isEmpty());
    auto *watches = child<QLabel>(panel, "openWatchesLabel");
    QTRY_VERIFY(watches->text().startsWith("Open watches: 0"));
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy::NoProxy); // straight to 127.0.0.1 whatever the environment says
    QNetworkReply *watch = network.get(QNetworkRequest(QUrl(url + "/api/v1/namespaces/default/configmaps?watch=1")));
    QTRY_VERIFY(watches->text().startsWith("Open watches: 1"));
    // The fan-out hub feeds it (and any later configmaps watch) from one storage watch.
    QVERIFY2(watches->text().contains("fed by 1 storage watch)"), qPrintable(watches->text()));
    QNetworkReply *second = network.get(QNetworkRequest(QUrl(url + "/api/v1/configmaps?watch=1&labelSelector=a%3Db")));
    QTRY_VERIFY(watches->text().startsWith("Open watches: 2"));
    QVERIFY2(watches->text().contains("fed by 1 storage watch)"), qPrintable(watches->text()));
    second->abort();
    second->deleteLater();
    watch->abort();
    watch->deleteLater();
    QTRY_VERIFY(watches->text().startsWith("Open watches: 0"));
}

void TestServerPanel::testBadAddressIsReported()
{
    Engine engine;
    ServerPanel panel(engine);
    showPanel(panel);
    child<QLineEdit>(panel, "serverAddressEdit")->setText("localhost:80");
    auto *toggle = child<QPushButton>(panel, "serverToggleButton");
    QTest::mouseClick(toggle, Qt::LeftButton);
    QVERIFY(child<QLabel>(panel, "serverStateLabel")->text().contains("not an IP address"));
    QVERIFY(!toggle->isChecked());
    QVERIFY(!engine.serverState().running);
}

void TestServerPanel::testHistoryResetKeepsTheServer()
{
    Engine engine;
    ServerPanel panel(engine);
    QAbstractItemModelTester tester(panel.requestLog(), FAIL_IN_QTEST);
    const QString url = startFromPanel(panel);
    QVERIFY(!url.isEmpty());
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy::NoProxy); // straight to 127.0.0.1 whatever the environment says
    QNetworkReply *reply = network.get(QNetworkRequest(QUrl(url + "/api/v1/namespaces/default/configmaps")));
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(done.wait(5000));
    reply->deleteLater();
    QTRY_VERIFY(panel.requestLog()->rowCount() > 0);
    engine.clearHistory();
    QTRY_COMPARE(panel.requestLog()->rowCount(), 0);
    QVERIFY(panel.kubeconfig().contains(url));
    QVERIFY(child<QLabel>(panel, "serverStateLabel")->text().contains(url));
}

QTEST_MAIN(TestServerPanel)
#include "TestServerPanel.moc"
