// SPDX-License-Identifier: MIT
#include "EtcdProcess.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QStandardPaths>
#include <QtCore/QThread>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>

#include "RawHttp.h"

namespace rvscope::testing {
namespace {
// Starts tried again on fresh ports when one was taken between being found free and etcd
// binding it (another test's listener or outgoing connection).
constexpr int START_ATTEMPTS = 3;

bool portTaken(const QString &error)
{
    return error.contains(QLatin1String("address already in use"));
}
} // namespace

EtcdProcess::~EtcdProcess()
{
    stop();
}

QString EtcdProcess::binary()
{
    const QString configured = qEnvironmentVariable("RVSCOPE_ETCD_BINARY");
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::findExecutable(QStringLiteral("etcd"));
}

std::vector<quint16> EtcdProcess::freePorts(int count)
{
    // All held open at once, so that they differ (a port closed may be handed out again).
    std::vector<std::unique_ptr<QTcpServer>> servers;
    std::vector<quint16> ports;
    for (int i = 0; i < count; ++i) {
        servers.push_back(std::make_unique<QTcpServer>());
        ports.push_back(servers.back()->listen(QHostAddress::LocalHost, 0) ? servers.back()->serverPort() : 0);
    }
    return ports;
}

bool EtcdProcess::start()
{
    for (int attempt = 1;; ++attempt) {
        const std::vector<quint16> ports = freePorts(2);
        if (startMember(QStringLiteral("t1"), ports[0], ports[1], QStringLiteral("t1=http://127.0.0.1:%1").arg(ports[1]))
            && waitUntilHealthy())
            return true;
        stop();
        if (attempt == START_ATTEMPTS || !portTaken(m_error))
            return false;
    }
}

bool EtcdProcess::startMember(const QString &name, quint16 clientPort, quint16 peerPort, const QString &initialCluster)
{
    const QString program = binary();
    if (program.isEmpty()) {
        m_error = QStringLiteral("no etcd binary (install etcd-server)");
        return false;
    }
    m_directory = std::make_unique<QTemporaryDir>();
    m_clientPort = clientPort;
    m_peerPort = peerPort;
    const QString client = QStringLiteral("http://127.0.0.1:%1").arg(m_clientPort);
    const QString peer = QStringLiteral("http://127.0.0.1:%1").arg(m_peerPort);
    m_arguments = QStringList{QStringLiteral("--name"), name,
                              QStringLiteral("--data-dir"), m_directory->filePath(QStringLiteral("etcd")),
                              QStringLiteral("--listen-client-urls"), client,
                              QStringLiteral("--advertise-client-urls"), client,
                              QStringLiteral("--listen-peer-urls"), peer,
                              QStringLiteral("--initial-advertise-peer-urls"), peer,
                              QStringLiteral("--initial-cluster"), initialCluster,
                              QStringLiteral("--log-level"), QStringLiteral("error"),
                              // Progress notifications often enough for a test to see one.
                              QStringLiteral("--experimental-watch-progress-notify-interval"),
                              QStringLiteral("200ms"),
                              QStringLiteral("--unsafe-no-fsync")};
    return restart();
}

bool EtcdProcess::restart()
{
    m_process = std::make_unique<QProcess>();
    // Into a file, not a pipe nobody drains.
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_directory->filePath(QStringLiteral("etcd.log")), QIODevice::Append);
    m_process->start(binary(), m_arguments);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start ") + binary();
        return false;
    }
    return true;
}

bool EtcdProcess::waitUntilHealthy(int timeoutMs)
{
    QElapsedTimer elapsed;
    elapsed.start();
    while (elapsed.elapsed() < timeoutMs) {
        if (!m_process || m_process->state() == QProcess::NotRunning) {
            QFile log(m_directory->filePath(QStringLiteral("etcd.log")));
            m_error = QStringLiteral("etcd exited: ")
                + QString::fromLocal8Bit((log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray()).right(600));
            return false;
        }
        const HttpReply reply = exchange(m_clientPort, "GET", "/health");
        if (reply.status == 200 && reply.body.contains("true"))
            return true;
        QThread::msleep(20); // etcd is another process: nothing to wait on but its answer
    }
    m_error = QStringLiteral("etcd did not answer /health on 127.0.0.1:%1").arg(m_clientPort);
    return false;
}

void EtcdProcess::stop()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

bool EtcdProcess::running() const
{
    return m_process && m_process->state() == QProcess::Running;
}

std::string EtcdProcess::endpoint() const
{
    return "http://127.0.0.1:" + std::to_string(m_clientPort);
}

} // namespace rvscope::testing

namespace rvscope::testing {

bool EtcdCluster::start(int members)
{
    for (int attempt = 1;; ++attempt) {
        if (startOnce(members))
            return true;
        m_members.clear(); // stops them
        if (attempt == START_ATTEMPTS || !portTaken(m_error))
            return false;
    }
}

bool EtcdCluster::startOnce(int members)
{
    // Member i listens for clients on ports[2i] and for peers on ports[2i + 1].
    const std::vector<quint16> ports = EtcdProcess::freePorts(2 * members);
    QStringList initial;
    for (int i = 0; i < members; ++i)
        initial << QStringLiteral("m%1=http://127.0.0.1:%2").arg(i).arg(ports[std::size_t(2 * i + 1)]);
    for (int i = 0; i < members; ++i) {
        m_members.push_back(std::make_unique<EtcdProcess>());
        if (!m_members.back()->startMember(QStringLiteral("m%1").arg(i), ports[std::size_t(2 * i)],
                                           ports[std::size_t(2 * i + 1)], initial.join(QLatin1Char(',')))) {
            m_error = m_members.back()->error();
            return false;
        }
    }
    for (auto &member : m_members) {
        if (!member->waitUntilHealthy()) {
            m_error = member->error();
            return false;
        }
    }
    return true;
}

std::vector<std::string> EtcdCluster::endpoints() const
{
    std::vector<std::string> result;
    for (const auto &member : m_members)
        result.push_back(member->endpoint());
    return result;
}

} // namespace rvscope::testing
