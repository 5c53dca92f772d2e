// SPDX-License-Identifier: MIT
#include <QTest>

#include <nlohmann/json.hpp>

#include <qcoro/qcorotask.h>

#include "model/JsonParse.h"
#include "registry/UpdatedObjectInfo.h"
#include "registry/validation/KnownFields.h"

using namespace rvscope::registry;

namespace {
// The body of kubernetes' field validation integration test (test/integration/apiserver/
// field_validation_test.go, invalidBodyJSON), whose answers the apiserver is held to.
constexpr const char *INVALID_DEPLOYMENT = R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "dupename", "name": "d", "labels": {"app": "nginx"}, "unknownMeta": "metaVal"},
  "spec": {
    "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2",
    "paused": true, "paused": false,
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {
      "metadata": {"labels": {"app": "nginx"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:latest", "unknownNested": "val1",
                               "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}
    }
  }
})";

std::vector<std::string> strings(std::initializer_list<const char *> texts)
{
    return std::vector<std::string>(texts.begin(), texts.end());
}
} // namespace

// The fields each built-in kind declares, and strict decoding's unknown and duplicate fields
// named as sigs.k8s.io/json names them.
class TestKnownFields final : public QObject {
    Q_OBJECT

private slots:
    void everyServedKindHasItsTable();
    void strictErrorsInDocumentOrderAsTheApiserver();
    void pruneDropsUndeclaredFieldsAtEveryLevel();
    void valuesOfAnyShapeKeepEverything();
    void wrongShapesAreLeftToDecodingChecks();
    void duplicatesOfAPatchAtAnyDepth();
    void jsonPatchOperationMembers();
    void deepNestingDoesNotRecurse();
    void fieldValidationDirectives();
    void strictErrorsAreBoundedAndOnce();
    void aPatchAnswersOnlyForWhatItBrings();
    void customResourcesArePrunedByTheirSchema();
};

void TestKnownFields::everyServedKindHasItsTable()
{
    for (const auto &[apiVersion, kind] : std::vector<std::pair<const char *, const char *>>{
             {"v1", "ConfigMap"}, {"v1", "Pod"}, {"v1", "Event"}, {"apps/v1", "Deployment"},
             {"autoscaling/v1", "HorizontalPodAutoscaler"}, {"autoscaling/v2", "HorizontalPodAutoscaler"},
             {"autoscaling/v1", "Scale"}, {"apiextensions.k8s.io/v1", "CustomResourceDefinition"},
             {"apiregistration.k8s.io/v1", "APIService"}, {"coordination.k8s.io/v1", "Lease"}})
        QVERIFY2(KnownFields::find(apiVersion, kind), kind);
    QVERIFY(!KnownFields::find("example.com/v1", "Widget")); // custom resources keep all
    QVERIFY(!KnownFields::find("apps/v1", "ConfigMap"));
}

void TestKnownFields::strictErrorsInDocumentOrderAsTheApiserver()
{
    const KnownFields *deployment = KnownFields::find("apps/v1", "Deployment");
    QVERIFY(deployment);
    // post-strict-validation's expected message, item for item (a repeated unknown field is
    // only unknown).
    QCOMPARE(deployment->strictErrors(INVALID_DEPLOYMENT),
             strings({R"(duplicate field "metadata.name")", R"(unknown field "metadata.unknownMeta")",
                      R"(unknown field "spec.unknown1")", R"(unknown field "spec.unknownDupe")",
                      R"(duplicate field "spec.paused")",
                      R"(unknown field "spec.template.spec.containers[0].unknownNested")",
                      R"(duplicate field "spec.template.spec.containers[0].imagePullPolicy")"}));
    QCOMPARE(strictDecodingMessage({R"(unknown field "a")", R"(duplicate field "b")"}),
             std::string(R"(strict decoding error: unknown field "a", duplicate field "b")"));

    const KnownFields *configMap = KnownFields::find("v1", "ConfigMap");
    QCOMPARE(configMap->strictErrors(R"({"metadata":{"name":"x"},"data":{"a":"1","a":"2"}})"),
             strings({R"(duplicate field "data.a")"}));
    QVERIFY(configMap->strictErrors(R"({"metadata":{"name":"x","labels":{"a":"b"}},"data":{"a":"1"}})").empty());
}

void TestKnownFields::pruneDropsUndeclaredFieldsAtEveryLevel()
{
    const KnownFields *deployment = KnownFields::find("apps/v1", "Deployment");
    nlohmann::json object = *rvscope::model::parseJson(INVALID_DEPLOYMENT);
    // Go's map order, as a patched object is encoded and decoded.
    QCOMPARE(deployment->prune(object),
             strings({"metadata.unknownMeta", "spec.template.spec.containers[0].unknownNested", "spec.unknown1",
                      "spec.unknownDupe"}));
    QVERIFY(!object["metadata"].contains("unknownMeta"));
    QVERIFY(!object["spec"].contains("unknown1"));
    QVERIFY(object["spec"]["paused"] == nlohmann::json(false)); // the later one won
    QVERIFY(object["spec"]["template"]["spec"]["containers"][0]
            == nlohmann::json({{"name", "nginx"}, {"image", "nginx:latest"}, {"imagePullPolicy", "Never"}}));
    QVERIFY(object["metadata"]["labels"] == nlohmann::json({{"app", "nginx"}})); // map keys are free
    QVERIFY(deployment->prune(object).empty());

    // Status and nested structs of other kinds: the Pod's status, a Service's ports.
    nlohmann::json pod = {{"metadata", {{"name", "p"}}},
                          {"status", {{"phase", "Running"}, {"phaze", "x"},
                                      {"conditions", {{{"type", "Ready"}, {"status", "True"}, {"why", 1}}}}}}};
    QCOMPARE(KnownFields::find("v1", "Pod")->prune(pod), strings({"status.conditions[0].why", "status.phaze"}));
    nlohmann::json service = {{"spec", {{"ports", {{{"port", 80}, {"targetPort", "http"}, {"nodeport", 1}}}}}}};
    QCOMPARE(KnownFields::find("v1", "Service")->prune(service), strings({"spec.ports[0].nodeport"}));
}

void TestKnownFields::valuesOfAnyShapeKeepEverything()
{
    // RawExtension, fieldsV1 and a CRD's JSON schema values are not typed below them.
    nlohmann::json revision = {{"metadata", {{"name", "r"}}}, {"revision", 1},
                               {"data", {{"spec", {{"anything", {{"goes", true}}}}}}}};
    QVERIFY(KnownFields::find("apps/v1", "ControllerRevision")->prune(revision).empty());
    QVERIFY(revision["data"]["spec"]["anything"]["goes"] == nlohmann::json(true));

    nlohmann::json managed = {{"metadata", {{"name", "m"}, {"managedFields", {{{"manager", "a"},
                                                                              {"fieldsV1", {{"f:data", {{"f:x", nlohmann::json::object()}}}}},
                                                                              {"bogus", 1}}}}}}};
    QCOMPARE(KnownFields::find("v1", "ConfigMap")->prune(managed), strings({"metadata.managedFields[0].bogus"}));
    QVERIFY(managed["metadata"]["managedFields"][0]["fieldsV1"].contains("f:data"));

    const std::string crd = R"({"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object",
        "properties":{"spec":{"type":"object","default":{"a":1,"a":2}}}}}}]}})";
    // A raw value (apiextensions JSON, RawExtension) is taken as it is: nothing inside counts.
    QVERIFY(KnownFields::find("apiextensions.k8s.io/v1", "CustomResourceDefinition")->strictErrors(crd).empty());
}

void TestKnownFields::wrongShapesAreLeftToDecodingChecks()
{
    // A list where a struct belongs, a string where a map belongs: decoding refuses those
    // elsewhere (ObjectDecoding.h); nothing inside them is named or dropped here.
    const KnownFields *configMap = KnownFields::find("v1", "ConfigMap");
    nlohmann::json object = {{"metadata", {{{"x", 1}}}}, {"data", "text"}};
    QVERIFY(configMap->prune(object).empty());
    QVERIFY(configMap->strictErrors(R"({"metadata":[{"x":1,"x":2}],"data":"text"})").empty());
}

void TestKnownFields::duplicatesOfAPatchAtAnyDepth()
{
    QCOMPARE(duplicateFields(R"({"spec":{"unknownDupe":1,"unknownDupe":2,"paused":true,"paused":false,
                                 "template":{"spec":{"containers":[{"name":"n","imagePullPolicy":"A","imagePullPolicy":"B"}]}}}})"),
             strings({R"(duplicate field "spec.unknownDupe")", R"(duplicate field "spec.paused")",
                      R"(duplicate field "spec.template.spec.containers[0].imagePullPolicy")"}));
    QVERIFY(duplicateFields(R"({"a":{"b":1},"c":{"b":1}})").empty());
}

void TestKnownFields::jsonPatchOperationMembers()
{
    // json-patch-strict-validation's first two items.
    QCOMPARE(jsonPatchFieldErrors(R"([{"op":"add","path":"/spec/unknown1","value":"val1","foo":"bar"},
                                      {"op":"add","path":"/spec/unknown2","path":"/spec/unknown3","value":"val1"},
                                      {"op":"add","path":"/x","value":{"a":1,"a":2}}])"),
             strings({R"(json patch unknown field "[0].foo")", R"(json patch duplicate field "[1].path")",
                      R"(json patch duplicate field "[2].value.a")"})); // a value is an interface{}
}

void TestKnownFields::deepNestingDoesNotRecurse()
{
    // The body parser takes 10,000 levels; the scan beside it must not overflow a stack.
    const int depth = 10000;
    std::string text = R"({"metadata":{"name":"x"},"data":{"a":"1"},"bogus":)";
    text += std::string(depth, '[') + std::string(depth, ']') + "}";
    QCOMPARE(KnownFields::find("v1", "ConfigMap")->strictErrors(text), strings({R"(unknown field "bogus")"}));
    std::string patch = R"({"x":)" + std::string(depth, '[') + std::string(depth, ']') + R"(,"x":1})";
    QCOMPARE(duplicateFields(patch), strings({R"(duplicate field "x")"}));

    // A CRD's schema is typed all the way down (JSONSchemaProps in JSONSchemaProps): the
    // pruning walk follows it 4,990 levels deep without a stack of its own frames.
    const int levels = 4990;
    std::string schema;
    for (int i = 0; i < levels; ++i)
        schema += R"({"properties":{"a":)";
    schema += R"({"type":"string","bogus":1})" + std::string(std::size_t(levels) * 2, '}');
    std::optional<nlohmann::json> parsed = rvscope::model::parseJson(
        R"({"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":)" + schema + "}}]}}");
    QVERIFY(parsed); // within the parser's 10,000 levels
    nlohmann::json crd = std::move(*parsed);
    const std::vector<std::string> removed =
        KnownFields::find("apiextensions.k8s.io/v1", "CustomResourceDefinition")->prune(crd);
    QCOMPARE(removed.size(), std::size_t(1));
    QVERIFY(removed[0].ends_with(".properties.a.bogus"));
}

void TestKnownFields::fieldValidationDirectives()
{
    QCOMPARE(parseFieldValidation(""), std::optional<FieldValidation>(FieldValidation::Warn));
    QCOMPARE(parseFieldValidation("Warn"), std::optional<FieldValidation>(FieldValidation::Warn));
    QCOMPARE(parseFieldValidation("Strict"), std::optional<FieldValidation>(FieldValidation::Strict));
    QCOMPARE(parseFieldValidation("Ignore"), std::optional<FieldValidation>(FieldValidation::Ignore));
    QCOMPARE(parseFieldValidation("strict"), std::optional<FieldValidation>()); // case matters upstream too
}

void TestKnownFields::strictErrorsAreBoundedAndOnce()
{
    // saveStrictError: each text once, at most 100; a path is quoted as Go's %q quotes it.
    std::string text = R"({"metadata":{"name":"x"})";
    for (int i = 0; i < 150; ++i)
        text += ",\"u" + std::to_string(i) + "\":1";
    text += "}";
    const std::vector<std::string> errors = KnownFields::find("v1", "ConfigMap")->strictErrors(text);
    QCOMPARE(errors.size(), MAX_STRICT_ERRORS);
    QCOMPARE(errors.back(), std::string("unknown field \"u99\""));
    QCOMPARE(duplicateFields("{\"a\":1,\"a\":2,\"a\":3,\"a\":4}"), strings({"duplicate field \"a\""}));
    QCOMPARE(KnownFields::find("v1", "ConfigMap")->strictErrors("{\"x\\n\\\"\":1}"),
             strings({"unknown field \"x\\n\\\"\""}));
    nlohmann::json many = {{"metadata", {{"name", "x"}}}};
    for (int i = 0; i < 150; ++i)
        many["u" + std::to_string(i)] = 1;
    QCOMPARE(KnownFields::find("v1", "ConfigMap")->prune(many).size(), MAX_STRICT_ERRORS);
    QCOMPARE(many.size(), std::size_t(1)); // all dropped, the first 100 named
}

void TestKnownFields::aPatchAnswersOnlyForWhatItBrings()
{
    // A stored object holding an undeclared field (written before rvscope knew the kind's
    // fields, or restored): a patch neither warns about it nor fails Strict for it; it
    // drops it, as decoding the stored object drops it upstream.
    const FieldDecoding strict{KnownFields::find("v1", "ConfigMap"), FieldValidation::Strict};
    auto stored = std::make_shared<const rvscope::model::Object>(
        nlohmann::json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}},
                       {"data", {{"a", "1"}}}, {"legacy", true}});
    auto info = makePatchInfo("ConfigMap", true, "application/merge-patch+json", R"({"data":{"b":"2"}})", strict);
    QVERIFY(info);
    auto patched = QCoro::waitFor((*info)->updatedObject(stored));
    QVERIFY(patched);
    QVERIFY(!patched->json().contains("legacy"));
    QVERIFY((*info)->warnings().empty());

    // What the patch brings is named, the patch's repeated keys first.
    const FieldDecoding warn{KnownFields::find("v1", "ConfigMap"), FieldValidation::Warn};
    info = makePatchInfo("ConfigMap", true, "application/strategic-merge-patch+json",
                         R"({"data":{"b":"2","b":"3"},"bogus":1})", warn);
    QVERIFY(info);
    patched = QCoro::waitFor((*info)->updatedObject(stored));
    QVERIFY(patched);
    QCOMPARE((*info)->warnings(), strings({"duplicate field \"data.b\"", "unknown field \"bogus\""}));
    info = makePatchInfo("ConfigMap", true, "application/merge-patch+json", R"({"bogus":1})", strict);
    patched = QCoro::waitFor((*info)->updatedObject(stored));
    QVERIFY(!patched);
    QCOMPARE(patched.error().code, 400);
    QCOMPARE(patched.error().message, std::string("strict decoding error: unknown field \"bogus\""));
}

void TestKnownFields::customResourcesArePrunedByTheirSchema()
{
    // The schema of kubernetes' field validation integration test (crdSchemaBase), and its
    // crd-post-strict-validation body and answer: repeated keys first, then what pruning
    // drops, an embedded resource's metadata last.
    const nlohmann::json schema = {
        {"type", "object"},
        {"properties",
         {{"spec",
           {{"type", "object"},
            {"properties",
             {{"knownField1", {{"type", "string"}}},
              {"embeddedObj",
               {{"x-kubernetes-embedded-resource", true}, {"type", "object"},
                {"properties", {{"kind", {{"type", "string"}}}, {"metadata", {{"type", "object"}}}}}}},
              {"ports",
               {{"type", "array"},
                {"items",
                 {{"type", "object"},
                  {"properties",
                   {{"containerPort", {{"type", "integer"}}}, {"hostPort", {{"type", "integer"}}},
                    {"name", {{"type", "string"}}}, {"protocol", {{"type", "string"}}}}}}}}},
              {"free", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}},
              {"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}}}}}}}};
    const std::shared_ptr<const KnownFields> known = KnownFields::fromOpenApi(schema);
    QVERIFY(known);
    const std::string body = R"({"apiVersion":"example.com/v1","kind":"Noxu",
        "metadata":{"name":"dupename","name":"n","unknownMeta":"metaVal"},
        "spec":{"unknown1":"val1","unknownDupe":"valDupe","unknownDupe":"valDupe2","knownField1":"val1","knownField1":"val2",
                "ports":[{"name":"portName","containerPort":8080,"protocol":"TCP","hostPort":8081,"hostPort":8082,"unknownNested":"val"}],
                "embeddedObj":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"my-cm","namespace":"my-ns","unknownEmbeddedMeta":"foo"}},
                "free":{"anything":{"goes":1}},"labels":{"a":"b"}}})";
    QCOMPARE(known->strictErrors(body),
             strings({"duplicate field \"metadata.name\"", "duplicate field \"spec.unknownDupe\"",
                      "duplicate field \"spec.knownField1\"", "duplicate field \"spec.ports[0].hostPort\"",
                      "unknown field \"metadata.unknownMeta\"", "unknown field \"spec.ports[0].unknownNested\"",
                      "unknown field \"spec.unknown1\"", "unknown field \"spec.unknownDupe\"",
                      "unknown field \"spec.embeddedObj.metadata.unknownEmbeddedMeta\""}));
    nlohmann::json object = *rvscope::model::parseJson(body);
    QCOMPARE(known->prune(object).size(), std::size_t(5));
    QVERIFY(object["spec"]["free"]["anything"]["goes"] == 1); // x-kubernetes-preserve-unknown-fields
    QVERIFY(object["spec"]["labels"]["a"] == "b");           // additionalProperties: a map
    QVERIFY(object["spec"]["embeddedObj"]["apiVersion"] == "v1");
    QVERIFY(!KnownFields::fromOpenApi(nlohmann::json())); // no schema: nothing pruned

    // What structural pruning keeps: keys beside additionalProperties: true, a preserving
    // list's items; a `type` that is not a string (Go reads null as "") is no crash.
    const nlohmann::json keeping = {
        {"type", "object"},
        {"properties",
         {{"open", {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}, {"additionalProperties", true}}},
          {"list",
           {{"type", "array"}, {"x-kubernetes-preserve-unknown-fields", true},
            {"items", {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}}}}},
          {"odd", {{"type", nullptr}}}}}};
    const auto keeps = KnownFields::fromOpenApi(keeping);
    nlohmann::json kept = {{"open", {{"a", "1"}, {"b", "2"}}}, {"list", {{{"a", "1"}, {"b", "2"}}}}, {"odd", {{"x", 1}}}};
    QVERIFY(keeps->prune(kept).empty());
    QCOMPARE(kept["open"].size(), std::size_t(2));
    QCOMPARE(kept["list"][0].size(), std::size_t(2));

    // Pruned paths in sort.Strings order, the root's metadata first: "[10]" before "[2]".
    const nlohmann::json listed = {
        {"type", "object"},
        {"properties",
         {{"items", {{"type", "array"}, {"items", {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}}}}}}}};
    std::string many = R"({"zzz":1,"metadata":{"name":"n","bad":1},"items":[)";
    for (int i = 0; i < 11; ++i)
        many += std::string(i ? "," : "") + (i == 2 || i == 10 ? R"({"x":1})" : "{}");
    many += "]}";
    QCOMPARE(KnownFields::fromOpenApi(listed)->strictErrors(many),
             strings({"unknown field \"metadata.bad\"", "unknown field \"items[10].x\"",
                      "unknown field \"items[2].x\"", "unknown field \"zzz\""}));
}

QTEST_GUILESS_MAIN(TestKnownFields)
#include "TestKnownFields.moc"
