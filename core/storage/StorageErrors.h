// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "model/Status.h"

// Storage-layer errors, shaped like k8s.io/apiserver storage.StorageError: a Status whose
// storageCode and storageKey are set and whose message is StorageError.Error()'s text
// ("StorageError: invalid object, Code: 4, Key: ..., ResourceVersion: 0, AdditionalErrorMsg:
// ..."), which the apiserver embeds verbatim in some 409 messages.
namespace rvscope::storage::errors {

model::Status keyNotFound(const std::string &key, std::int64_t revision = 0);
model::Status keyExists(const std::string &key, std::int64_t revision = 0);
model::Status invalidObject(const std::string &key, const std::string &additionalMessage);

// 410 Expired for a watch from a revision older than the retained history.
model::Status watchTooOld(std::int64_t requested, std::int64_t oldestAvailable);
// 410 Expired for an exact read below the retained history.
model::Status listTooOld();

} // namespace rvscope::storage::errors
