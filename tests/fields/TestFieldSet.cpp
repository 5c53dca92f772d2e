// SPDX-License-Identifier: MIT
// Field sets and their FieldsV1 encoding, and the sets of objects: what a configuration
// claims and what a write changed, on ConfigMaps, Deployments (containers, env, ports keyed
// with a defaulted protocol), finalizers (a set) and a custom resource (deduced: lists atomic).
#include <QtTest/QtTest>

#include <random>

#include "fields/FieldSchema.h"
#include "fields/FieldSet.h"
#include "fields/ObjectFields.h"

using namespace rvscope;
using fields::FieldSchema;
using fields::FieldSet;
using fields::PathElement;
using nlohmann::json;

namespace {
json parse(const char *text)
{
    return json::parse(text);
}

FieldSet v1(const char *text)
{
    return FieldSet::fromFieldsV1(json::parse(text)).value();
}

const json DEPLOYMENT = parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
      {"name":"app","image":"nginx:1","env":[{"name":"MODE","value":"fast"}],"ports":[{"containerPort":80}]}]}}}})");
} // namespace

class TestFieldSet final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testEncodingRoundTrips();
    void testSetOperations();
    void testSetOperationsMatchTheirDefinitionOnRandomSets();
    void testPathText();
    void testAppliedConfigMap();
    void testAppliedDeploymentKeysListsAndDefaults();
    void testAppliedFinalizersAndCustomResource();
    void testSelectorsAreAtomic();
    void testAppliedKeyWithoutDefaultIsAnError();
    void testCustomResourceSchemaMarkers();
    void testCompareCreateMarksNewNodes();
    void testCompareModifiedAndRemoved();
    void testMergeAppliedByListType();
};

void TestFieldSet::testEncodingRoundTrips()
{
    const json encoded = parse(R"({"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}})");
    const FieldSet set = FieldSet::fromFieldsV1(encoded).value();
    QCOMPARE(set.size(), std::size_t(4));
    QVERIFY(set.has({PathElement::field("data")}));
    QVERIFY(set.has({PathElement::field("data"), PathElement::field("a")}));
    QVERIFY(!set.has({PathElement::field("metadata")}));
    QCOMPARE(set.toFieldsV1(), encoded);
    // Unknown prefixes are dropped; a bad key is an error.
    QCOMPARE(v1(R"({"x:y":{},"f:a":{}})").size(), std::size_t(1));
    QVERIFY(!FieldSet::fromFieldsV1(parse(R"({"k:notjson":{}})")));
    QVERIFY(!FieldSet::fromFieldsV1(parse("[]")));
}

void TestFieldSet::testSetOperations()
{
    const FieldSet a = v1(R"({"f:data":{"f:a":{},"f:b":{}}})");
    const FieldSet b = v1(R"({"f:data":{"f:b":{},"f:c":{}}})");
    QCOMPARE(a.unionWith(b), v1(R"({"f:data":{"f:a":{},"f:b":{},"f:c":{}}})"));
    QCOMPARE(a.minus(b), v1(R"({"f:data":{"f:a":{}}})"));
    QCOMPARE(a.intersect(b), v1(R"({"f:data":{"f:b":{}}})"));
    QVERIFY(a.minus(a).empty());
    FieldSet c = v1(R"({"f:spec":{"f:x":{"f:y":{}},"f:z":{}}})");
    c.removeSubtree({PathElement::field("spec"), PathElement::field("x")});
    QCOMPARE(c, v1(R"({"f:spec":{"f:z":{}}})"));
}

namespace {
// A random set over a small alphabet of every element kind, so that sets overlap, share
// prefixes and interleave kinds.
FieldSet randomSet(std::mt19937 &random)
{
    const std::vector<PathElement> alphabet{
        PathElement::field("a"),          PathElement::field("b"),      PathElement::field("spec"),
        PathElement::key(json{{"name", "x"}}), PathElement::key(json{{"name", "y"}}),
        PathElement::member(json("v")),   PathElement::member(json(3)),
    };
    FieldSet set;
    const int paths = std::uniform_int_distribution<int>(0, 12)(random);
    for (int i = 0; i < paths; ++i) {
        fields::Path path;
        const int length = std::uniform_int_distribution<int>(1, 4)(random);
        for (int j = 0; j < length; ++j)
            path.push_back(alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)]);
        set.insert(path);
    }
    return set;
}

std::vector<fields::Path> members(const FieldSet &set)
{
    std::vector<fields::Path> paths;
    set.forEach([&paths](const fields::Path &path) { paths.push_back(path); });
    return paths;
}
} // namespace

// union, minus and intersect walk both sets side by side; each must keep exactly the member
// paths its definition names, path by path.
void TestFieldSet::testSetOperationsMatchTheirDefinitionOnRandomSets()
{
    std::mt19937 random(20261126);
    for (int round = 0; round < 2000; ++round) {
        const FieldSet a = randomSet(random);
        const FieldSet b = randomSet(random);
        std::vector<fields::Path> all = members(a);
        for (const fields::Path &path : members(b))
            all.push_back(path);
        const FieldSet both = a.unionWith(b), rest = a.minus(b), common = a.intersect(b);
        for (const fields::Path &path : all) {
            QCOMPARE(both.has(path), a.has(path) || b.has(path));
            QCOMPARE(rest.has(path), a.has(path) && !b.has(path));
            QCOMPARE(common.has(path), a.has(path) && b.has(path));
        }
        QCOMPARE(both.size(), members(both).size());
        for (const fields::Path &path : members(both))
            QVERIFY(a.has(path) || b.has(path));
        for (const fields::Path &path : members(rest))
            QVERIFY(a.has(path));
        for (const fields::Path &path : members(common))
            QVERIFY(a.has(path));
        QCOMPARE(FieldSet::fromFieldsV1(both.toFieldsV1()).value(), both); // no empty nodes left in
        QCOMPARE(FieldSet::fromFieldsV1(rest.toFieldsV1()).value(), rest);
        QCOMPARE(FieldSet::fromFieldsV1(common.toFieldsV1()).value(), common);
    }
}

void TestFieldSet::testPathText()
{
    const fields::Path path{PathElement::field("spec"), PathElement::field("containers"),
                            PathElement::key(json{{"name", "nginx"}}), PathElement::field("image")};
    QCOMPARE(fields::pathText(path), std::string(R"(.spec.containers[name="nginx"].image)"));
    QCOMPARE(fields::pathText({PathElement::field("metadata"), PathElement::field("finalizers"),
                               PathElement::member("example.com/guard")}),
             std::string(R"(.metadata.finalizers[="example.com/guard"])"));
    // Keys order by decoded value: 80 before 443.
    QVERIFY(PathElement::key(json{{"containerPort", 80}}) < PathElement::key(json{{"containerPort", 443}}));
}

void TestFieldSet::testAppliedConfigMap()
{
    const json config = parse(R"({"apiVersion":"v1","kind":"ConfigMap",
      "metadata":{"name":"c","namespace":"default","labels":{"app":"x"}},"data":{"a":"1"}})");
    const auto applied = fields::appliedFields(config, FieldSchema::forKind("ConfigMap", false));
    QVERIFY(applied.error.empty());
    // Map keys are members, the maps themselves are not; name and namespace are never owned.
    QCOMPARE(applied.fields.toFieldsV1(), parse(R"({"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:app":{}}}})"));
}

void TestFieldSet::testAppliedDeploymentKeysListsAndDefaults()
{
    const auto applied = fields::appliedFields(DEPLOYMENT, FieldSchema::forKind("Deployment", false));
    QVERIFY(applied.error.empty());
    const json expected = parse("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
        "      \"f:spec\":{\"f:replicas\":{},\"f:selector\":{},\"f:template\":{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
        "        \"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"app\\\"}\":{\".\":{},"
        "          \"f:env\":{\"k:{\\\"name\\\":\\\"MODE\\\"}\":{\".\":{},\"f:name\":{},\"f:value\":{}}},\"f:image\":{},\"f:name\":{},"
        "          \"f:ports\":{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{}}}}}}}}}");
    QCOMPARE(applied.fields.toFieldsV1(), expected);
}

void TestFieldSet::testAppliedFinalizersAndCustomResource()
{
    const json config = parse(R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w",
      "finalizers":["example.com/guard"]},"spec":{"size":1,"parts":[{"name":"a"}],"shape":{"round":true}}})");
    const auto applied = fields::appliedFields(config, FieldSchema::forKind("Widget", true));
    QCOMPARE(applied.fields.toFieldsV1(), parse("{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/guard\\\"\":{}}},"
        "      \"f:spec\":{\"f:parts\":{},\"f:shape\":{\"f:round\":{}},\"f:size\":{}}}"));
}

// Every LabelSelector (a NetworkPolicy's podSelector and its peers' namespaceSelector) and
// the +mapType=atomic selector maps (nodeSelector) are one leaf each, as upstream's schemas
// make them.
void TestFieldSet::testSelectorsAreAtomic()
{
    const json config = parse(R"({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy",
      "metadata":{"name":"n"},"spec":{"podSelector":{"matchLabels":{"app":"web"}},
      "ingress":[{"from":[{"namespaceSelector":{"matchLabels":{"team":"a"}}}]}]}})");
    const auto applied = fields::appliedFields(config, FieldSchema::forKind("NetworkPolicy", false));
    QVERIFY(applied.error.empty());
    QCOMPARE(applied.fields.toFieldsV1(), parse(R"({"f:spec":{"f:ingress":{},"f:podSelector":{}}})"));
    const json pod = parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
      "spec":{"nodeSelector":{"disk":"ssd"},"containers":[{"name":"c","image":"i"}]}})");
    const auto podFields = fields::appliedFields(pod, FieldSchema::forKind("Pod", false));
    QCOMPARE(podFields.fields.toFieldsV1()["f:spec"]["f:nodeSelector"], json::object());
}

void TestFieldSet::testCustomResourceSchemaMarkers()
{
    // A CRD version's openAPIV3Schema: parts a map keyed by name (port defaulting to 80),
    // tags a set, shape an atomic map, sizes left atomic (no marker), as upstream reads them.
    const json openApi = parse(R"({"type":"object","properties":{"spec":{"type":"object","properties":{
      "parts":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","port"],
               "items":{"type":"object","properties":{"name":{"type":"string"},
                        "port":{"type":"integer","default":80},"weight":{"type":"integer"}}}},
      "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
      "shape":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"round":{"type":"boolean"}}},
      "sizes":{"type":"array","items":{"type":"integer"}}}}}})");
    const FieldSchema schema = FieldSchema::fromOpenApi("Widget", openApi);
    QCOMPARE(int(schema.list("spec.parts").kind), int(fields::ListType::Kind::Map));
    QCOMPARE(schema.list("spec.parts").keys, (std::vector<std::string>{"name", "port"}));
    QCOMPARE(schema.list("spec.parts").keyDefaults, parse(R"({"port":80})"));
    QCOMPARE(int(schema.list("spec.tags").kind), int(fields::ListType::Kind::Set));
    QCOMPARE(int(schema.list("spec.sizes").kind), int(fields::ListType::Kind::Atomic));
    QVERIFY(schema.atomic("spec.shape"));
    QVERIFY(!schema.atomic("spec"));
    QCOMPARE(int(schema.list("metadata.finalizers").kind), int(fields::ListType::Kind::Set)); // ObjectMeta's

    const json config = parse(R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
      "spec":{"parts":[{"name":"a","weight":1}],"tags":["x"],"shape":{"round":true},"sizes":[1,2]}})");
    const auto applied = fields::appliedFields(config, schema);
    QVERIFY2(applied.error.empty(), applied.error.c_str());
    QCOMPARE(applied.fields.toFieldsV1(), parse("{\"f:spec\":{\"f:parts\":{\"k:{\\\"name\\\":\\\"a\\\",\\\"port\\\":80}\":"
        "{\".\":{},\"f:name\":{},\"f:weight\":{}}},\"f:shape\":{},\"f:sizes\":{},\"f:tags\":{\"v:\\\"x\\\"\":{}}}}"));
    // Two managers' items of a keyed list merge instead of replacing each other.
    const json live = parse(R"({"spec":{"parts":[{"name":"a","weight":1}]}})");
    const json merged = fields::mergeApplied(live, parse(R"({"spec":{"parts":[{"name":"b","weight":2}]}})"), schema);
    QCOMPARE(merged["spec"]["parts"].size(), std::size_t(2));
}

void TestFieldSet::testAppliedKeyWithoutDefaultIsAnError()
{
    const json config = parse(R"({"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}})");
    const auto applied = fields::appliedFields(config, FieldSchema::forKind("Deployment", false));
    QCOMPARE(applied.error, std::string("associative list with keys has an element that omits key field \"name\" "
                                        "(and doesn\'t have default value)"));
}

void TestFieldSet::testCompareCreateMarksNewNodes()
{
    const json created = parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"app":"x"}},
      "data":{"a":"1"}})");
    const auto changes = fields::compareObjects(json(), created, FieldSchema::forKind("ConfigMap", false));
    // kubectl-create's entry for such a ConfigMap (reference §2.4).
    QCOMPARE(changes.added.toFieldsV1(), parse(R"({"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}})"));
    QVERIFY(changes.modified.empty());
    QVERIFY(changes.removed.empty());
}

void TestFieldSet::testCompareModifiedAndRemoved()
{
    json after = DEPLOYMENT;
    after["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:2";
    after["spec"]["template"]["spec"]["containers"][0]["env"] = json::array();
    after["metadata"]["labels"]["tier"] = "front";
    const auto changes = fields::compareObjects(DEPLOYMENT, after, FieldSchema::forKind("Deployment", false));
    QCOMPARE(changes.modified.toFieldsV1(),
             parse("{\"f:spec\":{\"f:template\":{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"app\\\"}\":{\"f:image\":{}}}}}}}"));
    QCOMPARE(changes.added.toFieldsV1(), parse(R"({"f:metadata":{"f:labels":{"f:tier":{}}}})"));
    QCOMPARE(changes.removed.toFieldsV1(), parse("{\"f:spec\":{\"f:template\":{\"f:spec\":{\"f:containers\":{"
        "      \"k:{\\\"name\\\":\\\"app\\\"}\":{\"f:env\":{\"k:{\\\"name\\\":\\\"MODE\\\"}\":{}}}}}}}}"));
}

void TestFieldSet::testMergeAppliedByListType()
{
    const FieldSchema schema = FieldSchema::forKind("Deployment", false);
    const json config = parse(R"({"metadata":{"finalizers":["b"]},"spec":{"selector":{"matchLabels":{"x":"y"}},
      "template":{"spec":{"containers":[{"name":"app","image":"nginx:2"},{"name":"side","image":"busybox"}]}}}})");
    json live = DEPLOYMENT;
    live["metadata"]["finalizers"] = json::array({"a"});
    const json merged = fields::mergeApplied(live, config, schema);
    QCOMPARE(merged["metadata"]["finalizers"], json::array({"a", "b"}));
    QCOMPARE(merged["spec"]["selector"], parse(R"({"matchLabels":{"x":"y"}})")); // atomic: replaced
    const json &containers = merged["spec"]["template"]["spec"]["containers"];
    QCOMPARE(containers.size(), std::size_t(2));
    QCOMPARE(containers[0]["image"], "nginx:2");
    QCOMPARE(containers[0]["env"][0]["name"], "MODE"); // kept: the item merged by key
    QCOMPARE(containers[1]["name"], "side");

    json pruned = merged;
    fields::removeAt(pruned, {PathElement::field("spec"), PathElement::field("template"), PathElement::field("spec"),
                              PathElement::field("containers"), PathElement::key(json{{"name", "side"}})});
    QCOMPARE(pruned["spec"]["template"]["spec"]["containers"].size(), std::size_t(1));
}

QTEST_GUILESS_MAIN(TestFieldSet)
#include "TestFieldSet.moc"
