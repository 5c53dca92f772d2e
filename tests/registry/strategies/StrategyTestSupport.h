// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <QtCore/QString>

#include "model/Object.h"
#include "model/Status.h"

// Helpers shared by the strategy tests: objects from JSON literals, and lookups in the
// field errors a strategy returns.
namespace rvscope::testing {

inline model::Object objectFrom(const char *json)
{
    return model::Object(nlohmann::json::parse(json));
}

// "field: message | field: message" for failure output.
inline QString describe(const std::vector<model::StatusCause> &causes)
{
    QString text;
    for (const model::StatusCause &cause : causes)
        text += QString::fromStdString(cause.field + ": " + cause.message + " (" + cause.type + ")") + QStringLiteral(" | ");
    return text.isEmpty() ? QStringLiteral("<no causes>") : text;
}

// The first cause on `field`, or nullptr.
inline const model::StatusCause *causeOn(const std::vector<model::StatusCause> &causes, const std::string &field)
{
    for (const model::StatusCause &cause : causes) {
        if (cause.field == field)
            return &cause;
    }
    return nullptr;
}

// Stamps what the Store fills before the strategy runs (uid, timestamp), as a create would.
inline void stampIdentity(model::Object &object, const std::string &uid = "uid-1")
{
    object.setUid(uid);
    object.setCreationTimestamp("2026-11-21T10:00:00Z");
}

} // namespace rvscope::testing

// QCOMPARE-friendly checks of one cause: its type and message on `field`.
#define RVSCOPE_EXPECT_CAUSE(causes, fieldPath, causeType, causeMessage)                                          \
    do {                                                                                                          \
        const std::vector<rvscope::model::StatusCause> all_ = (causes);                                          \
        const std::string field_ = (fieldPath);                                                                  \
        const auto *found_ = rvscope::testing::causeOn(all_, field_);                                             \
        QVERIFY2(found_ != nullptr, qPrintable(QStringLiteral("no cause on ") + QString::fromStdString(field_)    \
                                               + QStringLiteral(": ") + rvscope::testing::describe(all_)));       \
        QCOMPARE(found_->type, std::string(causeType));                                                           \
        QCOMPARE(found_->message, std::string(causeMessage));                                                     \
    } while (false)
