// SPDX-License-Identifier: MIT
// The seed documents' scenarios, through the registry's public interface: who wins, who gets
// a 409, and what is lost.
#include <QtTest/QtTest>

#include "RegistryTestSupport.h"
#include "model/StatusErrors.h"

using namespace rvscope;
using registry::WriteOptions;
using testing::configMap;
using testing::mergePatch;
using testing::put;
using testing::run;

namespace {
std::map<std::string, std::string> dataOf(const model::ObjectPtr &object)
{
    std::map<std::string, std::string> data;
    for (const auto &[key, value] : object->json()["data"].items())
        data[key] = value.get<std::string>();
    return data;
}

model::Object withData(model::ObjectPtr read, const std::string &key, const std::string &value)
{
    model::Object copy = *read;
    copy.mutableJson()["data"][key] = value;
    return copy;
}

const std::string CONFLICT_MESSAGE = "Operation cannot be fulfilled on configmaps \"foo\": the object has been "
                                     "modified; please apply your changes to the latest version and try again";
} // namespace

class TestSeedScenarios final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testLostUpdateIsPreventedByResourceVersion();
    void testUnconditionalPutLosesTheOtherWrite();
    void testPatchWithoutResourceVersionNeverConflicts();
    void testPatchWithStaleResourceVersionConflicts();
    void testNoopUpdateKeepsResourceVersionAndSendsNoEvent();
    void testDeletePreconditions_data();
    void testDeletePreconditions();
    void testPutWithForeignUidFailsPrecondition();
    void testConcurrentPatchesRetryInsideStorage();
    void testDryRunUpdateConsumesNothing();
};

void TestSeedScenarios::testLostUpdateIsPreventedByResourceVersion()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("foo"), WriteOptions())).value();

    // Client #1: GET Foo; Client #2: GET Foo (both at rv1).
    const model::ObjectPtr read1 = run(store->get("default", "foo")).value();
    const model::ObjectPtr read2 = run(store->get("default", "foo")).value();
    QCOMPARE(read1->resourceVersion(), read2->resourceVersion());

    // Client #1: PUT bar=one with rv1: wins, rv2.
    auto first = run(store->update("default", "foo", put(withData(read1, "bar", "one")), WriteOptions()));
    QVERIFY(first);
    QVERIFY(first->object->resourceVersion() != read1->resourceVersion());

    // Client #2: PUT baz=two with rv1: 409, and the stored object keeps bar=one.
    auto second = run(store->update("default", "foo", put(withData(read2, "baz", "two")), WriteOptions()));
    QVERIFY(!second);
    QCOMPARE(second.error().code, 409);
    QCOMPARE(second.error().reason, std::string("Conflict"));
    QCOMPARE(second.error().message, CONFLICT_MESSAGE);
    QCOMPARE(second.error().details.name, std::string("foo"));
    QCOMPARE(second.error().details.kind, std::string("configmaps"));
    const model::ObjectPtr stored = run(store->get("default", "foo")).value();
    QCOMPARE(dataOf(stored), (std::map<std::string, std::string>{{"bar", "one"}}));
    QCOMPARE(stored->resourceVersion(), first->object->resourceVersion());
}

void TestSeedScenarios::testUnconditionalPutLosesTheOtherWrite()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("foo"), WriteOptions())).value();
    const model::ObjectPtr read1 = run(store->get("default", "foo")).value();
    const model::ObjectPtr read2 = run(store->get("default", "foo")).value();
    run(store->update("default", "foo", put(withData(read1, "bar", "one")), WriteOptions())).value();

    // Client #2 sends no resourceVersion: ConfigMaps allow unconditional updates, so it wins
    // and client #1's bar=one is silently lost. This is the lost update the GUI shows.
    model::Object blind = withData(read2, "baz", "two");
    blind.setResourceVersion("");
    auto second = run(store->update("default", "foo", put(blind), WriteOptions()));
    QVERIFY(second);
    QCOMPARE(dataOf(second->object), (std::map<std::string, std::string>{{"baz", "two"}}));
    QCOMPARE(dataOf(run(store->get("default", "foo")).value()).count("bar"), std::size_t(0));
}

void TestSeedScenarios::testPatchWithoutResourceVersionNeverConflicts()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("foo"), WriteOptions())).value();
    const model::ObjectPtr stale = run(store->get("default", "foo")).value();
    run(store->update("default", "foo", put(withData(stale, "bar", "one")), WriteOptions())).value();

    // The client still holds `stale`, but a PATCH carries only its change: it is applied to
    // the latest object.
    auto patched = run(store->update("default", "foo", mergePatch(R"({"data":{"baz":"two"}})"), WriteOptions()));
    QVERIFY(patched);
    QCOMPARE(dataOf(patched->object), (std::map<std::string, std::string>{{"bar", "one"}, {"baz", "two"}}));
}

void TestSeedScenarios::testPatchWithStaleResourceVersionConflicts()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("foo"), WriteOptions())).value();
    const model::ObjectPtr stale = run(store->get("default", "foo")).value();
    run(store->update("default", "foo", put(withData(stale, "bar", "one")), WriteOptions())).value();

    const std::string body = R"({"metadata":{"resourceVersion":")" + stale->resourceVersion()
        + R"("},"data":{"baz":"two"}})";
    auto patched = run(store->update("default", "foo", mergePatch(body.c_str()), WriteOptions()));
    QVERIFY(!patched);
    QCOMPARE(patched.error().code, 409);
    QCOMPARE(patched.error().message, CONFLICT_MESSAGE);
    QCOMPARE(dataOf(run(store->get("default", "foo")).value()), (std::map<std::string, std::string>{{"bar", "one"}}));
}

void TestSeedScenarios::testNoopUpdateKeepsResourceVersionAndSendsNoEvent()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    const model::ObjectPtr created =
        run(store->create("default", configMap("foo", "default", {{"a", "1"}}), WriteOptions())).value();
    std::vector<registry::WatchEvent> events;
    registry::ListOptions from;
    from.resourceVersion = created->resourceVersion();
    auto handle = run(store->watch("default", from, [&events](const registry::WatchEvent &e) { events.push_back(e); }));
    QVERIFY(handle);

    auto same = run(store->update("default", "foo", put(*created), WriteOptions()));
    QVERIFY(same);
    QVERIFY(same->noop);
    QCOMPARE(same->object->resourceVersion(), created->resourceVersion());
    auto samePatch = run(store->update("default", "foo", mergePatch(R"({"data":{"a":"1"}})"), WriteOptions()));
    QVERIFY(samePatch->noop);
    QVERIFY(events.empty());

    run(store->update("default", "foo", mergePatch(R"({"data":{"a":"2"}})"), WriteOptions())).value();
    QCOMPARE(events.size(), std::size_t(1));
    QCOMPARE(events[0].type, registry::WatchEventType::Modified);
}

void TestSeedScenarios::testDeletePreconditions_data()
{
    QTest::addColumn<bool>("staleVersion");
    QTest::addColumn<bool>("wrongUid");
    QTest::addColumn<QString>("detail");
    QTest::newRow("stale resourceVersion") << true << false
                                           << "Precondition failed: ResourceVersion in precondition: %1, "
                                              "ResourceVersion in object meta: %2";
    QTest::newRow("wrong uid") << false << true
                               << "Precondition failed: UID in precondition: not-the-uid, UID in object meta: %3";
    QTest::newRow("matching") << false << false << QString();
}

void TestSeedScenarios::testDeletePreconditions()
{
    QFETCH(bool, staleVersion);
    QFETCH(bool, wrongUid);
    QFETCH(QString, detail);
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    const model::ObjectPtr first = run(store->create("default", configMap("foo"), WriteOptions())).value();
    const model::ObjectPtr second =
        run(store->update("default", "foo", mergePatch(R"({"data":{"x":"y"}})"), WriteOptions())).value().object;

    registry::DeleteOptions options;
    if (staleVersion)
        options.preconditions.resourceVersion = first->resourceVersion();
    else
        options.preconditions.resourceVersion = second->resourceVersion();
    options.preconditions.uid = wrongUid ? "not-the-uid" : second->uid();
    auto removed = run(store->remove("default", "foo", options));
    if (detail.isEmpty()) {
        QVERIFY(removed);
        QVERIFY(removed->deleted);
        QCOMPARE(run(store->get("default", "foo")).error().code, 404);
        return;
    }
    QVERIFY(!removed);
    QCOMPARE(removed.error().code, 409);
    QCOMPARE(removed.error().reason, std::string("Conflict"));
    QString filled = detail;
    filled.replace(QStringLiteral("%1"), QString::fromStdString(first->resourceVersion()))
        .replace(QStringLiteral("%2"), QString::fromStdString(second->resourceVersion()))
        .replace(QStringLiteral("%3"), QString::fromStdString(second->uid()));
    const QString expected =
        QStringLiteral("Operation cannot be fulfilled on configmaps \"foo\": StorageError: invalid object, Code: 4, "
                       "Key: /registry/configmaps/default/foo, ResourceVersion: 0, AdditionalErrorMsg: ")
        + filled;
    QCOMPARE(QString::fromStdString(removed.error().message), expected);
    QVERIFY(run(store->get("default", "foo")));
}

void TestSeedScenarios::testPutWithForeignUidFailsPrecondition()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    const model::ObjectPtr created = run(store->create("default", configMap("foo"), WriteOptions())).value();
    model::Object other = *created;
    other.setUid("someone-else");
    auto updated = run(store->update("default", "foo", put(other), WriteOptions()));
    QVERIFY(!updated);
    QCOMPARE(updated.error().code, 409);
    QVERIFY(updated.error().message.find("Precondition failed: UID in precondition: someone-else, UID in object meta: "
                                         + created->uid())
            != std::string::npos);
}

namespace {
QCoro::Task<model::Result<registry::UpdateResponse>> slowPatch(std::shared_ptr<registry::Store> store, std::string key)
{
    auto patch = std::make_shared<registry::PatchObjectInfo>(
        patch::PatchType::MergePatch, nlohmann::json{{"data", {{key, "set"}}}}, "ConfigMap");
    // The lab's server-side delay: the patch waits inside the CAS loop, like behind a webhook.
    auto delayed = std::make_shared<registry::DelayedObjectInfo>(patch, 5);
    co_return co_await store->update("default", "foo", delayed, WriteOptions());
}

QCoro::Task<std::vector<model::Result<registry::UpdateResponse>>> raceSlowPatches(std::shared_ptr<registry::Store> store,
                                                                                 int clients)
{
    std::vector<QCoro::Task<model::Result<registry::UpdateResponse>>> tasks;
    for (int i = 0; i < clients; ++i)
        tasks.push_back(slowPatch(store, "k" + std::to_string(i)));
    std::vector<model::Result<registry::UpdateResponse>> results;
    for (auto &task : tasks)
        results.push_back(co_await std::move(task));
    co_return results;
}
} // namespace

void TestSeedScenarios::testConcurrentPatchesRetryInsideStorage()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("foo"), WriteOptions())).value();
    const int clients = 6;
    auto results = run(raceSlowPatches(store, clients));
    int retries = 0;
    for (const auto &result : results) {
        QVERIFY2(result, result ? "" : result.error().message.c_str()); // never a 409
        retries += result->retries;
    }
    QVERIFY2(retries > 0, "the patches never overlapped");
    const auto data = dataOf(run(store->get("default", "foo")).value());
    QCOMPARE(int(data.size()), clients); // every patch landed: nothing lost, nothing refused
}

void TestSeedScenarios::testDryRunUpdateConsumesNothing()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    const model::ObjectPtr created = run(store->create("default", configMap("foo"), WriteOptions())).value();
    const auto before = run(fixture.storage->currentRevision()).value();
    WriteOptions dryRun;
    dryRun.dryRun = true;
    auto result = run(store->update("default", "foo", mergePatch(R"({"data":{"a":"b"}})"), dryRun));
    QVERIFY(result);
    QCOMPARE(result->object->resourceVersion(), created->resourceVersion());
    QCOMPARE(result->object->json()["data"]["a"], "b");
    QCOMPARE(run(fixture.storage->currentRevision()).value(), before);
    QVERIFY(!run(store->get("default", "foo")).value()->json()["data"].contains("a"));

    // The resourceVersion check runs in a dry run too (kubectl diff relies on it).
    const std::string stale = R"({"metadata":{"resourceVersion":"1"},"data":{"a":"b"}})";
    auto conflict = run(store->update("default", "foo", mergePatch(stale.c_str()), dryRun));
    QVERIFY(!conflict);
    QCOMPARE(conflict.error().code, 409);
}

QTEST_GUILESS_MAIN(TestSeedScenarios)
#include "TestSeedScenarios.moc"
