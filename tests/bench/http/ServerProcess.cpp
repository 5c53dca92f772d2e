// SPDX-License-Identifier: MIT
#include "ServerProcess.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>

#include <chrono>

#include <signal.h>
#include <sys/prctl.h>

#include "HttpConnection.h"

namespace rvscope::bench::http {

namespace {
// A child that dies with the benchmark: killed by a signal (say SIGPIPE from `| head`), the
// benchmark runs no destructor, and a server left behind would load the next measurements.
std::unique_ptr<QProcess> childProcess()
{
    auto process = std::make_unique<QProcess>();
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    return process;
}
} // namespace

int freeLoopbackPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

ServerProcess::~ServerProcess()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

bool ServerProcess::waitUntilAnswering(const std::string &request, int timeoutMs)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (Clock::now() < deadline) {
        if (m_process->state() == QProcess::NotRunning) {
            QFile log(m_directory ? m_directory->filePath(QStringLiteral("etcd.log")) : QString());
            const QByteArray output = log.open(QIODevice::ReadOnly) ? log.readAll() : m_process->readAll();
            m_error = QStringLiteral("exited early: ") + QString::fromLocal8Bit(output.right(400));
            return false;
        }
        HttpConnection connection;
        HttpResponse response;
        if (connection.open(m_port) && connection.roundTrip(request, response, 1000) && response.status == 200)
            return true;
        QThread::msleep(2);
    }
    m_error = QStringLiteral("did not answer on 127.0.0.1:%1").arg(m_port);
    return false;
}

bool ServerProcess::startRvscope(const QString &binary, bool durable, const QStringList &extra)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    m_process = childProcess();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    QStringList arguments{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
    if (durable) {
        m_directory = std::make_unique<QTemporaryDir>();
        arguments << QStringLiteral("--data-dir") << m_directory->filePath(QStringLiteral("data"));
    }
    arguments << extra;
    m_process->start(binary, arguments);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start ") + binary;
        return false;
    }
    static const QRegularExpression listening(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
    QString output;
    while (m_process->waitForReadyRead(10000)) {
        output += QString::fromLocal8Bit(m_process->readAll());
        const QRegularExpressionMatch match = listening.match(output);
        if (match.hasMatch()) {
            m_readyMs = double(sinceStart.nsecsElapsed()) / 1e6;
            m_port = match.captured(1).toInt();
            return true;
        }
    }
    m_error = QStringLiteral("no 'listening on' line: ") + output.right(400);
    return false;
}

bool ServerProcess::startEtcd(const QString &binary, bool fsync)
{
    m_directory = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();
    const int peerPort = freeLoopbackPort();
    const QString client = QStringLiteral("http://127.0.0.1:%1").arg(m_port);
    const QString peer = QStringLiteral("http://127.0.0.1:%1").arg(peerPort);
    QStringList arguments{QStringLiteral("--name"), QStringLiteral("default"),
                          QStringLiteral("--data-dir"), m_directory->filePath(QStringLiteral("etcd")),
                          QStringLiteral("--listen-client-urls"), client,
                          QStringLiteral("--advertise-client-urls"), client,
                          QStringLiteral("--listen-peer-urls"), peer,
                          QStringLiteral("--initial-advertise-peer-urls"), peer,
                          QStringLiteral("--initial-cluster"), QStringLiteral("default=") + peer,
                          QStringLiteral("--log-level"), QStringLiteral("error")};
    if (!fsync)
        arguments << QStringLiteral("--unsafe-no-fsync");
    QElapsedTimer sinceStart;
    sinceStart.start();
    m_process = childProcess();
    // Into a file, not a pipe nobody drains: a full pipe would stall etcd mid-measurement.
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_directory->filePath(QStringLiteral("etcd.log")));
    m_process->start(binary, arguments);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start ") + binary;
        return false;
    }
    if (!waitUntilAnswering(makeRequest("GET", "/health"), 15000))
        return false;
    m_readyMs = double(sinceStart.nsecsElapsed()) / 1e6;
    return true;
}

bool ServerProcess::startNginx(const QString &binary, const std::string &body)
{
    m_directory = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();
    const QDir root(m_directory->path());
    root.mkpath(QStringLiteral("www"));
    QFile file(root.filePath(QStringLiteral("www/static.json")));
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write static.json");
        return false;
    }
    file.write(body.data(), static_cast<qint64>(body.size()));
    file.close();
    // One worker: the machine's other cores belong to the load generator and to fairness
    // with rvscope. Unbounded keep-alive so connections are never recycled mid-run.
    const QString config = QStringLiteral(
        "worker_processes 1;\n"
        "daemon off;\n"
        "user root;\n"
        "pid %1/nginx.pid;\n"
        "error_log %1/error.log error;\n"
        "events { worker_connections 1024; }\n"
        "http {\n"
        "  access_log off;\n"
        "  client_body_temp_path %1/body;\n"
        "  keepalive_requests 1000000000;\n"
        "  keepalive_timeout 600s;\n"
        "  default_type application/json;\n"
        "  server { listen 127.0.0.1:%2; root %1/www; }\n"
        "}\n").arg(root.path()).arg(m_port);
    QFile configFile(root.filePath(QStringLiteral("nginx.conf")));
    if (!configFile.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write nginx.conf");
        return false;
    }
    configFile.write(config.toUtf8());
    configFile.close();
    m_process = childProcess();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->start(binary, {QStringLiteral("-p"), root.path(), QStringLiteral("-c"), configFile.fileName(),
                              QStringLiteral("-e"), root.filePath(QStringLiteral("error.log"))});
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start ") + binary;
        return false;
    }
    return waitUntilAnswering(makeRequest("GET", "/static.json"), 5000);
}

} // namespace rvscope::bench::http
