// SPDX-License-Identifier: MIT
#include "engine/Engine.h"

#include <QtCore/QMetaMethod>

#include "engine/CoreWorker.h"

namespace rvscope::engine {

QString ServerState::url() const
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                             : address.toString();
    return QStringLiteral("%1://%2:%3").arg(tls ? QStringLiteral("https") : QStringLiteral("http"), host).arg(port);
}

QString CoreStats::revisionText() const
{
    QString text = QStringLiteral("revision %1").arg(revision);
    if (separateRevisions.isEmpty())
        return text;
    QStringList others;
    for (const auto &[series, seriesRevision] : separateRevisions)
        others << QStringLiteral("%1 %2").arg(series).arg(seriesRevision);
    return text + QStringLiteral(" (") + others.join(QStringLiteral(", ")) + u')';
}

QString BulkChannelSummary::collection() const
{
    QString text = group.isEmpty() ? resource : resource + u'.' + group;
    if (!namespaceName.isEmpty())
        text += u'/' + namespaceName;
    if (!name.isEmpty())
        text += u'/' + name;
    return text;
}

Engine::Engine(EngineOptions options, QObject *parent)
    : QObject(parent)
    , m_options(options)
{
    qRegisterMetaType<ServerState>();
    qRegisterMetaType<CoreStats>();
    qRegisterMetaType<OperationBatch>();
    qRegisterMetaType<WatchEventBatch>();
    qRegisterMetaType<WatchChannel>();
    qRegisterMetaType<BulkSessionList>();
    qRegisterMetaType<FaultRuleList>();
    qRegisterMetaType<OperationDetail>();
    qRegisterMetaType<ScenarioInfo>();
    qRegisterMetaType<ScenarioList>();
    qRegisterMetaType<ScenarioState>();
    qRegisterMetaType<StepReport>();
    qRegisterMetaType<VerdictList>();
    qRegisterMetaType<ClientLaunch>();
    qRegisterMetaType<WorkloadReport>();
    m_coreThread.setObjectName(QStringLiteral("core"));
    m_worker = new CoreWorker(std::move(options));
    m_worker->moveToThread(&m_coreThread);
    m_coreThread.setWorker(m_worker); // destroyed in the core thread when its loop ends
    connect(m_worker, &CoreWorker::started, this, [this](const ScenarioList &builtIns) {
        m_builtIns = builtIns;
        Q_EMIT coreStarted();
    });
    connect(m_worker, &CoreWorker::serverStateChanged, this, [this](const ServerState &state) {
        m_serverState = state;
        Q_EMIT serverStateChanged(state);
    });
    connect(m_worker, &CoreWorker::statsReady, this, [this](const CoreStats &stats) {
        m_stats = stats;
        Q_EMIT statsUpdated(stats);
    });
    connect(m_worker, &CoreWorker::scenarioStateChanged, this, [this](const ScenarioState &state) {
        m_scenarioState = state;
        Q_EMIT scenarioStateChanged(state);
    });
    connect(m_worker, &CoreWorker::operationsRecorded, this, &Engine::operationsRecorded);
    connect(m_worker, &CoreWorker::watchEventsRecorded, this, &Engine::watchEventsRecorded);
    connect(m_worker, &CoreWorker::watchOpened, this, &Engine::watchOpened);
    connect(m_worker, &CoreWorker::bulkSessionsChanged, this, [this](const BulkSessionList &sessions) {
        m_bulkSessions = sessions;
        Q_EMIT bulkSessionsChanged(sessions);
    });
    connect(m_worker, &CoreWorker::historyReset, this, &Engine::historyReset);
    connect(m_worker, &CoreWorker::scenarioLoaded, this, &Engine::scenarioLoaded);
    connect(m_worker, &CoreWorker::scenarioStepCompleted, this, &Engine::scenarioStepCompleted);
    connect(m_worker, &CoreWorker::verdictsReady, this, &Engine::verdictsReady);
    connect(m_worker, &CoreWorker::workloadFinished, this, &Engine::workloadFinished);
    connect(m_worker, &CoreWorker::operationDetailReady, this, &Engine::operationDetailReady);
    connect(m_worker, &CoreWorker::objectVersionReady, this, &Engine::objectVersionReady);
    connect(m_worker, &CoreWorker::historyExported, this, &Engine::historyExported);
    connect(m_worker, &CoreWorker::historyImported, this, &Engine::historyImported);
    connect(m_worker, &CoreWorker::errorOccurred, this, &Engine::errorOccurred);
    connect(m_worker, &CoreWorker::faultRulesReported, this, &Engine::faultRulesReported);
    // The core thread runs Qt's own poll-based dispatcher instead of GLib's: the server's
    // request loop is measurably faster on it (bench_http, README). Qt reads this when a
    // thread starts; the GUI thread keeps the GLib dispatcher its platform plugin expects.
    if (qEnvironmentVariableIsEmpty("QT_NO_THREADED_GLIB"))
        qputenv("QT_NO_THREADED_GLIB", "1");
    m_coreThread.start();
    QMetaObject::invokeMethod(m_worker, &CoreWorker::start, Qt::QueuedConnection);
}

Engine::~Engine()
{
    m_coreThread.quit();
    m_coreThread.wait();
}

template<typename Method, typename... Args>
void Engine::post(Method method, Args... args)
{
    // Values are captured by copy: the call runs later, in the core thread, once the core
    // is built (CoreWorker::whenReady).
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, method, args...] { worker->whenReady([worker, method, args...] { (worker->*method)(args...); }); },
        Qt::QueuedConnection);
}

void Engine::connectNotify(const QMetaMethod &signal)
{
    if (signal == QMetaMethod::fromSignal(&Engine::operationsRecorded))
        post(&CoreWorker::sendOperationBatches);
    else if (signal == QMetaMethod::fromSignal(&Engine::watchEventsRecorded))
        post(&CoreWorker::sendWatchEventBatches);
}

void Engine::startServer(const QHostAddress &address, quint16 port)
{
    post(&CoreWorker::startServer, address, port);
}

void Engine::stopServer()
{
    post(&CoreWorker::stopServer);
}

void Engine::compact()
{
    post(&CoreWorker::compact);
}

void Engine::addFaultRule(const QString &rule)
{
    post(&CoreWorker::addFaultRule, rule);
}

void Engine::removeFaultRule(quint64 id)
{
    post(&CoreWorker::removeFaultRule, id);
}

void Engine::clearFaultRules()
{
    post(&CoreWorker::clearFaultRules);
}

void Engine::fetchFaultRules()
{
    post(&CoreWorker::fetchFaultRules);
}

void Engine::loadScenario(const QString &nameOrPath, quint64 seed)
{
    post(&CoreWorker::loadScenario, nameOrPath, seed);
}

void Engine::playScenario()
{
    post(&CoreWorker::playScenario);
}

void Engine::pauseScenario()
{
    post(&CoreWorker::pauseScenario);
}

void Engine::stepScenario()
{
    post(&CoreWorker::stepScenario);
}

void Engine::stepBackScenario()
{
    post(&CoreWorker::stepBackScenario);
}

void Engine::restartScenario()
{
    post(&CoreWorker::restartScenario);
}

void Engine::setScenarioSpeed(double speed)
{
    post(&CoreWorker::setScenarioSpeed, speed);
}

void Engine::launchClients(const ClientLaunch &launch)
{
    post(&CoreWorker::launchClients, launch);
}

void Engine::stopClients()
{
    post(&CoreWorker::stopClients);
}

void Engine::openWatch(const QString &collection, const QString &fromResourceVersion)
{
    post(&CoreWorker::openWatch, collection, fromResourceVersion);
}

void Engine::closeWatch(quint64 id)
{
    post(&CoreWorker::closeWatch, id);
}

void Engine::exportHistory(const QString &path, bool includeSecrets)
{
    post(&CoreWorker::exportHistory, path, includeSecrets);
}

void Engine::importHistory(const QString &path)
{
    post(&CoreWorker::importHistory, path);
}

void Engine::checkHistory()
{
    post(&CoreWorker::checkHistory);
}

void Engine::fetchOperation(quint64 id)
{
    post(&CoreWorker::fetchOperation, id);
}

void Engine::fetchObjectVersion(const QString &key, qint64 resourceVersion)
{
    post(&CoreWorker::fetchObjectVersion, key, resourceVersion);
}

void Engine::clearHistory()
{
    post(&CoreWorker::clearHistory);
}

} // namespace rvscope::engine
