// SPDX-License-Identifier: MIT
// metadata.managedFields through the REST mapping without sockets: ownership conflicts in
// the journal, JSON patches inside the entries, and lists sent back as clients encode them.
#include <QtTest/QtTest>

#include "ApiTestSupport.h"

using namespace rvscope;
using api::ApiResponse;

namespace {
using Fixture = testing::ApiFixture;

nlohmann::json json(const ApiResponse &response)
{
    return nlohmann::json::parse(response.body, nullptr, false);
}

// A ConfigMap `name` with data.a=1 created by alice's Update.
void createByAlice(Fixture &fixture, const std::string &name)
{
    QCOMPARE(fixture.call("POST", "/api/v1/namespaces/default/configmaps?fieldManager=alice",
                          R"({"metadata":{"name":")" + name + R"("},"data":{"a":"1"}})")
                 .status,
             201);
}
} // namespace

class TestApiManagedFields final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testOwnershipConflictIsJournaledApart();
    void testApplyBodiesTheApiserverCannotReadAreRefused();
    void testJsonPatchReachesInsideManagedFields();
    void testPutCarryingManagedFieldsInGoOrder();
    void testReappliedListChangesOnlyWithOwnershipOrTime();
};

// Fuzzer findings: each threw out of the field manager, through the storage's
// compare-and-swap, and came back as the handler's last-resort 500.
void TestApiManagedFields::testApplyBodiesTheApiserverCannotReadAreRefused()
{
    Fixture fixture;
    const std::string path = "/api/v1/namespaces/default/configmaps/odd?fieldManager=fuzz";
    const std::string apply = "application/apply-patch+yaml";
    const ApiResponse notUtf8 = fixture.call(
        "PATCH", path, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd, finalizers: [\"a\x80\"]}\n", apply);
    QCOMPARE(notUtf8.status, 400);
    QCOMPARE(json(notUtf8)["message"], "error decoding YAML: yaml: invalid leading UTF-8 octet");
    const ApiResponse listAsMetadata =
        fixture.call("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":[]})", apply);
    QCOMPARE(listAsMetadata.status, 500);
    QCOMPARE(json(listAsMetadata)["message"],
             "failed to create typed patch object (/; /v1, Kind=ConfigMap): .metadata: expected map");
    QVERIFY(!json(listAsMetadata).contains("reason")); // apierrors' StatusReasonUnknown
    const ApiResponse huge = fixture.call("PATCH", path,
                                          "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd, labels: {a: 1e999}}\n", apply);
    QCOMPARE(huge.status, 201); // beyond a double, go-yaml keeps the scalar a string
    QCOMPARE(json(huge)["metadata"]["labels"]["a"], "1e999");
}

void TestApiManagedFields::testOwnershipConflictIsJournaledApart()
{
    Fixture fixture;
    const std::string path = "/api/v1/namespaces/default/configmaps/shared";
    const std::string apply = "application/apply-patch+yaml";
    const char *alice = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\ndata: {owner: alice}\n";
    QCOMPARE(fixture.call("PATCH", path + "?fieldManager=alice", alice, apply).status, 201);
    std::vector<api::OperationReport> reports;
    fixture.handler.setObserver([&reports](api::OperationReport &&report) {
        reports.push_back(std::move(report));
        return std::uint64_t(reports.size());
    });
    const ApiResponse refused = fixture.call("PATCH", path + "?fieldManager=bob",
                                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"shared"},
                                                 "data":{"owner":"bob"}})",
                                             apply);
    QCOMPARE(refused.status, 409);
    QCOMPARE(json(refused)["reason"], "Conflict");
    QCOMPARE(json(refused)["message"], R"(Apply failed with 1 conflict: conflict with "alice": .data.owner)");
    QCOMPARE(reports.back().outcome.reason, std::string("FieldManagerConflict"));
    QCOMPARE(reports.back().outcome.message, json(refused)["message"].get<std::string>());
    QVERIFY(reports.back().apply);

    const ApiResponse stale = fixture.call("PUT", path, R"({"metadata":{"name":"shared","resourceVersion":"1"}})");
    QCOMPARE(stale.status, 409);
    QCOMPARE(reports.back().outcome.reason, std::string("Conflict"));

    // A resourceVersion in an apply body is a precondition, as in a PUT.
    const ApiResponse staleApply = fixture.call("PATCH", path + "?fieldManager=alice",
                                                R"({"apiVersion":"v1","kind":"ConfigMap",
                                                    "metadata":{"name":"shared","resourceVersion":"1"},
                                                    "data":{"owner":"alice"}})",
                                                apply);
    QCOMPARE(staleApply.status, 409);
    QVERIFY2(json(staleApply)["message"].get<std::string>().find("the object has been modified") != std::string::npos,
             staleApply.body.c_str());
    QCOMPARE(reports.back().outcome.reason, std::string("Conflict"));
}

void TestApiManagedFields::testJsonPatchReachesInsideManagedFields()
{
    // Stored objects keep their managedFields as raw text; a JSON patch may still test and change
    // what is inside, as on the apiserver, and what it writes back is a tree again.
    Fixture fixture;
    const std::string path = "/api/v1/namespaces/default/configmaps/j";
    createByAlice(fixture, "j");
    const std::string patchType = "application/json-patch+json";
    const ApiResponse tested = fixture.call(
        "PATCH", path,
        R"([{"op":"test","path":"/metadata/managedFields/0/fieldsV1/f:data/f:a","value":{}},
            {"op":"replace","path":"/data/a","value":"2"}])",
        patchType);
    QCOMPARE(tested.status, 200);
    QCOMPARE(json(tested)["data"]["a"], "2");
    QCOMPARE(fixture.call("PATCH", path, R"([{"op":"test","path":"/metadata/managedFields/0/fieldsV1/f:data/f:b","value":{}}])",
                          patchType)
                 .status,
             422);
    // Replacing the entries by a JSON patch (kubectl's client-side to server-side upgrade).
    const ApiResponse replaced = fixture.call(
        "PATCH", path,
        R"([{"op":"replace","path":"/metadata/managedFields","value":[{"manager":"carol","operation":"Apply",
            "apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]}])",
        patchType);
    QCOMPARE(replaced.status, 200);
    const nlohmann::json managed = json(fixture.call("GET", path))["metadata"]["managedFields"];
    QCOMPARE(managed.size(), std::size_t(1));
    QCOMPARE(managed[0]["manager"], "carol");
    QCOMPARE(managed[0]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{"f:a":{}}})"));
}

void TestApiManagedFields::testPutCarryingManagedFieldsInGoOrder()
{
    // kubectl replace sends the list back as Go encodes it (its own key order) and a person
    // may indent it: the same entries, so ownership is unchanged, and the stored list is
    // written compact in the server's order again (objects keep it as one raw text).
    Fixture fixture;
    const std::string path = "/api/v1/namespaces/default/configmaps/g";
    createByAlice(fixture, "g");
    const ApiResponse read = fixture.call("GET", path);
    const std::size_t listAt = read.body.find(R"("managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1")");
    QVERIFY2(listAt != std::string::npos, read.body.c_str());
    const nlohmann::json entry = json(read)["metadata"]["managedFields"][0];
    nlohmann::json object = json(read);
    object["data"]["a"] = "2";
    object["metadata"].erase("managedFields");
    std::string body = object.dump();
    const std::string goOrder = R"("managedFields": [
      {"manager": "alice", "operation": "Update", "apiVersion": "v1", "time": )"
        + entry["time"].dump() + R"(, "fieldsType": "FieldsV1",
       "fieldsV1": {"f:data": {".": {}, "f:a": {}}}}],)";
    body.insert(body.find(R"("metadata":{)") + 12, goOrder);
    const ApiResponse put = fixture.call("PUT", path + "?fieldManager=alice", body);
    QCOMPARE(put.status, 200);
    QVERIFY2(put.body.find(R"("managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1")") != std::string::npos,
             put.body.c_str());
    QCOMPARE(json(put)["metadata"]["managedFields"], nlohmann::json::array({entry}));
    QCOMPARE(json(put)["data"]["a"], "2");
    // The same PUT by another manager moves data.a to it.
    object = json(put);
    object["data"]["a"] = "3";
    const ApiResponse byBob = fixture.call("PUT", path + "?fieldManager=bob", object.dump());
    QCOMPARE(byBob.status, 200);
    const nlohmann::json managers = json(byBob)["metadata"]["managedFields"];
    QCOMPARE(managers.size(), std::size_t(2));
    QCOMPARE(managers[1]["manager"], "bob");
    QCOMPARE(managers[1]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{"f:a":{}}})"));
}


// An apply whose ownership and time are what is stored keeps the stored list (the field
// manager then skips encoding it); anything else about it changes the list.
void TestApiManagedFields::testReappliedListChangesOnlyWithOwnershipOrTime()
{
    Fixture fixture;
    const std::string path = "/api/v1/namespaces/default/configmaps/re?fieldManager=alice";
    const std::string apply = "application/apply-patch+yaml";
    const auto applyData = [&](const char *data) {
        const ApiResponse response = fixture.call(
            "PATCH", path, std::string(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"re"},"data":)") + data + "}",
            apply);
        if (response.status != 200 && response.status != 201)
            qWarning("%s", response.body.c_str());
        return json(response);
    };
    const nlohmann::json first = applyData(R"({"a":"1"})");
    const nlohmann::json &list = first["metadata"]["managedFields"];
    QCOMPARE(list.size(), std::size_t(1));
    QCOMPARE(list[0]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{"f:a":{}}})"));

    const nlohmann::json sameSecond = applyData(R"({"a":"2"})");
    QCOMPARE(sameSecond["data"]["a"], "2");
    QCOMPARE(sameSecond["metadata"]["managedFields"], list);

    fixture.registryFixture.now = "2026-11-21T10:00:07Z";
    const nlohmann::json later = applyData(R"({"a":"3"})");
    QCOMPARE(later["metadata"]["managedFields"][0]["time"], "2026-11-21T10:00:07Z");
    QCOMPARE(later["metadata"]["managedFields"][0]["fieldsV1"], list[0]["fieldsV1"]);

    const nlohmann::json more = applyData(R"({"a":"3","b":"x"})");
    QCOMPARE(more["metadata"]["managedFields"][0]["fieldsV1"],
             nlohmann::json::parse(R"({"f:data":{"f:a":{},"f:b":{}}})"));
    const nlohmann::json fewer = applyData(R"({"b":"x"})");
    QCOMPARE(fewer["data"], nlohmann::json::parse(R"({"b":"x"})"));
    QCOMPARE(fewer["metadata"]["managedFields"][0]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{"f:b":{}}})"));
    const nlohmann::json stored =
        json(fixture.call("GET", "/api/v1/namespaces/default/configmaps/re"))["metadata"]["managedFields"];
    QCOMPARE(stored, fewer["metadata"]["managedFields"]);
}

QTEST_GUILESS_MAIN(TestApiManagedFields)
#include "TestApiManagedFields.moc"
