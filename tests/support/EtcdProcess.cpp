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

bool EtcdProcess::start()
{
    const QString program = binary();
    if (program.isEmpty()) {
        m_error = QStringLiteral("no etcd binary (install etcd-server)");
        return false;
    }
    m_directory = std::make_unique<QTemporaryDir>();
    m_clientPort = freeLoopbackPort();
    m_peerPort = freeLoopbackPort();
    const QString client = QStringLiteral("http://127.0.0.1:%1").arg(m_clientPort);
    const QString peer = QStringLiteral("http://127.0.0.1:%1").arg(m_peerPort);
    const QStringList arguments{QStringLiteral("--name"), QStringLiteral("t1"),
                                QStringLiteral("--data-dir"), m_directory->filePath(QStringLiteral("etcd")),
                                QStringLiteral("--listen-client-urls"), client,
                                QStringLiteral("--advertise-client-urls"), client,
                                QStringLiteral("--listen-peer-urls"), peer,
                                QStringLiteral("--initial-advertise-peer-urls"), peer,
                                QStringLiteral("--initial-cluster"), QStringLiteral("t1=") + peer,
                                QStringLiteral("--log-level"), QStringLiteral("error"),
                                QStringLiteral("--unsafe-no-fsync")};
    m_process = std::make_unique<QProcess>();
    // Into a file, not a pipe nobody drains.
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_directory->filePath(QStringLiteral("etcd.log")));
    m_process->start(program, arguments);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start ") + program;
        return false;
    }
    QElapsedTimer elapsed;
    elapsed.start();
    while (elapsed.elapsed() < 20000) {
        if (m_process->state() == QProcess::NotRunning) {
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
    m_error = QStringLiteral("etcd did not answer /health on %1").arg(client);
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
