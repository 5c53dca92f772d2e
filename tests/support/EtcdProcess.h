// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include <QtCore/QProcess>
#include <QtCore/QString>
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
    bool start();
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
    QString m_error;
};

} // namespace rvscope::testing
