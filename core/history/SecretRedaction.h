// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "history/OperationRecord.h"

// What an exported history shows of Secrets. Histories travel (attached to bug reports,
// shared after a class), so by default a Secret's values stay home: its data and stringData
// keep their keys with the value "REDACTED", and kubectl's last-applied-configuration (a
// copy of the whole object) is redacted too. Everything else a checker or a reader needs
// (names, resourceVersions, statuses) is kept.
namespace rvscope::history {

inline constexpr const char *REDACTED = "REDACTED";

// Whether an operation is on Secrets: its key names the secrets resource, or its object is a
// Secret or a list of them.
bool touchesSecrets(const OperationRecord &operation);

// The object (a Secret, a list of them, or anything else, returned as it is) without its
// secret values.
nlohmann::json redactSecretObject(const nlohmann::json &object);

// A write's request body to a Secret: a JSON object redacted as above; anything else (YAML,
// a JSON patch, protobuf) replaced whole, since its values cannot be told apart here.
std::string redactSecretRequest(const std::string &body);

} // namespace rvscope::history
