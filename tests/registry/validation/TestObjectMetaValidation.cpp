// SPDX-License-Identifier: MIT
#include <QTest>

#include "ValidationMessages.h"

#include <nlohmann/json.hpp>

#include "model/Object.h"
#include "model/StatusErrors.h"
#include "registry/validation/ObjectMetaValidation.h"

using namespace rvscope::registry;
using rvscope::model::Object;
using rvscope::model::StatusCause;

namespace {
Object objectFrom(const QByteArray &json)
{
    return Object(nlohmann::json::parse(json.toStdString()));
}

// "<type> <field>: <message>" per cause, for readable comparisons.
QStringList describe(const std::vector<StatusCause> &causes)
{
    QStringList lines;
    for (const StatusCause &cause : causes)
        lines << QString::fromStdString(cause.type + ' ' + cause.field + ": " + cause.message);
    return lines;
}

} // namespace

using namespace validation_messages;

// ObjectMeta validation on create/update: the 422 causes for names, namespaces, labels and
// annotations, with apimachinery's field paths and texts.
class TestObjectMetaValidation final : public QObject {
    Q_OBJECT

private slots:
    void validatesObjectMeta_data();
    void validatesObjectMeta();
    void wireContractInvalidNameMessage();
    void validatesFinalizers_data();
    void validatesFinalizers();
    void finalizersComeAfterAnnotations();
    void annotationSizeLimitIsInclusive();
    void labelsReportKeyAndValueSeparately();
    void jsonMapsValidateLikeStringMaps();
};

void TestObjectMetaValidation::validatesObjectMeta_data()
{
    QTest::addColumn<QByteArray>("object");
    QTest::addColumn<bool>("namespaced");
    QTest::addColumn<int>("nameRule"); // 0 subdomain, 1 DNS-1123 label, 2 DNS-1035 label
    QTest::addColumn<QStringList>("causes");

    QTest::newRow("valid namespaced") << QByteArray(R"({"metadata":{"name":"web.v2","namespace":"default"}})") << true
                                      << 0 << QStringList{};
    QTest::newRow("valid cluster-scoped") << QByteArray(R"({"metadata":{"name":"kube-public"}})") << false << 1
                                          << QStringList{};
    QTest::newRow("bad name")
        << QByteArray(R"({"metadata":{"name":"Bad_x","namespace":"default"}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"Bad_x\": " + SUBDOMAIN_ERROR};
    QTest::newRow("no name, no generateName")
        << QByteArray(R"({"metadata":{"namespace":"default"}})") << true << 0
        << QStringList{"FieldValueRequired metadata.name: Required value: name or generateName is required"};
    QTest::newRow("no metadata at all")
        << QByteArray(R"({})") << false << 0
        << QStringList{"FieldValueRequired metadata.name: Required value: name or generateName is required"};
    QTest::newRow("generated name and its prefix")
        << QByteArray(R"({"metadata":{"name":"web-x7k2p","generateName":"web-","namespace":"default"}})") << true << 0
        << QStringList{};
    QTest::newRow("bad generateName is reported on its own field")
        << QByteArray(R"({"metadata":{"name":"ok","generateName":"Web-","namespace":"default"}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.generateName: Invalid value: \"Web-\": " + SUBDOMAIN_ERROR};
    QTest::newRow("generateName comes before name")
        << QByteArray(R"({"metadata":{"name":"Web-abcde","generateName":"Web-","namespace":"default"}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.generateName: Invalid value: \"Web-\": " + SUBDOMAIN_ERROR,
                       "FieldValueInvalid metadata.name: Invalid value: \"Web-abcde\": " + SUBDOMAIN_ERROR};
    QTest::newRow("namespace name with a dot is a label error")
        << QByteArray(R"({"metadata":{"name":"p.k.t"}})") << false << 1
        << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"p.k.t\": " + LABEL_ERROR};
    QTest::newRow("service name starting with a digit")
        << QByteArray(R"({"metadata":{"name":"1svc","namespace":"default"}})") << true << 2
        << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"1svc\": " + DNS1035_ERROR};
    QTest::newRow("namespaced object without namespace")
        << QByteArray(R"({"metadata":{"name":"a"}})") << true << 0
        << QStringList{"FieldValueRequired metadata.namespace: Required value"};
    QTest::newRow("namespaced object with a bad namespace")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"my.ns"}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.namespace: Invalid value: \"my.ns\": " + LABEL_ERROR};
    QTest::newRow("cluster-scoped object with a namespace")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"default"}})") << false << 0
        << QStringList{"FieldValueForbidden metadata.namespace: Forbidden: not allowed on this type"};
    QTest::newRow("negative generation")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","generation":-1}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.generation: Invalid value: -1: must be greater than or equal to 0"};
    QTest::newRow("bad label key")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","labels":{"-k":"v"}}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.labels: Invalid value: \"-k\": " + NAME_PART_ERROR};
    QTest::newRow("bad label value")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","labels":{"k":"https://x.org"}}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.labels: Invalid value: \"https://x.org\": " + LABEL_VALUE_ERROR};
    QTest::newRow("label keys are case sensitive")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","labels":{"Example.com/Foo":"v"}}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.labels: Invalid value: \"Example.com/Foo\": prefix part " + SUBDOMAIN_ERROR};
    QTest::newRow("annotation keys are not")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","annotations":{"Example.com/Foo":"any value, /!"}}})")
        << true << 0 << QStringList{};
    QTest::newRow("bad annotation key keeps its case")
        << QByteArray(R"({"metadata":{"name":"a","namespace":"d","annotations":{"A/B/C":""}}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.annotations: Invalid value: \"A/B/C\": a qualified name must "
                       "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                       "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
                       "(e.g. 'example.com/MyName')"};
    QTest::newRow("everything wrong at once, in upstream order")
        << QByteArray(R"({"metadata":{"name":"B","namespace":"N","labels":{"k":"-"}}})") << true << 0
        << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"B\": " + SUBDOMAIN_ERROR,
                       "FieldValueInvalid metadata.namespace: Invalid value: \"N\": " + LABEL_ERROR,
                       "FieldValueInvalid metadata.labels: Invalid value: \"-\": " + LABEL_VALUE_ERROR};
}

void TestObjectMetaValidation::validatesObjectMeta()
{
    QFETCH(QByteArray, object);
    QFETCH(bool, namespaced);
    QFETCH(int, nameRule);
    QFETCH(QStringList, causes);
    const ValidateNameFunc rules[] = {nameIsDnsSubdomain, nameIsDnsLabel, nameIsDns1035Label};
    QCOMPARE(describe(validateObjectMeta(objectFrom(object), namespaced, rules[nameRule], true)), causes);
}

void TestObjectMetaValidation::validatesFinalizers_data()
{
    QTest::addColumn<QByteArray>("finalizers");
    QTest::addColumn<bool>("kubeNames");
    QTest::addColumn<QStringList>("causes");
    const QString neither = "name is neither a standard finalizer name nor is it fully qualified";
    QTest::newRow("standard and qualified names")
        << QByteArray(R"(["kubernetes","orphan","example.com/cleanup"])") << true << QStringList{};
    QTest::newRow("foregroundDeletion alone")
        << QByteArray(R"(["foregroundDeletion"])") << true << QStringList{};
    QTest::newRow("unqualified, by index, on built-in types")
        << QByteArray(R"(["example.com/a","a","b"])") << true
        << QStringList{"FieldValueInvalid metadata.finalizers[1]: Invalid value: \"a\": " + neither,
                       "FieldValueInvalid metadata.finalizers[2]: Invalid value: \"b\": " + neither};
    QTest::newRow("unqualified is fine on custom resources")
        << QByteArray(R"(["a"])") << false << QStringList{};
    QTest::newRow("no qualified name: the generic error first, then the kube one")
        << QByteArray(R"(["a b"])") << true
        << QStringList{"FieldValueInvalid metadata.finalizers: Invalid value: \"a b\": " + NAME_PART_ERROR,
                       "FieldValueInvalid metadata.finalizers[0]: Invalid value: \"a b\": " + neither};
    QTest::newRow("orphan and foregroundDeletion")
        << QByteArray(R"(["orphan","foregroundDeletion"])") << false
        << QStringList{"FieldValueInvalid metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: "
                       "finalizer orphan and foregroundDeletion cannot be both set"};
    QTest::newRow("not a list") << QByteArray(R"("a")") << true << QStringList{};
}

void TestObjectMetaValidation::validatesFinalizers()
{
    QFETCH(QByteArray, finalizers);
    QFETCH(bool, kubeNames);
    QFETCH(QStringList, causes);
    QCOMPARE(describe(validateFinalizers(nlohmann::json::parse(finalizers.toStdString()), kubeNames)), causes);
}

void TestObjectMetaValidation::finalizersComeAfterAnnotations()
{
    const char *object = R"({"metadata":{"name":"a","namespace":"d","finalizers":["x"],"annotations":{"-":""}}})";
    const QStringList described = describe(validateObjectMeta(objectFrom(object), true, nameIsDnsSubdomain, true));
    QCOMPARE(described.size(), 2);
    QVERIFY(described[0].startsWith("FieldValueInvalid metadata.annotations: "));
    QVERIFY(described[1].startsWith("FieldValueInvalid metadata.finalizers[0]: "));
    QVERIFY(describe(validateObjectMeta(objectFrom(object), true, nameIsDnsSubdomain, false))[0].startsWith(
        "FieldValueInvalid metadata.annotations: "));
}

void TestObjectMetaValidation::wireContractInvalidNameMessage()
{
    // Wire contract §2.3: the full 422 text kubectl prints for a bad ConfigMap name.
    const auto causes = validateObjectMeta(objectFrom(R"({"metadata":{"name":"Bad_x","namespace":"default"}})"), true,
                                           nameIsDnsSubdomain, true);
    const auto status = rvscope::model::errors::invalid("ConfigMap", "Bad_x", causes, "configmaps");
    QCOMPARE(status.code, 422);
    QCOMPARE(status.reason, std::string("Invalid"));
    QCOMPARE(QString::fromStdString(status.message),
             "ConfigMap \"Bad_x\" is invalid: metadata.name: Invalid value: \"Bad_x\": " + SUBDOMAIN_ERROR);
    QCOMPARE(status.details.causes.size(), std::size_t(1));
    const nlohmann::json cause = status.toJson()["details"]["causes"][0];
    QCOMPARE(cause.value("reason", std::string()), std::string("FieldValueInvalid"));
    QCOMPARE(cause.value("field", std::string()), std::string("metadata.name"));
}

void TestObjectMetaValidation::annotationSizeLimitIsInclusive()
{
    // Keys and values both count: 1 + 262143 is exactly at the limit.
    std::map<std::string, std::string> annotations = {{"a", std::string(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES - 1, 'x')}};
    QVERIFY(validateAnnotations(annotations, "metadata.annotations").empty());
    annotations["b"] = "";
    const auto causes = validateAnnotations(annotations, "metadata.annotations");
    QCOMPARE(describe(causes),
             QStringList{"FieldValueTooLong metadata.annotations: Too long: must have at most 262144 bytes"});
}

void TestObjectMetaValidation::labelsReportKeyAndValueSeparately()
{
    const auto causes = validateLabels({{"a/b/c", "ok"}, {"good", "-bad"}}, "spec.template.metadata.labels");
    QCOMPARE(causes.size(), std::size_t(2));
    QCOMPARE(causes[0].field, std::string("spec.template.metadata.labels"));
    QVERIFY(causes[0].message.rfind("Invalid value: \"a/b/c\": a qualified name", 0) == 0);
    QCOMPARE(causes[1].message, ("Invalid value: \"-bad\": " + LABEL_VALUE_ERROR).toStdString());
    QVERIFY(validateLabels({{"app.kubernetes.io/name", ""}}, "metadata.labels").empty());
}

void TestObjectMetaValidation::jsonMapsValidateLikeStringMaps()
{
    // The JSON overloads read the object in place; members that are not strings are skipped,
    // as Object::labels() skips them, and the path is the one given.
    const nlohmann::json labels = nlohmann::json::parse(R"({"a/b/c":"ok","good":"-bad","n":5,"fine":"yes"})");
    const std::map<std::string, std::string> labelMap = {{"a/b/c", "ok"}, {"good", "-bad"}, {"fine", "yes"}};
    QCOMPARE(describe(validateLabels(labels, FieldPath("spec.template.metadata.labels"))),
             describe(validateLabels(labelMap, "spec.template.metadata.labels")));
    QCOMPARE(validateLabels(labels, FieldPath("x")).size(), std::size_t(2));

    const nlohmann::json annotations =
        nlohmann::json::parse(R"({"Example.COM/Key":"v","bad key":"v","UPPER_ok":"v","n":null})");
    const std::map<std::string, std::string> annotationMap = {
        {"Example.COM/Key", "v"}, {"bad key", "v"}, {"UPPER_ok", "v"}};
    const auto causes = validateAnnotations(annotations, FieldPath("metadata.annotations"));
    QCOMPARE(describe(causes), describe(validateAnnotations(annotationMap, "metadata.annotations")));
    // Only "bad key" is wrong: keys are compared case-insensitively, and the value reported
    // keeps its case.
    QCOMPARE(causes.size(), std::size_t(1));
    QVERIFY(causes[0].message.rfind("Invalid value: \"bad key\": name part", 0) == 0);

    nlohmann::json big = nlohmann::json::object();
    big["a"] = std::string(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES, 'x');
    QCOMPARE(describe(validateAnnotations(big, FieldPath("metadata.annotations"))),
             QStringList{"FieldValueTooLong metadata.annotations: Too long: must have at most 262144 bytes"});

    QVERIFY(validateLabels(nlohmann::json("not a map"), FieldPath("metadata.labels")).empty());
    QVERIFY(validateAnnotations(nlohmann::json(), FieldPath("metadata.annotations")).empty());
}

QTEST_GUILESS_MAIN(TestObjectMetaValidation)
#include "TestObjectMetaValidation.moc"
