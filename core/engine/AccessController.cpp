// SPDX-License-Identifier: MIT
#include "engine/AccessController.h"

#include <QtCore/QPointer>
#include <QtCore/QTimer>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "engine/Core.h"
#include "engine/EngineOptions.h"
#include "registry/Registry.h"
#include "sim/NodeGraphFeeder.h"
#include "sim/Transport.h"

namespace rvscope::engine {

AccessController::AccessController(const EngineOptions &options, const Core &core, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_core(core)
{
}

AccessController::~AccessController() = default;

void AccessController::handleCoreRebuilt()
{
    m_nodeGraphFeeder.reset();
    m_error.clear();
    if (!m_options.accessControlled())
        return;
    auth::TokenFile tokens;
    if (!m_options.tokenFile.isEmpty()) {
        auto loaded = auth::TokenFile::load(m_options.tokenFile.toStdString());
        if (!loaded) {
            m_error = QStringLiteral("--token-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        tokens = std::move(loaded).value();
    }
    tokens.setAnonymousAllowed(m_options.anonymous != EngineOptions::Anonymous::Refused);
    auth::Policy policy = auth::Policy::allowAll();
    if (!m_options.policyFile.isEmpty()) {
        auto loaded = auth::Policy::load(m_options.policyFile.toStdString());
        if (!loaded) {
            m_error = QStringLiteral("--policy-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        policy = std::move(loaded).value();
    }
    auto access = std::make_shared<api::AccessControl>(std::move(tokens), std::move(policy));
    m_core.handler->setAccessControl(access);

    QPointer<AccessController> self(this);
    auto feeder = sim::NodeGraphFeeder::start(*m_core.registry, access, [self] {
        if (self)
            self->recheckWatches();
    });
    if (feeder)
        m_nodeGraphFeeder = std::move(feeder).value();
}

void AccessController::startRecheckTimer()
{
    if (!m_options.accessControlled() || m_options.aclRecheckMs <= 0)
        return;
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &AccessController::recheckWatches);
    timer->start(m_options.aclRecheckMs);
}

std::shared_ptr<sim::Transport> AccessController::guiTransport() const
{
    std::shared_ptr<sim::Transport> transport = std::make_shared<sim::InProcessTransport>(m_core.handler);
    if (m_guiToken.empty())
        return transport;
    return std::make_shared<sim::BearerTokenTransport>(std::move(transport), m_guiToken);
}

void AccessController::recheckWatches()
{
    if (auto access = m_core.handler ? m_core.handler->accessControl() : nullptr)
        access->recheckWatches();
}

} // namespace rvscope::engine
