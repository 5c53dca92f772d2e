// SPDX-License-Identifier: MIT
#include "engine/ServerController.h"

#include <sys/resource.h>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "api/BulkWatchSession.h"
#include "api/FaultInjector.h"
#include "engine/AccessController.h"
#include "engine/Core.h"
#include "engine/EngineOptions.h"
#include "server/ApiServer.h"

namespace rvscope::engine {

ServerController::ServerController(const EngineOptions &options, const Core &core, const AccessController &access,
                                   QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_core(core)
    , m_access(access)
{
}

ServerController::~ServerController()
{
    if (m_server) {
        m_server->closeWatches();
        m_server.reset();
    }
    // The loop ends after this (the window closes, serve quits): requests in an injected
    // delay finish now rather than leak.
    if (m_core.handler)
        m_core.handler->faultInjector().drain();
}

// As Go's runtime does, the soft limit on open files is raised to the hard one; the
// connection bound stays below it by a reserve for files, etcd and the event loop, since a
// server that runs out of descriptors stops accepting altogether (Qt pauses on EMFILE).
namespace {
server::Limits limitsWithinOpenFiles(server::Limits limits)
{
    constexpr rlim_t RESERVE = 256;
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0)
        return limits;
    if (files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
        ::getrlimit(RLIMIT_NOFILE, &files);
    }
    if (files.rlim_cur == RLIM_INFINITY)
        return limits;
    const std::size_t room = std::size_t(files.rlim_cur > 2 * RESERVE ? files.rlim_cur - RESERVE : files.rlim_cur / 2);
    if (limits.maxConnections == 0 || limits.maxConnections > room)
        limits.maxConnections = room;
    return limits;
}
} // namespace

// Security default: an address other hosts can reach is served only with tokens
// (--token-file) or when --anonymous says an open server is meant; without either anyone who
// reaches it could read every Secret and change every object. Loopback needs neither.
QString ServerController::openServerRefusal(const QHostAddress &address) const
{
    if (address.isLoopback() || !m_options.tokenFile.isEmpty()
        || m_options.anonymous == EngineOptions::Anonymous::Allowed)
        return {};
    return QStringLiteral("refusing to listen on %1 without --token-file: every host that reaches it could read and "
                          "change every object. Give --token-file FILE (and --policy-file FILE to limit what each "
                          "user may do), or --anonymous to serve it open on purpose.")
        .arg(address.toString());
}

void ServerController::start(const QHostAddress &address, quint16 port)
{
    ServerState state;
    state.address = address;
    if (m_server) {
        state.running = true;
        state.port = m_server->port();
        Q_EMIT serverStateChanged(state);
        return;
    }
    if (!m_access.error().isEmpty() || !m_core.storageError.isEmpty() || !m_core.faultError.isEmpty()) {
        state.error = !m_access.error().isEmpty() ? m_access.error()
            : !m_core.storageError.isEmpty()      ? m_core.storageError
                                                  : m_core.faultError;
        Q_EMIT serverStateChanged(state);
        return;
    }
    if (const QString refusal = openServerRefusal(address); !refusal.isEmpty()) {
        state.error = refusal;
        Q_EMIT serverStateChanged(state);
        return;
    }
    if (auto access = m_core.handler->accessControl()) {
        if (m_options.anonymous == EngineOptions::Anonymous::LoopbackOnly)
            access->setAnonymousAllowed(address.isLoopback());
    }
    auto server = std::make_unique<server::ApiServer>(m_core.handler);
    server->setLimits(limitsWithinOpenFiles(m_options.serverLimits));
    if (!m_options.tlsCertificate.isEmpty() || !m_options.tlsKey.isEmpty()) {
        QString tlsError;
        if (!server->setTls(m_options.tlsCertificate, m_options.tlsKey, &tlsError)) {
            state.error = tlsError;
            Q_EMIT serverStateChanged(state);
            return;
        }
        state.tls = true;
    }
    QString error;
    state.port = server->start(address, port, &error);
    state.running = state.port != 0;
    state.error = error;
    if (state.running) {
        const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                                 : address.toString();
        m_core.handler->setServerAddress((host + u':' + QString::number(state.port)).toStdString());
        m_server = std::move(server);
        m_address = address;
    }
    Q_EMIT serverStateChanged(state);
}

void ServerController::stop()
{
    if (m_server) {
        m_server->closeWatches();
        m_server.reset();
    }
    // Requests waiting out an injected delay finish now, as a server draining on shutdown
    // lets its requests finish, instead of waiting on a loop that may be about to end.
    if (m_core.handler)
        m_core.handler->faultInjector().releaseDelays();
    Q_EMIT serverStateChanged(ServerState{});
}

quint16 ServerController::port() const
{
    return m_server ? m_server->port() : 0;
}

std::size_t ServerController::openWatchCount() const
{
    return m_server ? m_server->openWatchCount() : 0;
}

std::size_t ServerController::bulkSessionCount() const
{
    return m_server ? m_server->bulkWatchSessions().size() : 0;
}

void ServerController::reportBulkSessions()
{
    std::vector<std::shared_ptr<api::BulkWatchSession>> sessions;
    if (m_server)
        sessions = m_server->bulkWatchSessions();
    if (auto changed = m_bulkSessions.update(std::move(sessions)))
        Q_EMIT bulkSessionsChanged(*changed);
}

} // namespace rvscope::engine
