// SPDX-License-Identifier: MIT
#include <QTest>

#include "PatchTestSupport.h"
#include "model/Status.h"
#include "patch/JsonPatch.h"

using nlohmann::json;
using rvscope::patch::applyJsonPatch;
using rvscope::patch::test::parsed;

namespace {
const QByteArray REJECTED_MESSAGE = "the server rejected our request due to an error in our request";
}

class TestJsonPatch final : public QObject {
    Q_OBJECT

private slots:
    void appliesOperations_data();
    void appliesOperations();
    void rejectsUnapplicableOperationsWith422_data();
    void rejectsUnapplicableOperationsWith422();
    void rejectsMalformedPatchesWith400_data();
    void rejectsMalformedPatchesWith400();
    void rejectionIsTheApiserversGenericInvalidStatus();
    void malformedPatchIsRejectedBeforeAnyOperationRuns();
    void failedPatchReturnsNoPartialResult();
    void acceptsTenThousandOperationsAndRejectsMoreWith413();
    void nullValueIsAValueNotAMissingOne();
    void kubectlJsonPatchOnConfigMap();
};

void TestJsonPatch::appliesOperations_data()
{
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");

    // RFC 6902 appendix A, the examples that succeed.
    QTest::newRow("A.1 add object member")
        << QByteArray(R"({"foo":"bar"})") << QByteArray(R"([{"op":"add","path":"/baz","value":"qux"}])")
        << QByteArray(R"({"baz":"qux","foo":"bar"})");
    QTest::newRow("A.2 add array element")
        << QByteArray(R"({"foo":["bar","baz"]})")
        << QByteArray(R"([{"op":"add","path":"/foo/1","value":"qux"}])")
        << QByteArray(R"({"foo":["bar","qux","baz"]})");
    QTest::newRow("A.3 remove object member")
        << QByteArray(R"({"baz":"qux","foo":"bar"})") << QByteArray(R"([{"op":"remove","path":"/baz"}])")
        << QByteArray(R"({"foo":"bar"})");
    QTest::newRow("A.4 remove array element")
        << QByteArray(R"({"foo":["bar","qux","baz"]})") << QByteArray(R"([{"op":"remove","path":"/foo/1"}])")
        << QByteArray(R"({"foo":["bar","baz"]})");
    QTest::newRow("A.5 replace value")
        << QByteArray(R"({"baz":"qux","foo":"bar"})")
        << QByteArray(R"([{"op":"replace","path":"/baz","value":"boo"}])")
        << QByteArray(R"({"baz":"boo","foo":"bar"})");
    QTest::newRow("A.6 move value")
        << QByteArray(R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})")
        << QByteArray(R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])")
        << QByteArray(R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})");
    QTest::newRow("A.7 move array element")
        << QByteArray(R"({"foo":["all","grass","cows","eat"]})")
        << QByteArray(R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])")
        << QByteArray(R"({"foo":["all","cows","eat","grass"]})");
    QTest::newRow("A.8 test success")
        << QByteArray(R"({"baz":"qux","foo":["a",2,"c"]})")
        << QByteArray(R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])")
        << QByteArray(R"({"baz":"qux","foo":["a",2,"c"]})");
    QTest::newRow("A.10 add nested member object")
        << QByteArray(R"({"foo":"bar"})")
        << QByteArray(R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])")
        << QByteArray(R"({"foo":"bar","child":{"grandchild":{}}})");
    QTest::newRow("A.11 unrecognized members are ignored")
        << QByteArray(R"({"foo":"bar"})")
        << QByteArray(R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])")
        << QByteArray(R"({"foo":"bar","baz":"qux"})");
    QTest::newRow("A.14 ~01 is ~1, not /")
        << QByteArray(R"({"/":9,"~1":10})") << QByteArray(R"([{"op":"test","path":"/~01","value":10}])")
        << QByteArray(R"({"/":9,"~1":10})");
    QTest::newRow("A.16 add array value with -")
        << QByteArray(R"({"foo":["bar"]})")
        << QByteArray(R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])")
        << QByteArray(R"({"foo":["bar",["abc","def"]]})");

    QTest::newRow("add at index == size appends")
        << QByteArray(R"({"a":[1,2]})") << QByteArray(R"([{"op":"add","path":"/a/2","value":3}])")
        << QByteArray(R"({"a":[1,2,3]})");
    QTest::newRow("add at index 0 of an empty array")
        << QByteArray(R"({"a":[]})") << QByteArray(R"([{"op":"add","path":"/a/0","value":"x"}])")
        << QByteArray(R"({"a":["x"]})");
    QTest::newRow("add replaces an existing member")
        << QByteArray(R"({"a":{"b":1}})") << QByteArray(R"([{"op":"add","path":"/a","value":[true]}])")
        << QByteArray(R"({"a":[true]})");
    QTest::newRow("add with an empty path replaces the document")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"add","path":"","value":{"b":2}}])")
        << QByteArray(R"({"b":2})");
    QTest::newRow("replace with an empty path replaces the document")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"replace","path":"","value":[1]}])")
        << QByteArray(R"([1])");
    QTest::newRow("remove the last array element")
        << QByteArray(R"({"a":[1,2,3]})") << QByteArray(R"([{"op":"remove","path":"/a/2"}])")
        << QByteArray(R"({"a":[1,2]})");
    QTest::newRow("replace an array element")
        << QByteArray(R"({"a":[1,2,3]})") << QByteArray(R"([{"op":"replace","path":"/a/0","value":"x"}])")
        << QByteArray(R"({"a":["x",2,3]})");
    QTest::newRow("copy an object member")
        << QByteArray(R"({"a":{"x":[1]},"b":{}})")
        << QByteArray(R"([{"op":"copy","from":"/a/x","path":"/b/y"}])")
        << QByteArray(R"({"a":{"x":[1]},"b":{"y":[1]}})");
    QTest::newRow("copy an array element to the end")
        << QByteArray(R"({"a":["p","q"]})") << QByteArray(R"([{"op":"copy","from":"/a/0","path":"/a/-"}])")
        << QByteArray(R"({"a":["p","q","p"]})");
    QTest::newRow("copied value is independent of its source")
        << QByteArray(R"({"a":{"x":1}})")
        << QByteArray(R"([{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b/x","value":2}])")
        << QByteArray(R"({"a":{"x":1},"b":{"x":2}})");
    QTest::newRow("move to the same path is a no-op")
        << QByteArray(R"({"a":{"b":1}})") << QByteArray(R"([{"op":"move","from":"/a/b","path":"/a/b"}])")
        << QByteArray(R"({"a":{"b":1}})");
    QTest::newRow("move a member to the top level")
        << QByteArray(R"({"a":{"b":{"c":1}}})") << QByteArray(R"([{"op":"move","from":"/a/b","path":"/c"}])")
        << QByteArray(R"({"a":{},"c":{"c":1}})");
    QTest::newRow("test compares numbers by value")
        << QByteArray(R"({"n":1})") << QByteArray(R"([{"op":"test","path":"/n","value":1.0}])")
        << QByteArray(R"({"n":1})");
    QTest::newRow("test compares objects regardless of member order")
        << QByteArray(R"({"o":{"a":1,"b":[1,{"c":null}]}})")
        << QByteArray(R"([{"op":"test","path":"/o","value":{"b":[1,{"c":null}],"a":1}}])")
        << QByteArray(R"({"o":{"a":1,"b":[1,{"c":null}]}})");
    QTest::newRow("test on the whole document")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"test","path":"","value":{"a":1}}])")
        << QByteArray(R"({"a":1})");
    QTest::newRow("~1 addresses a key containing / (annotation keys)")
        << QByteArray(R"({"metadata":{"annotations":{"example.com/owner":"a"}}})")
        << QByteArray(R"([{"op":"replace","path":"/metadata/annotations/example.com~1owner","value":"b"}])")
        << QByteArray(R"({"metadata":{"annotations":{"example.com/owner":"b"}}})");
    QTest::newRow("~0 addresses a key containing ~")
        << QByteArray(R"({"a~b":1})") << QByteArray(R"([{"op":"remove","path":"/a~0b"}])")
        << QByteArray(R"({})");
    QTest::newRow("a numeric token is a member name inside an object")
        << QByteArray(R"({"data":{"0":"zero"}})") << QByteArray(R"([{"op":"replace","path":"/data/0","value":"nil"}])")
        << QByteArray(R"({"data":{"0":"nil"}})");
    QTest::newRow("/ addresses the empty member name")
        << QByteArray(R"({"":1,"a":2})") << QByteArray(R"([{"op":"remove","path":"/"}])")
        << QByteArray(R"({"a":2})");
    QTest::newRow("operations see the results of earlier ones")
        << QByteArray(R"({})")
        << QByteArray(R"([{"op":"add","path":"/a","value":{}},{"op":"add","path":"/a/b","value":[]},)"
                      R"({"op":"add","path":"/a/b/-","value":1},{"op":"test","path":"/a/b/0","value":1},)"
                      R"({"op":"move","from":"/a/b","path":"/c"},{"op":"remove","path":"/a"}])")
        << QByteArray(R"({"c":[1]})");
    QTest::newRow("an empty patch changes nothing")
        << QByteArray(R"({"a":1})") << QByteArray("[]") << QByteArray(R"({"a":1})");
    QTest::newRow("the document may be an array")
        << QByteArray(R"([1,2])") << QByteArray(R"([{"op":"remove","path":"/0"}])") << QByteArray("[2]");
}

void TestJsonPatch::appliesOperations()
{
    QFETCH(QByteArray, document);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);

    const json original = parsed(document);
    const rvscope::model::Result<json> result = applyJsonPatch(original, parsed(patch));
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    COMPARE_JSON(*result, parsed(expected));
    COMPARE_JSON(original, parsed(document));
}

void TestJsonPatch::rejectsUnapplicableOperationsWith422_data()
{
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QByteArray>("patch");

    QTest::newRow("A.9 test failure")
        << QByteArray(R"({"baz":"qux","foo":["a",2,"c"]})")
        << QByteArray(R"([{"op":"test","path":"/baz","value":"bar"}])");
    QTest::newRow("A.12 add to a nonexistent target")
        << QByteArray(R"({"foo":"bar"})") << QByteArray(R"([{"op":"add","path":"/baz/bat","value":"qux"}])");
    QTest::newRow("A.15 test: string is not number")
        << QByteArray(R"({"/":9,"~1":10})") << QByteArray(R"([{"op":"test","path":"/~01","value":"10"}])");
    QTest::newRow("test: null is not a missing member")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"test","path":"/b","value":null}])");
    QTest::newRow("test: array order matters")
        << QByteArray(R"({"a":[1,2]})") << QByteArray(R"([{"op":"test","path":"/a","value":[2,1]}])");
    QTest::newRow("remove a missing member")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"remove","path":"/b"}])");
    QTest::newRow("remove an index past the end")
        << QByteArray(R"({"a":[1]})") << QByteArray(R"([{"op":"remove","path":"/a/1"}])");
    QTest::newRow("remove -")
        << QByteArray(R"({"a":[1]})") << QByteArray(R"([{"op":"remove","path":"/a/-"}])");
    QTest::newRow("remove the document root")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"remove","path":""}])");
    QTest::newRow("replace a missing member")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"replace","path":"/b","value":2}])");
    QTest::newRow("replace -")
        << QByteArray(R"({"a":[1]})") << QByteArray(R"([{"op":"replace","path":"/a/-","value":2}])");
    QTest::newRow("add at an index past the end")
        << QByteArray(R"({"a":[1]})") << QByteArray(R"([{"op":"add","path":"/a/2","value":2}])");
    QTest::newRow("add at an index with a leading zero")
        << QByteArray(R"({"a":[1,2]})") << QByteArray(R"([{"op":"add","path":"/a/01","value":2}])");
    QTest::newRow("add at a negative index")
        << QByteArray(R"({"a":[1,2]})") << QByteArray(R"([{"op":"add","path":"/a/-1","value":2}])");
    QTest::newRow("add at a non-numeric index")
        << QByteArray(R"({"a":[1,2]})") << QByteArray(R"([{"op":"add","path":"/a/x","value":2}])");
    QTest::newRow("add below a scalar")
        << QByteArray(R"({"a":"text"})") << QByteArray(R"([{"op":"add","path":"/a/b","value":2}])");
    QTest::newRow("path through a scalar")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"replace","path":"/a/b/c","value":2}])");
    QTest::newRow("move from a missing member")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"move","from":"/b","path":"/c"}])");
    QTest::newRow("move into one of its own children")
        << QByteArray(R"({"a":{"b":{}}})") << QByteArray(R"([{"op":"move","from":"/a","path":"/a/b/c"}])");
    QTest::newRow("move the root into a child")
        << QByteArray(R"({"a":{}})") << QByteArray(R"([{"op":"move","from":"","path":"/a/b"}])");
    QTest::newRow("move to a missing parent")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"move","from":"/a","path":"/x/y"}])");
    QTest::newRow("copy from a missing member")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"copy","from":"/b","path":"/c"}])");
    QTest::newRow("copy to a missing parent")
        << QByteArray(R"({"a":1})") << QByteArray(R"([{"op":"copy","from":"/a","path":"/x/y"}])");
    QTest::newRow("a later operation fails")
        << QByteArray(R"({"a":1})")
        << QByteArray(R"([{"op":"add","path":"/b","value":2},{"op":"test","path":"/b","value":3}])");
}

void TestJsonPatch::rejectsUnapplicableOperationsWith422()
{
    QFETCH(QByteArray, document);
    QFETCH(QByteArray, patch);

    const rvscope::model::Result<json> result = applyJsonPatch(parsed(document), parsed(patch));
    VERIFY_STATUS(result, 422, "Invalid");
    QCOMPARE(QByteArray::fromStdString(result.error().message), REJECTED_MESSAGE);
}

void TestJsonPatch::rejectsMalformedPatchesWith400_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("message"); // empty: any message

    QTest::newRow("an object, not an array")
        << QByteArray(R"({"op":"add","path":"/a","value":1})")
        << QByteArray("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    QTest::newRow("a string") << QByteArray(R"("add")")
                              << QByteArray("json: cannot unmarshal string into Go value of type jsonpatch.Patch");
    QTest::newRow("null") << QByteArray("null") << QByteArray();
    QTest::newRow("an element that is not an object")
        << QByteArray(R"([{"op":"test","path":"","value":{}},1])")
        << QByteArray("json: cannot unmarshal number into Go value of type jsonpatch.Operation");
    QTest::newRow("op missing") << QByteArray(R"([{"path":"/a","value":1}])") << QByteArray();
    QTest::newRow("op not a string") << QByteArray(R"([{"op":1,"path":"/a","value":1}])") << QByteArray();
    QTest::newRow("unknown op") << QByteArray(R"([{"op":"append","path":"/a","value":1}])") << QByteArray();
    QTest::newRow("op names are case-sensitive") << QByteArray(R"([{"op":"Add","path":"/a","value":1}])")
                                                 << QByteArray();
    QTest::newRow("path missing") << QByteArray(R"([{"op":"remove"}])") << QByteArray();
    QTest::newRow("path not a string") << QByteArray(R"([{"op":"remove","path":["a"]}])") << QByteArray();
    QTest::newRow("path without a leading /") << QByteArray(R"([{"op":"remove","path":"a/b"}])") << QByteArray();
    QTest::newRow("path with ~ followed by 2") << QByteArray(R"([{"op":"remove","path":"/a~2"}])")
                                               << QByteArray();
    QTest::newRow("path ending in ~") << QByteArray(R"([{"op":"remove","path":"/a~"}])") << QByteArray();
    QTest::newRow("move without from") << QByteArray(R"([{"op":"move","path":"/a"}])") << QByteArray();
    QTest::newRow("copy without from") << QByteArray(R"([{"op":"copy","path":"/a"}])") << QByteArray();
    QTest::newRow("from with bad syntax") << QByteArray(R"([{"op":"copy","from":"a","path":"/b"}])")
                                          << QByteArray();
    QTest::newRow("add without value") << QByteArray(R"([{"op":"add","path":"/a"}])") << QByteArray();
    QTest::newRow("replace without value") << QByteArray(R"([{"op":"replace","path":"/a"}])") << QByteArray();
    QTest::newRow("test without value") << QByteArray(R"([{"op":"test","path":"/a"}])") << QByteArray();
}

void TestJsonPatch::rejectsMalformedPatchesWith400()
{
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, message);

    const rvscope::model::Result<json> result = applyJsonPatch(parsed(R"({"a":1})"), parsed(patch));
    VERIFY_STATUS(result, 400, "BadRequest");
    QVERIFY(!result.error().message.empty());
    if (!message.isEmpty())
        QCOMPARE(QByteArray::fromStdString(result.error().message), message);
}

void TestJsonPatch::rejectionIsTheApiserversGenericInvalidStatus()
{
    const rvscope::model::Result<json> result =
        applyJsonPatch(parsed(R"({"a":1})"), parsed(R"([{"op":"test","path":"/a","value":2}])"));
    QVERIFY(!result.ok());
    // Exactly what errors.NewGenericServerResponse(422, ...) serializes to: no details at all.
    COMPARE_JSON(result.error().toJson(),
                 parsed(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                        R"("message":"the server rejected our request due to an error in our request",)"
                        R"("reason":"Invalid","code":422})"));
}

void TestJsonPatch::malformedPatchIsRejectedBeforeAnyOperationRuns()
{
    // The first operation would fail with 422, the second is malformed: the whole document
    // is decoded first, so the answer is 400.
    const rvscope::model::Result<json> result = applyJsonPatch(
        parsed(R"({"a":1})"), parsed(R"([{"op":"test","path":"/a","value":2},{"path":"/a"}])"));
    VERIFY_STATUS(result, 400, "BadRequest");
}

void TestJsonPatch::failedPatchReturnsNoPartialResult()
{
    const json document = parsed(R"({"a":1,"list":[1,2]})");
    const rvscope::model::Result<json> result = applyJsonPatch(
        document, parsed(R"([{"op":"remove","path":"/list/0"},{"op":"add","path":"/b","value":2},)"
                         R"({"op":"remove","path":"/missing"}])"));
    VERIFY_STATUS(result, 422, "Invalid");
    COMPARE_JSON(document, parsed(R"({"a":1,"list":[1,2]})"));
}

void TestJsonPatch::acceptsTenThousandOperationsAndRejectsMoreWith413()
{
    const json document = parsed(R"({"a":1})");
    json patch = json::array();
    for (std::size_t i = 0; i < rvscope::patch::MAX_JSON_PATCH_OPERATIONS; ++i)
        patch.push_back({{"op", "test"}, {"path", "/a"}, {"value", 1}});
    QCOMPARE(patch.size(), std::size_t(10000));
    const rvscope::model::Result<json> accepted = applyJsonPatch(document, patch);
    QVERIFY(accepted.ok());
    COMPARE_JSON(*accepted, document);

    patch.push_back({{"op", "test"}, {"path", "/a"}, {"value", 1}});
    const rvscope::model::Result<json> rejected = applyJsonPatch(document, patch);
    VERIFY_STATUS(rejected, 413, "RequestEntityTooLarge");
    QCOMPARE(QByteArray::fromStdString(rejected.error().message),
             QByteArray("Request entity too large: The allowed maximum operations in a JSON patch is "
                        "10000, got 10001"));
}

void TestJsonPatch::nullValueIsAValueNotAMissingOne()
{
    const rvscope::model::Result<json> result = applyJsonPatch(
        parsed(R"({"a":1})"),
        parsed(R"([{"op":"add","path":"/b","value":null},{"op":"replace","path":"/a","value":null},)"
               R"({"op":"test","path":"/b","value":null}])"));
    QVERIFY(result.ok());
    COMPARE_JSON(*result, parsed(R"({"a":null,"b":null})"));
}

void TestJsonPatch::kubectlJsonPatchOnConfigMap()
{
    // `kubectl patch cm foo --type=json -p '[{"op":"add","path":"/data/j","value":"2"}]'`
    const json live = parsed(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z"},
        "data":{"s":"1"}})json");
    const rvscope::model::Result<json> result =
        applyJsonPatch(live, parsed(R"([{"op":"add","path":"/data/j","value":"2"}])"));
    QVERIFY(result.ok());
    COMPARE_JSON(*result, parsed(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z"},
        "data":{"j":"2","s":"1"}})json"));

    // The same patch on a ConfigMap without data: the parent is missing, so 422.
    json empty = live;
    empty.erase("data");
    VERIFY_STATUS(applyJsonPatch(empty, parsed(R"([{"op":"add","path":"/data/j","value":"2"}])")), 422,
                  "Invalid");
}

QTEST_GUILESS_MAIN(TestJsonPatch)
#include "TestJsonPatch.moc"
