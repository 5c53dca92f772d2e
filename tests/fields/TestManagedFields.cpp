// SPDX-License-Identifier: MIT
// managedFields: Update and Apply ownership, conflicts, force, shared ownership, pruning and
// the takeover by an Update (shared/reference/server-side-apply.md §5, §6).
#include <QtTest/QtTest>

#include "fields/ManagedFields.h"
#include "fields/ObjectFields.h"
#include "model/Status.h"

using namespace rvscope;
using fields::FieldSchema;
using fields::ManagerEntry;
using fields::Writer;
using nlohmann::json;

namespace {
const FieldSchema CONFIGMAPS = FieldSchema::forKind("ConfigMap", false);

json configMap(const json &data)
{
    return json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "settings"}, {"namespace", "default"}}},
                {"data", data}};
}

Writer writer(const std::string &manager, const std::string &now = "2026-11-26T10:00:00Z")
{
    return Writer{manager, "v1", "", now};
}

const ManagerEntry *find(const std::vector<ManagerEntry> &entries, const std::string &manager)
{
    for (const ManagerEntry &entry : entries) {
        if (entry.manager == manager)
            return &entry;
    }
    return nullptr;
}

json owned(const std::vector<ManagerEntry> &entries, const std::string &manager)
{
    const ManagerEntry *entry = find(entries, manager);
    return entry ? entry->fields.toFieldsV1() : json();
}
} // namespace

class TestManagedFields final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCreateAndLabelAreUpdates();
    void testUntrackedObjectStaysUntracked();
    void testFirstApplyToAnUntrackedObject();
    void testUpdateManagersAreCappedAtTen();
    void testApplyCreatesAndConflicts();
    void testForceTakesOwnership();
    void testConflictMessageReadsBack();
    void testSameValueSharesOwnership();
    void testStoppedFieldIsRemovedUnlessSomeoneElseOwnsIt();
    void testUpdateTakesAnAppliersFieldSilently();
    void testSeveralConflictsMessage();
    void testEncodeOrderAndDecode();
};

void TestManagedFields::testCreateAndLabelAreUpdates()
{
    const json created = configMap({{"a", "1"}});
    auto entries = fields::recordUpdate({}, json(), created, writer("kubectl-create"), CONFIGMAPS);
    QCOMPARE(entries.size(), std::size_t(1));
    QCOMPARE(entries[0].operation, std::string("Update"));
    QCOMPARE(entries[0].time, std::string("2026-11-26T10:00:00Z"));
    QCOMPARE(owned(entries, "kubectl-create"), json::parse(R"({"f:data":{".":{},"f:a":{}}})"));

    json labelled = created;
    labelled["metadata"]["labels"] = {{"env", "prod"}};
    entries = fields::recordUpdate(entries, created, labelled, writer("kubectl-label"), CONFIGMAPS);
    QCOMPARE(owned(entries, "kubectl-label"), json::parse(R"({"f:metadata":{"f:labels":{".":{},"f:env":{}}}})"));
    QCOMPARE(owned(entries, "kubectl-create"), json::parse(R"({"f:data":{".":{},"f:a":{}}})"));

    // A write that changes nothing records nothing and bumps no time.
    const auto unchanged = fields::recordUpdate(entries, labelled, labelled, writer("kubectl-replace", "2030-01-01T00:00:00Z"),
                                                CONFIGMAPS);
    QVERIFY(!find(unchanged, "kubectl-replace"));
}

void TestManagedFields::testUntrackedObjectStaysUntracked()
{
    const json before = configMap({{"a", "1"}});
    const auto entries = fields::recordUpdate({}, before, configMap({{"a", "2"}}), writer("kubectl-edit"), CONFIGMAPS);
    QVERIFY(entries.empty());
}

void TestManagedFields::testFirstApplyToAnUntrackedObject()
{
    // What was there before the first apply is "before-first-apply"'s, and the apply can
    // conflict with it; the create of an object by apply makes no such entry.
    const json live = configMap({{"a", "1"}, {"b", "2"}});
    const auto refused = fields::apply(live, configMap({{"a", "9"}}), {}, writer("alice"), false, CONFIGMAPS);
    QCOMPARE(fields::conflictStatus(refused.conflicts).message,
             std::string(R"(Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a)"));
    const auto shared = fields::apply(live, configMap({{"a", "1"}}), {}, writer("alice"), false, CONFIGMAPS);
    QVERIFY(shared.conflicts.empty());
    QCOMPARE(owned(shared.entries, "before-first-apply"), json::parse(R"({"f:data":{".":{},"f:a":{},"f:b":{}}})"));
    QCOMPARE(find(shared.entries, "before-first-apply")->operation, std::string("Update"));
    QCOMPARE(owned(shared.entries, "alice"), json::parse(R"({"f:data":{"f:a":{}}})"));
    const auto created = fields::apply(json(), configMap({{"a", "1"}}), {}, writer("alice"), false, CONFIGMAPS);
    QVERIFY(!find(created.entries, "before-first-apply"));
}

void TestManagedFields::testUpdateManagersAreCappedAtTen()
{
    // Twelve updaters, one field each, a second apart: the three oldest fold into
    // "ancient-changes" (the first of the apiVersion becomes the bucket, the next two join
    // it), which takes the time of the last one merged; the applier is never counted.
    json object = configMap(json::object());
    auto entries = fields::apply(json(), configMap({{"applied", "x"}}), {}, writer("applier"), false, CONFIGMAPS).entries;
    object["data"]["applied"] = "x";
    for (int i = 1; i <= 12; ++i) {
        json next = object;
        const std::string key = "k" + std::to_string(100 + i);
        next["data"][key] = "v";
        char time[32];
        std::snprintf(time, sizeof time, "2026-11-26T10:00:%02dZ", i);
        entries = fields::recordUpdate(entries, object, next, writer("m" + std::to_string(100 + i), time), CONFIGMAPS);
        object = next;
    }
    int updaters = 0;
    for (const ManagerEntry &entry : entries)
        updaters += entry.operation == "Update";
    QCOMPARE(updaters, 10);
    QVERIFY(find(entries, "applier"));
    QVERIFY(!find(entries, "m101") && !find(entries, "m102") && !find(entries, "m103"));
    QCOMPARE(owned(entries, "ancient-changes"), json::parse(R"({"f:data":{"f:k101":{},"f:k102":{},"f:k103":{}}})"));
    QCOMPARE(find(entries, "ancient-changes")->time, std::string("2026-11-26T10:00:03Z"));
    QCOMPARE(owned(entries, "m104"), json::parse(R"({"f:data":{"f:k104":{}}})"));
}

void TestManagedFields::testApplyCreatesAndConflicts()
{
    const json alice = configMap({{"owner", "alice"}});
    auto first = fields::apply(json(), alice, {}, writer("alice"), false, CONFIGMAPS);
    QVERIFY(first.conflicts.empty());
    QCOMPARE(first.object["data"]["owner"], "alice");
    QCOMPARE(owned(first.entries, "alice"), json::parse(R"({"f:data":{"f:owner":{}}})"));
    QCOMPARE(first.entries[0].operation, std::string("Apply"));

    const auto refused = fields::apply(first.object, configMap({{"owner", "bob"}}), first.entries, writer("bob"), false,
                                       CONFIGMAPS);
    QCOMPARE(refused.conflicts.size(), std::size_t(1));
    QCOMPARE(refused.object, first.object); // nothing changes
    const model::Status status = fields::conflictStatus(refused.conflicts);
    QCOMPARE(status.code, 409);
    QCOMPARE(status.reason, std::string("Conflict"));
    QCOMPARE(status.message, std::string(R"(Apply failed with 1 conflict: conflict with "alice": .data.owner)"));
    QCOMPARE(status.details.causes.size(), std::size_t(1));
    QCOMPARE(status.details.causes[0].type, std::string("FieldManagerConflict"));
    QCOMPARE(status.details.causes[0].message, std::string(R"(conflict with "alice")"));
    QCOMPARE(status.details.causes[0].field, std::string(".data.owner"));
}

void TestManagedFields::testConflictMessageReadsBack()
{
    auto alice = fields::apply(json(), configMap({{"a", "1"}, {"c", "3"}}), {}, writer("alice"), false, CONFIGMAPS);
    auto bob = fields::apply(alice.object, configMap({{"b", "2"}}), alice.entries, writer("bob"), false, CONFIGMAPS);
    const auto carol = fields::apply(bob.object, configMap({{"a", "x"}, {"b", "y"}, {"c", "z"}}), bob.entries,
                                     writer("carol"), false, CONFIGMAPS);
    const std::string message = fields::conflictStatus(carol.conflicts).message;
    QCOMPARE(message, std::string("Apply failed with 3 conflicts: conflicts with \"alice\":\n- .data.a\n- .data.c\n"
                                  "conflicts with \"bob\":\n- .data.b"));
    const auto parsed = fields::parseConflictMessage(message);
    QCOMPARE(parsed.size(), std::size_t(2));
    QCOMPARE(parsed[0].manager, std::string("\"alice\""));
    QCOMPARE(parsed[0].paths, (std::vector<std::string>{".data.a", ".data.c"}));
    QCOMPARE(parsed[1].manager, std::string("\"bob\""));
    QCOMPARE(parsed[1].paths, (std::vector<std::string>{".data.b"}));

    const auto one = fields::parseConflictMessage(R"(Apply failed with 1 conflict: conflict with "setup" using v1: .data.counter)");
    QCOMPARE(one.size(), std::size_t(1));
    QCOMPARE(one[0].manager, std::string(R"("setup" using v1)"));
    QCOMPARE(one[0].paths, (std::vector<std::string>{".data.counter"}));
    QVERIFY(fields::parseConflictMessage("Operation cannot be fulfilled on configmaps \"x\": the object has been modified")
                .empty());
}

void TestManagedFields::testForceTakesOwnership()
{
    auto first = fields::apply(json(), configMap({{"owner", "alice"}, {"color", "red"}}), {}, writer("alice"), false,
                               CONFIGMAPS);
    auto forced = fields::apply(first.object, configMap({{"owner", "bob"}}), first.entries, writer("bob"), true, CONFIGMAPS);
    QVERIFY(forced.conflicts.empty());
    QCOMPARE(forced.object["data"]["owner"], "bob");
    QCOMPARE(owned(forced.entries, "bob"), json::parse(R"({"f:data":{"f:owner":{}}})"));
    QCOMPARE(owned(forced.entries, "alice"), json::parse(R"({"f:data":{"f:color":{}}})"));
}

void TestManagedFields::testSameValueSharesOwnership()
{
    auto first = fields::apply(json(), configMap({{"owner", "alice"}}), {}, writer("alice"), false, CONFIGMAPS);
    auto shared = fields::apply(first.object, configMap({{"owner", "alice"}}), first.entries, writer("bob"), false,
                                CONFIGMAPS);
    QVERIFY(shared.conflicts.empty());
    QCOMPARE(owned(shared.entries, "alice"), json::parse(R"({"f:data":{"f:owner":{}}})"));
    QCOMPARE(owned(shared.entries, "bob"), json::parse(R"({"f:data":{"f:owner":{}}})"));
    QVERIFY(find(shared.entries, "bob")->time.empty()); // the object did not change
    // Now either one changing it conflicts with the other.
    const auto refused = fields::apply(shared.object, configMap({{"owner", "carol"}}), shared.entries, writer("alice"),
                                       false, CONFIGMAPS);
    QCOMPARE(fields::conflictStatus(refused.conflicts).message,
             std::string(R"(Apply failed with 1 conflict: conflict with "bob": .data.owner)"));
}

void TestManagedFields::testStoppedFieldIsRemovedUnlessSomeoneElseOwnsIt()
{
    auto first = fields::apply(json(), configMap({{"a", "1"}, {"b", "2"}}), {}, writer("alice"), false, CONFIGMAPS);
    auto bob = fields::apply(first.object, configMap({{"b", "2"}}), first.entries, writer("bob"), false, CONFIGMAPS);
    json nothing = configMap(json::object());
    nothing.erase("data"); // (`data: {}` would claim the map itself)
    auto fewer = fields::apply(bob.object, nothing, bob.entries, writer("alice"), false, CONFIGMAPS);
    QVERIFY(fewer.conflicts.empty());
    QVERIFY(!fewer.object["data"].contains("a")); // only alice had it: gone
    QCOMPARE(fewer.object["data"]["b"], "2");     // bob shares it: kept, now his alone
    QVERIFY(!find(fewer.entries, "alice"));
    QCOMPARE(owned(fewer.entries, "bob"), json::parse(R"({"f:data":{"f:b":{}}})"));
}

void TestManagedFields::testUpdateTakesAnAppliersFieldSilently()
{
    auto applied = fields::apply(json(), configMap({{"owner", "alice"}}), {}, writer("alice"), false, CONFIGMAPS);
    json edited = applied.object;
    edited["data"]["owner"] = "mallory";
    const auto entries = fields::recordUpdate(applied.entries, applied.object, edited, writer("kubectl-edit"), CONFIGMAPS);
    QCOMPARE(owned(entries, "kubectl-edit"), json::parse(R"({"f:data":{"f:owner":{}}})"));
    QVERIFY(!find(entries, "alice")); // its only field was taken
}

void TestManagedFields::testSeveralConflictsMessage()
{
    auto alice = fields::apply(json(), configMap({{"a", "1"}, {"b", "1"}}), {}, writer("alice"), false, CONFIGMAPS);
    json labelled = alice.object;
    labelled["data"]["c"] = "1";
    auto entries = fields::recordUpdate(alice.entries, alice.object, labelled, writer("hpa"), CONFIGMAPS);
    const auto refused = fields::apply(labelled, configMap({{"a", "2"}, {"b", "2"}, {"c", "2"}}), entries, writer("bob"),
                                       false, CONFIGMAPS);
    QCOMPARE(refused.conflicts.size(), std::size_t(3));
    QCOMPARE(fields::conflictStatus(refused.conflicts).message,
             std::string("Apply failed with 3 conflicts: conflicts with \"alice\":\n- .data.a\n- .data.b\n"
                         "conflicts with \"hpa\" using v1:\n- .data.c"));
}

void TestManagedFields::testEncodeOrderAndDecode()
{
    auto applied = fields::apply(json(), configMap({{"a", "1"}}), {}, writer("zed"), false, CONFIGMAPS);
    json changed = applied.object;
    changed["data"]["b"] = "2";
    auto entries = fields::recordUpdate(applied.entries, applied.object, changed, writer("able", "2026-11-26T09:00:00Z"),
                                        CONFIGMAPS);
    const json encoded = fields::encodeManagedFields(entries);
    QCOMPARE(encoded.size(), std::size_t(2));
    QCOMPARE(encoded[0]["operation"], "Apply"); // Apply before Update, whatever the names and times
    QCOMPARE(encoded[1]["manager"], "able");
    QCOMPARE(encoded[1]["fieldsType"], "FieldsV1");
    const auto decoded = fields::decodeManagedFields(encoded);
    QVERIFY(decoded);
    QCOMPARE(fields::encodeManagedFields(*decoded), encoded);
    QVERIFY(!fields::decodeManagedFields(json::parse(R"([{"manager":"x","operation":"Bogus","apiVersion":"v1",
      "fieldsType":"FieldsV1","fieldsV1":{}}])")));
    QVERIFY(fields::decodeManagedFields(json())->empty());
}

QTEST_GUILESS_MAIN(TestManagedFields)
#include "TestManagedFields.moc"
