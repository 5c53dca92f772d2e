// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>

#include <QtCore/QObject>
#include <qcoro/qcorotask.h>

#include "engine/EngineTypes.h"

namespace rvscope::api {
class Watcher;
}

namespace rvscope::engine {

struct Core;
class AccessController;

// Watches the GUI opens on the current core (the Streams panel), through the API handler
// like any client's and as the GUI's identity, so their events are journaled and batched
// like everyone's. Core thread only.
class GuiWatchController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuiWatchController)

public:
    GuiWatchController(const Core &core, const AccessController &access, QObject *parent);
    ~GuiWatchController() override;

    // watchOpened, with the journal's id of the watch request or the error.
    void openWatch(const QString &collection, const QString &fromResourceVersion);
    void closeWatch(quint64 id);
    // The watches ended with the core they were on.
    void handleCoreRebuilt();

Q_SIGNALS:
    void watchOpened(const rvscope::engine::WatchChannel &channel);

private:
    QCoro::Task<> startWatch(QString collection, QString fromResourceVersion);

    const Core &m_core;
    const AccessController &m_access;
    std::map<quint64, std::shared_ptr<api::Watcher>> m_watches;
};

} // namespace rvscope::engine
