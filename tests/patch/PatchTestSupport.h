// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QTest>

#include <nlohmann/json.hpp>

// Helpers shared by the tests/patch executables.
namespace rvscope::patch::test {

// Parses JSON written in a test; malformed test data is a bug in the test, so it aborts.
inline nlohmann::json parsed(const QByteArray &text)
{
    nlohmann::json value = nlohmann::json::parse(text.constData(), nullptr, false);
    if (value.is_discarded())
        qFatal("malformed JSON in test data: %s", text.constData());
    return value;
}

inline QByteArray dumped(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump(2));
}

} // namespace rvscope::patch::test

// Semantic JSON equality (object member order does not matter, 1 == 1.0); on failure the two
// documents are shown indented.
#define COMPARE_JSON(actual, expected)                                                          \
    do {                                                                                        \
        const nlohmann::json actualJson_ = (actual);                                            \
        const nlohmann::json expectedJson_ = (expected);                                        \
        if (actualJson_ != expectedJson_) {                                                     \
            QCOMPARE(::rvscope::patch::test::dumped(actualJson_),                               \
                     ::rvscope::patch::test::dumped(expectedJson_));                            \
            QFAIL("JSON documents differ only in number representation");                      \
        }                                                                                       \
    } while (false)

// A failed model::Result with the given HTTP code and reason.
#define VERIFY_STATUS(result, expectedCode, expectedReason)                                     \
    do {                                                                                        \
        QVERIFY2(!(result).ok(), "expected an error Status, got a value");                      \
        QCOMPARE((result).error().code, (expectedCode));                                        \
        QCOMPARE(QByteArray::fromStdString((result).error().reason), QByteArray(expectedReason)); \
    } while (false)
