// SPDX-License-Identifier: MIT
#include <chrono>

#include <QtTest/QtTest>
#include <qcoro/qcorotimer.h>

#include "StorageConformance.h"
#include "StorageConformanceSupport.h"
#include "storage/MemoryStorage.h"
#include "watch/WatchHub.h"

using namespace rvscope;
using namespace conformance;
using storage::MemoryStorage;

namespace {
// MemoryStorage that suspends (one event-loop turn) before every call, as a networked
// storage would: the hub's waits (starting an upstream, validating a resume, listing for a
// watch from 0) then really happen while other calls run.
class SuspendingStorage final : public Storage {
public:
    explicit SuspendingStorage(std::shared_ptr<MemoryStorage> inner)
        : m_inner(std::move(inner))
    {
    }

    QCoro::Task<model::Result<ObjectPtr>> get(std::string key) override
    {
        co_await pause();
        co_return co_await m_inner->get(std::move(key));
    }
    QCoro::Task<model::Result<ObjectPtr>> create(std::string key, model::Object object) override
    {
        co_await pause();
        co_return co_await m_inner->create(std::move(key), std::move(object));
    }
    QCoro::Task<model::Result<storage::RemoveResult>> remove(std::string key, Preconditions preconditions,
                                                             storage::ValidateDeletion validate = {}) override
    {
        co_await pause();
        co_return co_await m_inner->remove(std::move(key), std::move(preconditions), std::move(validate));
    }
    QCoro::Task<model::Result<storage::ListResult>> list(std::string prefix, storage::ListOptions options) override
    {
        co_await pause();
        co_return co_await m_inner->list(std::move(prefix), std::move(options));
    }
    QCoro::Task<model::Result<storage::WatchHandle>> watch(std::string prefix, Revision fromRevision,
                                                           storage::WatchSink sink) override
    {
        co_await pause();
        co_return co_await m_inner->watch(std::move(prefix), fromRevision, std::move(sink));
    }
    QCoro::Task<model::Result<storage::UpdateResult>> guaranteedUpdate(std::string key, Preconditions preconditions,
                                                                       storage::TryUpdate tryUpdate,
                                                                       ObjectPtr suggestion = {},
                                                                       bool ignoreNotFound = false) override
    {
        co_await pause();
        co_return co_await m_inner->guaranteedUpdate(std::move(key), std::move(preconditions), std::move(tryUpdate),
                                                     std::move(suggestion), ignoreNotFound);
    }
    QCoro::Task<model::Result<Revision>> compact(Revision revision) override
    {
        co_await pause();
        co_return co_await m_inner->compact(revision);
    }
    QCoro::Task<model::Result<Revision>> currentRevision() override
    {
        co_await pause();
        co_return co_await m_inner->currentRevision();
    }

private:
    static QCoro::Task<> pause() { co_await QCoro::sleepFor(std::chrono::milliseconds(0)); }

    std::shared_ptr<MemoryStorage> m_inner;
};
} // namespace

// The conformance suite through a hub over a storage whose every call suspends: the hub's
// own waits must not lose, duplicate or reorder events.
class TestWatchHubAsync final : public StorageConformance {
    Q_OBJECT

protected:
    std::unique_ptr<storage::Storage> createStorage() override
    {
        auto hub = std::make_unique<watch::WatchHub>(
            std::make_shared<SuspendingStorage>(std::make_shared<MemoryStorage>()));
        hub->addRoot("/registry/");
        return hub;
    }

private Q_SLOTS:
    void testConcurrentWatchesStartOneUpstream();
};

void TestWatchHubAsync::testConcurrentWatchesStartOneUpstream()
{
    auto inner = std::make_shared<MemoryStorage>();
    watch::WatchHub hub(std::make_shared<SuspendingStorage>(inner));
    hub.addRoot("/registry/configmaps/");
    mustCreate(*inner, "a");
    // Five watches started before any of them completes: they race to start the upstream.
    std::vector<Recorder> recorders(5);
    std::vector<QCoro::Task<model::Result<storage::WatchHandle>>> pending;
    const Revision now = current(*inner);
    for (std::size_t i = 0; i < recorders.size(); ++i)
        pending.push_back(hub.watch("/registry/configmaps/", i % 2 ? now : 0, recorders[i].sink()));
    std::vector<storage::WatchHandle> handles;
    for (auto &task : pending)
        handles.push_back(run(std::move(task)).value());
    QCOMPARE(hub.stats().upstreams, 1);
    QCOMPARE(hub.stats().sharedWatchers + hub.stats().directWatchers, 5);
    mustCreate(*inner, "b");
    for (std::size_t i = 0; i < recorders.size(); ++i) {
        const std::vector<Revision> expected = i % 2 ? std::vector<Revision>{now + 1} : std::vector<Revision>{now, now + 1};
        QCOMPARE(recorders[i].revisions(), expected);
    }
}

QTEST_GUILESS_MAIN(TestWatchHubAsync)
#include "TestWatchHubAsync.moc"
