// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QTemporaryDir>

#include <memory>

// The servers under test, each a child process listening on 127.0.0.1 only, so that they
// get their own CPU time apart from the load generator. The destructor terminates the child
// and waits for it.
namespace rvscope::bench::http {

class ServerProcess final {
public:
    ServerProcess() = default;
    ~ServerProcess();
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    // `rvscope serve --listen 127.0.0.1:0`; the port is read from its "listening on" line.
    // `durable`: with --data-dir in a fresh temporary directory (every write fdatasync'd
    // before it is acknowledged, like etcd with fsync).
    // `extra`: more serve options (such as --storage etcd ...).
    bool startRvscope(const QString &binary, bool durable = false, const QStringList &extra = {});
    // etcd with a fresh data dir in a temporary directory, client and peer URLs on free
    // 127.0.0.1 ports; `fsync` false adds --unsafe-no-fsync.
    bool startEtcd(const QString &binary, bool fsync);
    // nginx (one worker) serving `body` as /static.json from a temporary directory.
    bool startNginx(const QString &binary, const std::string &body);

    int port() const { return m_port; }
    // Milliseconds from asking for the process to its readiness: rvscope's ready line, or
    // etcd's first 200 from /health (polled every 2 ms); nginx: 0.
    double readyMs() const { return m_readyMs; }
    const QString &error() const { return m_error; }

private:
    bool waitUntilAnswering(const std::string &request, int timeoutMs);

    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QTemporaryDir> m_directory;
    int m_port = 0;
    double m_readyMs = 0;
    QString m_error;
};

// A port that was free on 127.0.0.1 a moment ago.
int freeLoopbackPort();

} // namespace rvscope::bench::http
