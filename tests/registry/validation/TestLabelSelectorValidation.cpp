// SPDX-License-Identifier: MIT
#include <QTest>

#include <nlohmann/json.hpp>

#include "registry/validation/LabelSelectorValidation.h"

using rvscope::registry::validateLabelSelector;

namespace {
QStringList describe(const std::vector<rvscope::model::StatusCause> &causes)
{
    QStringList lines;
    for (const auto &cause : causes)
        lines << QString::fromStdString(cause.type + ' ' + cause.field + ": " + cause.message);
    return lines;
}

const QString NAME_PART_ERROR =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const QString LABEL_VALUE_ERROR =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
    "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
} // namespace

// metav1validation.ValidateLabelSelector: the 422 causes a Deployment's spec.selector gets.
class TestLabelSelectorValidation final : public QObject {
    Q_OBJECT

private slots:
    void validates_data();
    void validates();
};

void TestLabelSelectorValidation::validates_data()
{
    QTest::addColumn<QByteArray>("selector");
    QTest::addColumn<QStringList>("causes");

    QTest::newRow("absent") << QByteArray("null") << QStringList{};
    QTest::newRow("empty") << QByteArray("{}") << QStringList{};
    QTest::newRow("valid") << QByteArray(R"({"matchLabels":{"app":"web"},"matchExpressions":[)"
                                         R"({"key":"tier","operator":"In","values":["a","b"]},)"
                                         R"({"key":"x","operator":"DoesNotExist"}]})")
                           << QStringList{};
    QTest::newRow("In without values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"In"}]})")
        << QStringList{"FieldValueRequired spec.selector.matchExpressions[0].values: Required value: must be "
                       "specified when `operator` is 'In' or 'NotIn'"};
    QTest::newRow("NotIn with empty values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":[]}]})")
        << QStringList{"FieldValueRequired spec.selector.matchExpressions[0].values: Required value: must be "
                       "specified when `operator` is 'In' or 'NotIn'"};
    QTest::newRow("Exists with values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]})")
        << QStringList{"FieldValueForbidden spec.selector.matchExpressions[0].values: Forbidden: may not be "
                       "specified when `operator` is 'Exists' or 'DoesNotExist'"};
    QTest::newRow("bad operator")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"Equals","values":["x"]}]})")
        << QStringList{"FieldValueInvalid spec.selector.matchExpressions[0].operator: Invalid value: \"Equals\": "
                       "not a valid selector operator"};
    QTest::newRow("missing operator and key, second expression")
        << QByteArray(R"({"matchExpressions":[{"key":"ok","operator":"Exists"},{}]})")
        << QStringList{"FieldValueInvalid spec.selector.matchExpressions[1].operator: Invalid value: \"\": "
                       "not a valid selector operator",
                       "FieldValueInvalid spec.selector.matchExpressions[1].key: Invalid value: \"\": name part must "
                       "be non-empty",
                       "FieldValueInvalid spec.selector.matchExpressions[1].key: Invalid value: \"\": " + NAME_PART_ERROR};
    QTest::newRow("bad value is indexed")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"In","values":["ok","-x"]}]})")
        << QStringList{"FieldValueInvalid spec.selector.matchExpressions[0].values[1]: Invalid value: \"-x\": "
                       + LABEL_VALUE_ERROR};
    QTest::newRow("bad matchLabels")
        << QByteArray(R"({"matchLabels":{"-a":"-b"}})")
        << QStringList{"FieldValueInvalid spec.selector.matchLabels: Invalid value: \"-a\": " + NAME_PART_ERROR,
                       "FieldValueInvalid spec.selector.matchLabels: Invalid value: \"-b\": " + LABEL_VALUE_ERROR};
    QTest::newRow("wrong JSON types")
        << QByteArray(R"({"matchLabels":{"a":1},"matchExpressions":[{"key":"a","operator":"In","values":"x"}]})")
        << QStringList{"FieldValueTypeInvalid spec.selector.matchLabels[a]: Invalid value: 1: must be a string",
                       "FieldValueTypeInvalid spec.selector.matchExpressions[0].values: Invalid value: \"x\": must "
                       "be an array of strings"};
    QTest::newRow("selector not an object")
        << QByteArray(R"("app=web")")
        << QStringList{"FieldValueTypeInvalid spec.selector: Invalid value: \"app=web\": must be an object"};
}

void TestLabelSelectorValidation::validates()
{
    QFETCH(QByteArray, selector);
    QFETCH(QStringList, causes);
    QCOMPARE(describe(validateLabelSelector(nlohmann::json::parse(selector.toStdString()), "spec.selector")), causes);
}

QTEST_GUILESS_MAIN(TestLabelSelectorValidation)
#include "TestLabelSelectorValidation.moc"
