// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <QtCore/QString>
#include <qcoro/qcorotask.h>

#include "engine/EngineOptions.h"

namespace rvscope::storage {
class Storage;
}
namespace rvscope::registry {
class Registry;
}
namespace rvscope::api {
class ApiHandler;
}
namespace rvscope::history {
class Journal;
}

namespace rvscope::engine {

// What every request of the core goes through: the storages, the registry over them, the
// API handler and the operation journal it reports to. CoreWorker holds the current one;
// a scenario replaces it with a fresh one (revisions from 1, an empty journal), and the
// controllers read it through a reference, so they always see the current one. Core
// thread only.
struct Core final {
    std::shared_ptr<storage::Storage> storage; // the main revision series
    // EngineOptions::separateStorage: group resource -> its storage (its own series).
    std::map<std::string, std::shared_ptr<storage::Storage>> separateStorage;
    std::shared_ptr<registry::Registry> registry;
    std::shared_ptr<api::ApiHandler> handler;
    std::shared_ptr<history::Journal> journal;
    // A --separate-storage type that is not served, a data directory that could not be
    // opened, or an etcd that does not answer: the server refuses to start with it.
    QString storageError;
    // A --fault rule that names nothing served ("the server serves no resource ..."): the
    // server refuses to start with it too, rather than run without the rule.
    QString faultError;

    // The main storage first, then every separate one.
    std::vector<std::shared_ptr<storage::Storage>> allStorages() const;

    // A bootstrapped core (the namespaces a fresh apiserver has) whose handler reports to
    // its journal. `durable`: the storages come from EngineOptions::dataDir when it is set.
    // It may wait on storage; it spins no nested event loop.
    static QCoro::Task<Core> build(EngineOptions options, bool durable);
};

} // namespace rvscope::engine
