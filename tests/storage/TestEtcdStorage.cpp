// SPDX-License-Identifier: MIT
// EtcdStorage against a real etcd (one member, started by this test process on free loopback
// ports): the whole conformance suite, each test function on a fresh key prefix, then what
// etcd adds: prefix isolation, the stored layout, compaction seen by a second instance, two
// instances on one prefix (watch order, cross-instance conflicts), endpoint failover and
// etcd's own refusals.
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>
#include <QtTest/QtTest>

#include <unistd.h>

#include "EtcdProcess.h"
#include "StorageConformance.h"
#include "StorageConformanceSupport.h"
#include "TestSupport.h"
#include "model/StatusErrors.h"
#include "storage/etcd/EtcdClient.h"
#include "storage/etcd/EtcdStorage.h"

using namespace rvscope;
using conformance::dataOf;
using conformance::Recorder;
using conformance::rvOf;
using conformance::setData;
using storage::EtcdStorage;
using testing::configMap;
using testing::configMapKey;
using testing::run;

class TestEtcdStorage final : public StorageConformance {
    Q_OBJECT

protected:
    std::unique_ptr<storage::Storage> createStorage() override { return open(freshPrefix()); }

private Q_SLOTS:
    void initTestCase();
    void testProgressMovesOnWhileThePrefixIsQuiet();
    void testPrefixIsolation();
    void testObjectCountFollowsEveryInstancesWrites();
    void testProgressNeverPassesWhatWatchersWereHanded();
    void testStoredLayout();
    void testCompactionExpiresListAndWatch();
    void testSecondInstanceSeesWritesInOrder();
    void testWatchResumesFromBeforeTheInstanceStarted();
    void testHistoryBoundExpiresOldWatches();
    void testConflictAcrossInstances();
    void testGuaranteedUpdateAcrossInstancesRetries();
    void testFailsOverToALiveMember();
    void testClusterGoesOnWhenAMemberStops();
    void testRequestTooLargeIsTheApiserversStatus();
    void testUnreachableEtcdIsAnError();
    void testWaitsForASilentEtcdEndAtTheirOwnDeadlines();

private:
    std::string freshPrefix() { return "/rvscope-test-" + std::to_string(::getpid()) + "-" + std::to_string(++m_count); }
    std::unique_ptr<EtcdStorage> open(const std::string &prefix, std::vector<std::string> endpoints = {})
    {
        EtcdStorage::Options options;
        options.endpoints = endpoints.empty() ? std::vector<std::string>{m_etcd.endpoint()} : std::move(endpoints);
        options.prefix = prefix;
        auto storage = std::make_unique<EtcdStorage>(options);
        auto ready = run(storage->ready());
        if (!ready)
            qFatal("etcd storage not ready: %s", ready.error().message.c_str());
        return storage;
    }

    testing::EtcdProcess m_etcd;
    int m_count = 0;
};

void TestEtcdStorage::initTestCase()
{
    if (testing::EtcdProcess::binary().isEmpty())
        QSKIP("etcd is not installed (Debian etcd-server)");
    QVERIFY2(m_etcd.start(), qPrintable(m_etcd.error()));
}

// The count the status bar shows: etcd's count at the feed's start, then every create and
// delete the feed sees, this instance's and another's.
void TestEtcdStorage::testObjectCountFollowsEveryInstancesWrites()
{
    const std::string prefix = freshPrefix();
    auto first = open(prefix);
    run(first->create(configMapKey("before-1"), configMap("before-1"))).value();
    run(first->create(configMapKey("before-2"), configMap("before-2"))).value();
    auto second = open(prefix); // starts on a prefix that already holds two objects
    QTRY_COMPARE(second->objectCount().value_or(-1), std::int64_t(2));
    run(first->create(configMapKey("after"), configMap("after"))).value();
    QVERIFY(run(second->remove(configMapKey("before-1"), {})));
    QVERIFY(run(second->guaranteedUpdate(configMapKey("before-2"), {}, setData("k", "v"))));
    QTRY_COMPARE(second->objectCount().value_or(-1), std::int64_t(2));
    QTRY_COMPARE(first->objectCount().value_or(-1), std::int64_t(2));
}

// Bookmarks carry progressRevision(): while another instance writes, it never names a
// revision this instance's watchers have not been handed yet (etcd's current revision may).
void TestEtcdStorage::testProgressNeverPassesWhatWatchersWereHanded()
{
    const std::string prefix = freshPrefix();
    auto watched = open(prefix);
    auto writer = open(prefix);
    const storage::Revision start = run(watched->progressRevision()).value();
    Recorder recorder;
    auto watch = run(watched->watch("/registry/", start, recorder.sink()));
    QVERIFY(watch);
    for (int i = 0; i < 30; ++i) {
        run(writer->create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
        const storage::Revision progress = run(watched->progressRevision()).value();
        const storage::Revision handed = recorder.events.empty() ? start : recorder.events.back().revision;
        QVERIFY2(progress <= handed, qPrintable(QStringLiteral("progress %1, handed %2").arg(progress).arg(handed)));
    }
    const storage::Revision last = run(writer->currentRevision()).value();
    QTRY_COMPARE(run(watched->progressRevision()).value(), last);
}

// etcd's progress notifications (every 200 ms for the test's etcd) move the feed on while
// only other prefixes are written, so a bookmark names the cluster's revision, as the
// apiserver's do; without them a quiet prefix would repeat its last own write's.
void TestEtcdStorage::testProgressMovesOnWhileThePrefixIsQuiet()
{
    auto quiet = open(freshPrefix());
    auto busy = open(freshPrefix());
    const storage::Revision before = run(quiet->progressRevision()).value();
    for (int i = 0; i < 3; ++i)
        run(busy->create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    const storage::Revision written = run(busy->currentRevision()).value();
    QVERIFY(written > before);
    QTRY_VERIFY_WITH_TIMEOUT(run(quiet->progressRevision()).value() >= written, 5000);
}

void TestEtcdStorage::testPrefixIsolation()
{
    // "/iso" and "/iso-b": one prefix is a string prefix of the other, yet they share nothing.
    const std::string base = freshPrefix();
    auto a = open(base);
    auto b = open(base + "-b");
    Recorder seenByA;
    auto watch = run(a->watch("/registry/", 0, seenByA.sink()));
    QVERIFY(watch);
    run(a->create(configMapKey("foo"), configMap("foo", "default", {{"owner", "a"}}))).value();
    run(b->create(configMapKey("foo"), configMap("foo", "default", {{"owner", "b"}}))).value();
    run(b->create(configMapKey("only-b"), configMap("only-b"))).value();

    auto listA = run(a->list("/registry/", {}));
    QVERIFY(listA);
    QCOMPARE(listA->items.size(), std::size_t(1));
    QCOMPARE(dataOf(listA->items[0], "owner"), std::string("a"));
    auto listB = run(b->list("/registry/configmaps/", {}));
    QCOMPARE(listB->items.size(), std::size_t(2));
    QCOMPARE(dataOf(run(b->get(configMapKey("foo"))).value(), "owner"), std::string("b"));
    QCOMPARE(run(a->get(configMapKey("only-b"))).error().code, 404);
    QCOMPARE(seenByA.events.size(), std::size_t(1));
    QCOMPARE(seenByA.events[0].key, configMapKey("foo"));
}

void TestEtcdStorage::testStoredLayout()
{
    // The apiserver's layout: <prefix>/<resource>/<namespace>/<name>, the value without
    // resourceVersion, mod_revision as resourceVersion.
    const std::string prefix = freshPrefix();
    auto storage = open(prefix);
    auto created = run(storage->create(configMapKey("foo"), configMap("foo"))).value();
    storage::etcd::EtcdClient::Options options;
    options.endpoints = {m_etcd.endpoint()};
    storage::etcd::EtcdClient client(options);
    storage::etcd::pb::RangeRequest request;
    request.set_key(prefix + "/configmaps/default/foo");
    auto reply = run(client.range(request));
    QVERIFY(reply.ok());
    QCOMPARE(reply.response.kvs_size(), 1);
    QCOMPARE(std::to_string(reply.response.kvs(0).mod_revision()), created->resourceVersion());
    QVERIFY(reply.response.kvs(0).value().find("resourceVersion") == std::string::npos);
    QVERIFY(reply.response.kvs(0).value().find("\"name\":\"foo\"") != std::string::npos);
}

void TestEtcdStorage::testCompactionExpiresListAndWatch()
{
    const std::string prefix = freshPrefix();
    auto first = open(prefix);
    const auto start = rvOf(run(first->create(configMapKey("a"), configMap("a"))).value());
    for (int i = 0; i < 3; ++i)
        run(first->guaranteedUpdate(configMapKey("a"), {}, setData("n", std::to_string(i)))).value();
    auto second = open(prefix);
    const storage::Revision now = run(first->currentRevision()).value();
    QCOMPARE(run(first->compact(now)).value(), now);

    // The second instance never compacted: etcd itself refuses the old revision.
    storage::ListOptions old;
    old.revision = start;
    auto listed = run(second->list("/registry/", old));
    QVERIFY(!listed);
    QCOMPARE(listed.error().code, 410);
    QCOMPARE(listed.error().message, std::string("The resourceVersion for the provided list is too old."));
    Recorder recorder;
    auto watched = run(first->watch("/registry/", start, recorder.sink()));
    QVERIFY(!watched);
    QCOMPARE(watched.error().code, 410);
    QCOMPARE(watched.error().message,
             "too old resource version: " + std::to_string(start) + " (" + std::to_string(now - 1) + ")");
    // Current data survives; a list at the compaction revision itself is still served.
    storage::ListOptions atNow;
    atNow.revision = now;
    QCOMPARE(run(second->list("/registry/", atNow))->items.size(), std::size_t(1));
}

void TestEtcdStorage::testSecondInstanceSeesWritesInOrder()
{
    const std::string prefix = freshPrefix();
    auto writer = open(prefix);
    auto reader = open(prefix);
    Recorder recorder;
    const storage::Revision from = run(reader->currentRevision()).value();
    auto handle = run(reader->watch("/registry/configmaps/", from, recorder.sink()));
    QVERIFY(handle);
    std::vector<storage::Revision> written;
    written.push_back(rvOf(run(writer->create(configMapKey("a"), configMap("a"))).value()));
    written.push_back(rvOf(run(writer->create(configMapKey("b"), configMap("b"))).value()));
    for (int i = 0; i < 5; ++i)
        written.push_back(rvOf(run(writer->guaranteedUpdate(configMapKey("a"), {}, setData("n", std::to_string(i))))->object));
    written.push_back(run(writer->remove(configMapKey("b"), {}))->revision);

    QTRY_COMPARE(recorder.events.size(), written.size());
    QCOMPARE(recorder.revisions(), written);
    QCOMPARE(recorder.events[0].type, storage::WatchEventType::Added);
    QCOMPARE(recorder.events[2].type, storage::WatchEventType::Modified);
    QCOMPARE(dataOf(recorder.events[6].object, "n"), std::string("4"));
    QCOMPARE(dataOf(recorder.events[6].previous, "n"), std::string("3"));
    QCOMPARE(recorder.events.back().type, storage::WatchEventType::Deleted);
    QCOMPARE(rvOf(recorder.events.back().object), written.back());
    // And the reader's own reads agree with the writer's.
    QCOMPARE(run(reader->get(configMapKey("a"))).value()->bytes(), run(writer->get(configMapKey("a"))).value()->bytes());
}

void TestEtcdStorage::testWatchResumesFromBeforeTheInstanceStarted()
{
    // A client read from A, then watches on B, which started after those writes: B has no
    // event of them in memory and fetches them from etcd, without gaps and without the
    // writes of another deployment that happened in between.
    const std::string prefix = freshPrefix();
    auto a = open(prefix);
    auto other = open(prefix + "-other");
    const storage::Revision from = run(a->currentRevision()).value();
    std::vector<storage::Revision> written;
    written.push_back(rvOf(run(a->create(configMapKey("x"), configMap("x"))).value()));
    run(other->create(configMapKey("x"), configMap("x"))).value();
    written.push_back(rvOf(run(a->guaranteedUpdate(configMapKey("x"), {}, setData("v", "1")))->object));
    run(other->create(configMapKey("y"), configMap("y"))).value();
    written.push_back(run(a->remove(configMapKey("x"), {}))->revision);

    auto b = open(prefix);
    QVERIFY(b->oldestWatchableRevision() > from);
    Recorder recorder;
    auto handle = run(b->watch("/registry/", from, recorder.sink()));
    QVERIFY2(handle, handle ? "" : handle.error().message.c_str());
    QCOMPARE(recorder.revisions(), written);
    QCOMPARE(recorder.events[1].type, storage::WatchEventType::Modified);
    QCOMPARE(dataOf(recorder.events[1].object, "v"), std::string("1"));
    QCOMPARE(recorder.events[2].type, storage::WatchEventType::Deleted);
    written.push_back(rvOf(run(a->create(configMapKey("z"), configMap("z"))).value()));
    QTRY_COMPARE(recorder.revisions(), written);

    // From before a compaction: etcd no longer has it, 410 as from etcd itself.
    auto c = open(prefix);
    const storage::Revision now = run(a->currentRevision()).value();
    run(a->compact(now)).value();
    Recorder late;
    auto expired = run(c->watch("/registry/", from, late.sink()));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(expired.error().message,
             "too old resource version: " + std::to_string(from) + " (" + std::to_string(now - 1) + ")");
}

void TestEtcdStorage::testHistoryBoundExpiresOldWatches()
{
    // `serve --watch-history N`: past N events in memory a watch gets 410, as from the
    // apiserver's watch cache, although etcd still has the history; a backfill that would
    // not fit the bound is refused the same way.
    const std::string prefix = freshPrefix();
    EtcdStorage::Options options;
    options.endpoints = {m_etcd.endpoint()};
    options.prefix = prefix;
    options.historyLimit = 3;
    EtcdStorage bounded(options);
    QVERIFY(run(bounded.ready()));
    const storage::Revision start = run(bounded.currentRevision()).value();
    for (int i = 0; i < 6; ++i)
        run(bounded.create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    Recorder recorder;
    auto expired = run(bounded.watch("/registry/", start + 1, recorder.sink()));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(expired.error().message, "too old resource version: " + std::to_string(start + 1) + " ("
                                          + std::to_string(start + 3) + ")");
    auto resumed = run(bounded.watch("/registry/", start + 3, recorder.sink()));
    QVERIFY(resumed);
    QCOMPARE(recorder.revisions(), (std::vector<storage::Revision>{start + 4, start + 5, start + 6}));

    EtcdStorage later(options);
    QVERIFY(run(later.ready()));
    auto tooMuch = run(later.watch("/registry/", start, recorder.sink()));
    QVERIFY(!tooMuch);
    QCOMPARE(tooMuch.error().code, 410);
    auto fits = run(later.watch("/registry/", start + 3, recorder.sink()));
    QVERIFY2(fits, fits ? "" : fits.error().message.c_str());
}

void TestEtcdStorage::testConflictAcrossInstances()
{
    // A PUT on A carrying a resourceVersion read from B conflicts exactly when someone wrote
    // in between.
    const std::string prefix = freshPrefix();
    auto a = open(prefix);
    auto b = open(prefix);
    run(a->create(configMapKey("foo"), configMap("foo"))).value();
    const std::string readFromB = run(b->get(configMapKey("foo"))).value()->resourceVersion();

    storage::Preconditions unchanged;
    unchanged.resourceVersion = readFromB;
    auto first = run(a->guaranteedUpdate(configMapKey("foo"), unchanged, setData("x", "1")));
    QVERIFY(first);

    // B writes; A's next update with the older resourceVersion must fail, and write nothing.
    auto fromB = run(b->guaranteedUpdate(configMapKey("foo"), {}, setData("x", "2")));
    QVERIFY(fromB);
    storage::Preconditions stale;
    stale.resourceVersion = first->object->resourceVersion();
    auto conflict = run(a->guaranteedUpdate(configMapKey("foo"), stale, setData("x", "3")));
    QVERIFY(!conflict);
    QCOMPARE(conflict.error().code, 409);
    QCOMPARE(conflict.error().storageCode, model::StorageCode::InvalidObj);
    QCOMPARE(dataOf(run(a->get(configMapKey("foo"))).value(), "x"), std::string("2"));
}

void TestEtcdStorage::testGuaranteedUpdateAcrossInstancesRetries()
{
    // A's update reads, then waits inside tryUpdate while B commits: A's Txn fails its
    // compare, takes the Else branch's value and redoes its work on it.
    const std::string prefix = freshPrefix();
    auto a = open(prefix);
    auto b = open(prefix);
    run(a->create(configMapKey("foo"), configMap("foo", "default", {{"log", ""}}))).value();
    EtcdStorage *other = b.get();
    int calls = 0;
    auto updated = run(a->guaranteedUpdate(
        configMapKey("foo"), {}, [&calls, other](model::ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
            if (++calls == 1) {
                storage::TryUpdate fromB = setData("log", "b;");
                co_await other->guaranteedUpdate(configMapKey("foo"), storage::Preconditions(), std::move(fromB));
            }
            model::Object next = *existing;
            next.mutableJson()["data"]["log"] = dataOf(existing, "log") + "a;";
            co_return next;
        }));
    QVERIFY(updated);
    QCOMPARE(updated->retries, 1);
    QCOMPARE(calls, 2);
    QCOMPARE(dataOf(updated->object, "log"), std::string("b;a;"));
}

void TestEtcdStorage::testFailsOverToALiveMember()
{
    // The first endpoint answers nothing (a closed loopback port): reads, writes and the
    // watch feed move on to the next member.
    QTcpServer placeholder;
    QVERIFY(placeholder.listen(QHostAddress::LocalHost, 0));
    const std::string dead = "http://127.0.0.1:" + std::to_string(placeholder.serverPort());
    placeholder.close();
    auto storage = open(freshPrefix(), {dead, m_etcd.endpoint()});
    Recorder recorder;
    auto handle = run(storage->watch("/registry/", 0, recorder.sink()));
    QVERIFY(handle);
    auto created = run(storage->create(configMapKey("foo"), configMap("foo")));
    QVERIFY2(created, created ? "" : created.error().message.c_str());
    QVERIFY(run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "1"))));
    QCOMPARE(recorder.events.size(), std::size_t(2));
    QCOMPARE(storage->endpoints().size(), std::size_t(2));
}

void TestEtcdStorage::testClusterGoesOnWhenAMemberStops()
{
    // A 3-member cluster. The leader, which both instances talk to first (requests and watch
    // feed), stops: writes go on through the others, nothing acknowledged is lost, and both
    // instances' watches see every change in order, with no gap across the failover.
    testing::EtcdCluster cluster;
    QVERIFY2(cluster.start(3), qPrintable(cluster.error()));
    // The leader goes: the others must elect a new one while the writes wait.
    int leader = -1;
    for (int i = 0; i < 3 && leader < 0; ++i) {
        storage::etcd::EtcdClient::Options options;
        options.endpoints = {cluster.member(i).endpoint()};
        storage::etcd::EtcdClient client(options);
        auto status = run(client.status());
        QVERIFY2(status.ok(), status.status.error_message().c_str());
        if (status.response.leader() == status.response.header().member_id())
            leader = i;
    }
    QVERIFY(leader >= 0);
    std::vector<std::string> endpoints = cluster.endpoints();
    std::rotate(endpoints.begin(), endpoints.begin() + leader, endpoints.end());
    const std::string prefix = freshPrefix();
    auto writer = open(prefix, endpoints);
    auto reader = open(prefix, endpoints);
    Recorder own;
    Recorder remote;
    const storage::Revision from = run(writer->currentRevision()).value();
    auto ownWatch = run(writer->watch("/registry/", from, own.sink()));
    auto remoteWatch = run(reader->watch("/registry/", from, remote.sink()));
    QVERIFY(ownWatch && remoteWatch);

    std::vector<storage::Revision> written;
    for (int i = 0; i < 5; ++i) {
        const std::string name = "cm-" + std::to_string(i);
        written.push_back(rvOf(run(writer->create(configMapKey(name), configMap(name))).value()));
    }
    cluster.member(leader).stop();
    for (int i = 0; i < 5; ++i) {
        auto updated = run(writer->guaranteedUpdate(configMapKey("cm-" + std::to_string(i)), {}, setData("v", "2")));
        QVERIFY2(updated, updated ? "" : updated.error().message.c_str());
        written.push_back(rvOf(updated->object));
    }
    QVERIFY(cluster.member(leader).restart());
    QVERIFY2(cluster.member(leader).waitUntilHealthy(), qPrintable(cluster.member(leader).error()));
    for (int i = 0; i < 3; ++i) {
        auto removed = run(writer->remove(configMapKey("cm-" + std::to_string(i)), {}));
        QVERIFY2(removed, removed ? "" : removed.error().message.c_str());
        written.push_back(removed->revision);
    }
    QTRY_COMPARE(own.revisions(), written);
    QTRY_COMPARE(remote.revisions(), written);
    auto listed = run(reader->list("/registry/", {}));
    QVERIFY(listed);
    QCOMPARE(listed->items.size(), std::size_t(2));
    QCOMPARE(dataOf(listed->items[0], "v"), std::string("2"));
}

void TestEtcdStorage::testRequestTooLargeIsTheApiserversStatus()
{
    // etcd refuses requests over 1.5 MiB (--max-request-bytes; beyond 2 MiB gRPC itself refuses
    // them); the apiserver answers 500 with etcd's text.
    auto storage = open(freshPrefix());
    model::Object big = configMap("big");
    big.mutableJson()["data"]["blob"] = std::string(1700 * 1024, 'x');
    auto created = run(storage->create(configMapKey("big"), big));
    QVERIFY(!created);
    QCOMPARE(created.error().code, 500);
    QCOMPARE(created.error().reason, std::string());
    QCOMPARE(QString::fromStdString(created.error().message), QStringLiteral("etcdserver: request is too large"));
}

void TestEtcdStorage::testUnreachableEtcdIsAnError()
{
    QTcpServer placeholder;
    QVERIFY(placeholder.listen(QHostAddress::LocalHost, 0));
    const std::string dead = "http://127.0.0.1:" + std::to_string(placeholder.serverPort());
    placeholder.close();
    EtcdStorage::Options options;
    options.endpoints = {dead};
    options.prefix = freshPrefix();
    options.requestTimeout = std::chrono::milliseconds(500);
    EtcdStorage storage(options);
    auto ready = run(storage.ready());
    QVERIFY(!ready);
    QCOMPARE(ready.error().code, 500);
    auto got = run(storage.get(configMapKey("foo")));
    QVERIFY(!got);
    QCOMPARE(got.error().code, 500);
}

void TestEtcdStorage::testWaitsForASilentEtcdEndAtTheirOwnDeadlines()
{
    // An endpoint that takes connections and never answers: the feed never starts, and each
    // wait for it ends at its own feedWaitTimeout (one timer serves every waiter, re-armed
    // for the next deadline), long before the request timeout.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    EtcdStorage::Options options;
    options.endpoints = {"http://127.0.0.1:" + std::to_string(silent.serverPort())};
    options.prefix = freshPrefix();
    options.requestTimeout = std::chrono::milliseconds(20000);
    options.feedWaitTimeout = std::chrono::milliseconds(400);
    EtcdStorage storage(options);
    QElapsedTimer clock;
    clock.start();
    auto first = storage.ready();
    QTest::qWait(200);
    const qint64 secondStarted = clock.elapsed();
    auto second = storage.ready();
    auto firstResult = run(std::move(first));
    const qint64 firstEnded = clock.elapsed();
    auto secondResult = run(std::move(second));
    const qint64 secondEnded = clock.elapsed();
    QVERIFY(!firstResult);
    QVERIFY(!secondResult);
    QCOMPARE(firstResult.error().code, 500);
    QCOMPARE(firstResult.error().message, std::string("etcd did not start a watch within 400 ms"));
    QVERIFY2(firstEnded >= 390 && firstEnded < 3000, QByteArray::number(firstEnded));
    QVERIFY2(secondEnded - secondStarted >= 390 && secondEnded < 3000, QByteArray::number(secondEnded));
    QVERIFY2(secondEnded >= firstEnded, QByteArray::number(secondEnded)); // (equal: one late pass ended both)
}

QTEST_GUILESS_MAIN(TestEtcdStorage)
#include "TestEtcdStorage.moc"
