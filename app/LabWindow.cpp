// SPDX-License-Identifier: MIT
#include "LabWindow.h"

#include "MainWindow.h"
#include "engine/Engine.h"

namespace rvscope::app {

LabWindow::LabWindow(const ServeOptions &options)
{
    // The window is the lab, whatever role the options came with: it draws the journal.
    ServeOptions lab = options;
    lab.role = ServeOptions::Role::Lab;
    m_engine = std::make_unique<engine::Engine>(lab);
    // The embedded server starts with the window, so kubectl can connect right away.
    m_engine->startServer(lab.address, lab.port);
    // On a shared etcd the window opens on it (other instances' writes arrive by watch); the
    // first-run scenario would replace it with a fresh in-memory store.
    const bool onEtcd = lab.storageKind == engine::EngineOptions::StorageKind::Etcd;
    m_window = std::make_unique<ui::MainWindow>(*m_engine, nullptr, onEtcd ? QString() : QStringLiteral("lost-update"));
    m_window->show();
}

// The window goes before the engine it draws.
LabWindow::~LabWindow()
{
    m_window.reset();
    m_engine.reset();
}

} // namespace rvscope::app
