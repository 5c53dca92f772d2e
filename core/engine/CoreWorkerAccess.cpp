// SPDX-License-Identifier: MIT
// CoreWorker: access control. Tokens and policy come from files; the node authorizer's graph
// follows every pod (sim::NodeGraphFeeder), and a change to it, like the periodic timer,
// re-authorizes every open watch.
#include "engine/CoreWorker.h"

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "sim/NodeGraphFeeder.h"
#include "sim/Transport.h"

namespace rvscope::engine {

void CoreWorker::buildAccessControl()
{
    m_nodeGraphFeeder.reset();
    m_accessError.clear();
    if (!m_options.accessControlled())
        return;
    auth::TokenFile tokens;
    if (!m_options.tokenFile.isEmpty()) {
        auto loaded = auth::TokenFile::load(m_options.tokenFile.toStdString());
        if (!loaded) {
            m_accessError = QStringLiteral("--token-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        tokens = std::move(loaded).value();
    }
    tokens.setAnonymousAllowed(m_options.anonymous != EngineOptions::Anonymous::Refused);
    auth::Policy policy = auth::Policy::allowAll();
    if (!m_options.policyFile.isEmpty()) {
        auto loaded = auth::Policy::load(m_options.policyFile.toStdString());
        if (!loaded) {
            m_accessError = QStringLiteral("--policy-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        policy = std::move(loaded).value();
    }
    auto access = std::make_shared<api::AccessControl>(std::move(tokens), std::move(policy));
    m_handler->setAccessControl(access);

    QPointer<CoreWorker> self(this);
    auto feeder = sim::NodeGraphFeeder::start(*m_registry, access, [self] {
        if (self)
            self->recheckWatches();
    });
    if (feeder)
        m_nodeGraphFeeder = std::move(feeder).value();
}

std::shared_ptr<sim::Transport> CoreWorker::guiTransport() const
{
    std::shared_ptr<sim::Transport> transport = std::make_shared<sim::InProcessTransport>(m_handler);
    if (m_guiToken.empty())
        return transport;
    return std::make_shared<sim::BearerTokenTransport>(std::move(transport), m_guiToken);
}

void CoreWorker::recheckWatches()
{
    // Every open watch, requests and bulk channels alike (api::OpenWatches).
    if (auto access = m_handler ? m_handler->accessControl() : nullptr)
        access->recheckWatches();
}

} // namespace rvscope::engine
