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
quint16 freeLoopbackPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
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

quint16 EtcdProcess::freePort()
{
    return freeLoopbackPort();
}

bool EtcdProcess::start()
{
    const quint16 client = freeLoopbackPort();
    const quint16 peer = freeLoopbackPort();
    return startMember(QStringLiteral("t1"), client, peer, QStringLiteral("t1=http://127.0.0.1:%1").arg(peer))
        && waitUntilHealthy();
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
    std::vector<std::pair<quint16, quint16>> ports;
    QStringList initial;
    for (int i = 0; i < members; ++i) {
        ports.emplace_back(EtcdProcess::freePort(), EtcdProcess::freePort());
        initial << QStringLiteral("m%1=http://127.0.0.1:%2").arg(i).arg(ports.back().second);
    }
    for (int i = 0; i < members; ++i) {
        m_members.push_back(std::make_unique<EtcdProcess>());
        if (!m_members.back()->startMember(QStringLiteral("m%1").arg(i), ports[std::size_t(i)].first,
                                           ports[std::size_t(i)].second, initial.join(QLatin1Char(',')))) {
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
