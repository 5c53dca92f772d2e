// SPDX-License-Identifier: MIT
#include "storage/StorageErrors.h"

#include "model/StatusErrors.h"

namespace rvscope::storage::errors {
namespace {
const char *codeText(model::StorageCode code)
{
    switch (code) {
    case model::StorageCode::KeyNotFound: return "key not found";
    case model::StorageCode::KeyExists: return "key exists";
    case model::StorageCode::ResourceVersionConflicts: return "resource version conflicts";
    case model::StorageCode::InvalidObj: return "invalid object";
    case model::StorageCode::Unreachable: return "server unreachable";
    case model::StorageCode::InvalidError: return "invalid error";
    case model::StorageCode::None: break;
    }
    return "unknown";
}

model::Status make(int httpCode, const char *reason, model::StorageCode code, const std::string &key,
                   std::int64_t revision, const std::string &additional)
{
    model::Status status;
    status.code = httpCode;
    status.reason = reason;
    status.storageCode = code;
    status.storageKey = key;
    status.message = std::string("StorageError: ") + codeText(code)
        + ", Code: " + std::to_string(static_cast<int>(code)) + ", Key: " + key
        + ", ResourceVersion: " + std::to_string(revision) + ", AdditionalErrorMsg: " + additional;
    return status;
}
} // namespace

model::Status keyNotFound(const std::string &key, std::int64_t revision)
{
    return make(404, "NotFound", model::StorageCode::KeyNotFound, key, revision, {});
}

model::Status keyExists(const std::string &key, std::int64_t revision)
{
    return make(409, "AlreadyExists", model::StorageCode::KeyExists, key, revision, {});
}

model::Status invalidObject(const std::string &key, const std::string &additionalMessage)
{
    return make(409, "Conflict", model::StorageCode::InvalidObj, key, 0, additionalMessage);
}

model::Status watchTooOld(std::int64_t requested, std::int64_t oldestAvailable)
{
    return model::errors::expired("too old resource version: " + std::to_string(requested) + " ("
                                  + std::to_string(oldestAvailable) + ")");
}

model::Status listTooOld()
{
    return model::errors::expired("The resourceVersion for the provided list is too old.");
}

} // namespace rvscope::storage::errors
