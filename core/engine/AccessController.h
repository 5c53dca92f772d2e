// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include <QtCore/QObject>
#include <QtCore/QString>

namespace rvscope::sim {
class NodeGraphFeeder;
class Transport;
}

namespace rvscope::engine {

struct Core;
struct EngineOptions;

// Access control of the current core, built from the options' token and policy files:
// the node authorizer's graph follows every pod (sim::NodeGraphFeeder), and a change to it,
// like the periodic timer, re-authorizes every open watch. Also the identity of the GUI's
// own requests. Core thread only.
class AccessController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccessController)

public:
    AccessController(const EngineOptions &options, const Core &core, QObject *parent);
    ~AccessController() override;

    // Sets the new core's access control up (none without token or policy file).
    void handleCoreRebuilt();
    // Re-authorizes open watches every EngineOptions::aclRecheckMs from now on.
    void startRecheckTimer();
    // Every open watch, requests and bulk channels alike (api::OpenWatches).
    void recheckWatches();
    // Why access control could not be set up: the server refuses to start with it.
    const QString &error() const { return m_error; }

    // The in-process transport for the GUI's own requests (watches, launched clients): as
    // the current scenario's setup identity when it has an "access" section.
    std::shared_ptr<sim::Transport> guiTransport() const;
    // The bearer token of that identity; empty: none (the current scenario has no access).
    void setGuiToken(std::string token) { m_guiToken = std::move(token); }

private:
    const EngineOptions &m_options;
    const Core &m_core;
    QString m_error;
    std::shared_ptr<sim::NodeGraphFeeder> m_nodeGraphFeeder;
    std::string m_guiToken;
};

} // namespace rvscope::engine
