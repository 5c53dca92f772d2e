// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <qcoro/qcorotask.h>

#include "storage/StorageTypes.h"
#include "storage/WatchHandle.h"

namespace rvscope::storage {
class Storage;
}

namespace rvscope::engine {

struct Core;

// Writes that other rvscope instances make on a shared etcd, into this core's journal, so
// that the window shows them on the object lanes (UI.md "Writes from another instance").
// One storage watch over every key of each shared storage; an event whose revision this
// process did not commit (Storage::committedHere) is journaled as a remote write. The
// question is asked a moment after the event arrived (GRACE_MS): etcd may deliver a local
// commit's event before this process has read its own Txn reply. Core thread only.
class RemoteWriteFeed final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteWriteFeed)

public:
    RemoteWriteFeed(const Core &core, QObject *parent);
    ~RemoteWriteFeed() override;

    // Follows the current core's shared storages from their current revision (again after
    // a rebuild: the previous core's watches end). Nothing happens when none is shared.
    void follow();
    // Writes journaled as remote so far (for the status bar and tests).
    std::uint64_t remoteWrites() const { return m_remoteWrites; }

    static constexpr int GRACE_MS = 300;
    static constexpr int RETRY_MS = 200; // a storage watch that could not open yet

private:
    struct Arrived {
        std::shared_ptr<storage::Storage> storage;
        storage::WatchEvent event;
        std::int64_t arrivalNs = 0;
    };
    QCoro::Task<> watchStorage(std::shared_ptr<storage::Storage> storage, std::uint64_t generation);
    void resolve();
    // "configmaps/default/foo" for "/registry/configmaps/default/foo" (the journal's keys).
    std::string journalKey(const std::string &storageKey) const;

    const Core &m_core;
    std::uint64_t m_generation = 0;
    std::vector<storage::WatchHandle> m_watches;
    std::deque<Arrived> m_arrived;
    QTimer m_timer;
    std::uint64_t m_remoteWrites = 0;
};

} // namespace rvscope::engine
