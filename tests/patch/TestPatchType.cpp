// SPDX-License-Identifier: MIT
#include <QTest>

#include "PatchTestSupport.h"
#include "patch/PatchType.h"

using rvscope::patch::PatchType;

Q_DECLARE_METATYPE(PatchType)

namespace {
const QByteArray ALL_ACCEPTED =
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json-patch+json, application/merge-patch+json, "
    "application/strategic-merge-patch+json, application/apply-patch+yaml";
const QByteArray CUSTOM_RESOURCE_ACCEPTED =
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";
} // namespace

class TestPatchType final : public QObject {
    Q_OBJECT

private slots:
    void parsesContentType_data();
    void parsesContentType();
    void rejectsUnknownContentType_data();
    void rejectsUnknownContentType();
    void mediaTypeRoundTrips();
    void unsupportedMediaTypeStatusForBuiltInTypes();
    void unsupportedMediaTypeStatusForCustomResources();
    void strategicMergeIsRefusedWhereNotAllowed();
};

void TestPatchType::parsesContentType_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<PatchType>("expected");

    QTest::newRow("json patch") << QByteArray("application/json-patch+json") << PatchType::JsonPatch;
    QTest::newRow("merge patch") << QByteArray("application/merge-patch+json") << PatchType::MergePatch;
    QTest::newRow("strategic merge patch") << QByteArray("application/strategic-merge-patch+json")
                                           << PatchType::StrategicMergePatch;
    QTest::newRow("apply patch") << QByteArray("application/apply-patch+yaml") << PatchType::ApplyPatch;
    QTest::newRow("parameters are cut at ;") << QByteArray("application/merge-patch+json; charset=utf-8")
                                             << PatchType::MergePatch;
    QTest::newRow("parameters without a space") << QByteArray("application/json-patch+json;charset=UTF-8")
                                                << PatchType::JsonPatch;
    QTest::newRow("header whitespace is trimmed") << QByteArray("  application/apply-patch+yaml\t")
                                                  << PatchType::ApplyPatch;
    QTest::newRow("several parameters") << QByteArray("application/strategic-merge-patch+json;a=b;c=d")
                                        << PatchType::StrategicMergePatch;
}

void TestPatchType::parsesContentType()
{
    QFETCH(QByteArray, contentType);
    QFETCH(PatchType, expected);

    const std::optional<PatchType> parsed = rvscope::patch::parsePatchType(contentType.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(*parsed, expected);
    for (bool strategicAllowed : {true, false}) {
        const rvscope::model::Result<PatchType> forRequest =
            rvscope::patch::patchTypeForRequest(contentType.toStdString(), strategicAllowed);
        if (expected == PatchType::StrategicMergePatch && !strategicAllowed) {
            QVERIFY(!forRequest.ok());
        } else {
            QVERIFY(forRequest.ok());
            QCOMPARE(*forRequest, expected);
        }
    }
}

void TestPatchType::rejectsUnknownContentType_data()
{
    QTest::addColumn<QByteArray>("contentType");

    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("blank") << QByteArray("   ");
    QTest::newRow("plain json") << QByteArray("application/json");
    QTest::newRow("yaml") << QByteArray("application/yaml");
    QTest::newRow("apply as json") << QByteArray("application/apply-patch+json");
    QTest::newRow("protobuf") << QByteArray("application/vnd.kubernetes.protobuf");
    // Upstream compares exactly: no case folding, no trimming before the ';'.
    QTest::newRow("upper case") << QByteArray("Application/Merge-Patch+JSON");
    QTest::newRow("space before ;") << QByteArray("application/merge-patch+json ; charset=utf-8");
    // Upstream only cuts at a ';' past index 0; either way nothing valid is left.
    QTest::newRow("leading ;") << QByteArray(";application/merge-patch+json");
    QTest::newRow("prefix only") << QByteArray("application/merge-patch");
    QTest::newRow("trailing garbage") << QByteArray("application/merge-patch+jsonx");
}

void TestPatchType::rejectsUnknownContentType()
{
    QFETCH(QByteArray, contentType);

    QVERIFY(!rvscope::patch::parsePatchType(contentType.toStdString()).has_value());
    const rvscope::model::Result<PatchType> builtIn =
        rvscope::patch::patchTypeForRequest(contentType.toStdString(), true);
    VERIFY_STATUS(builtIn, 415, "UnsupportedMediaType");
    QCOMPARE(QByteArray::fromStdString(builtIn.error().message), ALL_ACCEPTED);
    const rvscope::model::Result<PatchType> custom =
        rvscope::patch::patchTypeForRequest(contentType.toStdString(), false);
    VERIFY_STATUS(custom, 415, "UnsupportedMediaType");
    QCOMPARE(QByteArray::fromStdString(custom.error().message), CUSTOM_RESOURCE_ACCEPTED);
}

void TestPatchType::mediaTypeRoundTrips()
{
    for (PatchType type : {PatchType::JsonPatch, PatchType::MergePatch, PatchType::StrategicMergePatch,
                           PatchType::ApplyPatch}) {
        const std::optional<PatchType> parsed = rvscope::patch::parsePatchType(rvscope::patch::mediaType(type));
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, type);
    }
    QCOMPARE(QByteArray::fromStdString(std::string(rvscope::patch::mediaType(PatchType::ApplyPatch))),
             QByteArray("application/apply-patch+yaml"));
}

void TestPatchType::unsupportedMediaTypeStatusForBuiltInTypes()
{
    const rvscope::model::Status status = rvscope::patch::unsupportedPatchMediaType(true);
    QCOMPARE(status.code, 415);
    QCOMPARE(QByteArray::fromStdString(status.message), ALL_ACCEPTED);
    COMPARE_JSON(status.toJson(),
                 rvscope::patch::test::parsed(
                     "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                     "\"message\":\"" + ALL_ACCEPTED + "\",\"reason\":\"UnsupportedMediaType\",\"code\":415}"));
    QCOMPARE(rvscope::patch::acceptedPatchMediaTypes(true).size(), std::size_t(4));
}

void TestPatchType::unsupportedMediaTypeStatusForCustomResources()
{
    const rvscope::model::Status status = rvscope::patch::unsupportedPatchMediaType(false);
    QCOMPARE(status.code, 415);
    QCOMPARE(QByteArray::fromStdString(status.reason), QByteArray("UnsupportedMediaType"));
    QCOMPARE(QByteArray::fromStdString(status.message), CUSTOM_RESOURCE_ACCEPTED);
    QCOMPARE(rvscope::patch::acceptedPatchMediaTypes(false).size(), std::size_t(3));
}

void TestPatchType::strategicMergeIsRefusedWhereNotAllowed()
{
    const rvscope::model::Result<PatchType> result = rvscope::patch::patchTypeForRequest(
        "application/strategic-merge-patch+json; charset=utf-8", false);
    VERIFY_STATUS(result, 415, "UnsupportedMediaType");
    QCOMPARE(QByteArray::fromStdString(result.error().message), CUSTOM_RESOURCE_ACCEPTED);
}

QTEST_GUILESS_MAIN(TestPatchType)
#include "TestPatchType.moc"
