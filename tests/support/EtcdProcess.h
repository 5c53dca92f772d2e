// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryDir>

namespace rvscope::testing {

// A real single-member etcd for the tests, on free loopback ports, in a temporary data
// directory (`--unsafe-no-fsync`: the tests check semantics, not durability). start() waits
// until it answers /health; the destructor stops it and removes its data.
class EtcdProcess final {
public:
    EtcdProcess() = default;
    ~EtcdProcess();
    EtcdProcess(const EtcdProcess &) = delete;
    EtcdProcess &operator=(const EtcdProcess &) = delete;

    // The etcd binary (RVSCOPE_ETCD_BINARY, else `etcd` on PATH); empty when there is none.
    static QString binary();
    // A single-member cluster, waited for (on fresh ports again when etcd found one taken).
    bool start();
    // Member `name` of a cluster (`initialCluster`: "n1=http://127.0.0.1:P1,..."), not
    // waited for (a member answers /health only once a quorum is up): see waitUntilHealthy().
    bool startMember(const QString &name, quint16 clientPort, quint16 peerPort, const QString &initialCluster);
    // Starts a stopped member again on its data directory.
    bool restart();
    bool waitUntilHealthy(int timeoutMs = 20000);
    // `count` distinct loopback ports free at the time of the call.
    static std::vector<quint16> freePorts(int count);
    void stop();
    bool running() const;
    // "http://127.0.0.1:<client port>"
    std::string endpoint() const;
    quint16 clientPort() const { return m_clientPort; }
    // Why start() failed (with the end of etcd's log).
    const QString &error() const { return m_error; }

private:
    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<QProcess> m_process;
    quint16 m_clientPort = 0;
    quint16 m_peerPort = 0;
    QStringList m_arguments;
    QString m_error;
};

} // namespace rvscope::testing

namespace rvscope::testing {

// A 3-member (or N-member) etcd cluster on loopback, each member with its own ports and data.
class EtcdCluster final {
public:
    bool start(int members = 3);
    EtcdProcess &member(int i) { return *m_members[std::size_t(i)]; }
    std::vector<std::string> endpoints() const;
    const QString &error() const { return m_error; }

private:
    bool startOnce(int members);

    std::vector<std::unique_ptr<EtcdProcess>> m_members;
    QString m_error;
};

} // namespace rvscope::testing
