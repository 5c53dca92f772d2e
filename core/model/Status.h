// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rvscope::model {

// The storage layer's error codes, numbered like k8s.io/apiserver/pkg/storage.StorageError so
// that messages embedding them ("Code: 4") read exactly like the apiserver's. None means the
// Status did not come from storage (the registry's own 409s, validation errors, ...).
enum class StorageCode {
    None = 0,
    KeyNotFound = 1,
    KeyExists = 2,
    ResourceVersionConflicts = 3,
    InvalidObj = 4,
    Unreachable = 5,
    InvalidError = 6,
};

struct StatusCause final {
    std::string type; // serialized as "reason", like metav1.StatusCause
    std::string message;
    std::string field;
};

struct StatusDetails final {
    std::string name;
    std::string group;
    std::string kind; // the resource plural for API errors, as the apiserver sends it
    std::string uid;
    std::vector<StatusCause> causes;
    int retryAfterSeconds = 0;
    // Written even when empty ("details":{}), as Go writes a non-nil *StatusDetails (the
    // request timeout's 504).
    bool present = false;

    bool empty() const;
};

// A Kubernetes metav1.Status: the one error type of every core layer, and the body of every
// HTTP error response. `code` is the HTTP status; `reason` the StatusReason string
// ("Conflict", "NotFound", ...). `storageCode`/`storageKey` are internal (never serialized):
// they let the registry translate storage errors into resource-specific ones.
struct Status final {
    int code = 0;
    std::string reason;
    std::string message;
    StatusDetails details;
    StorageCode storageCode = StorageCode::None;
    std::string storageKey;

    bool isSuccess() const { return code == 0 || (code >= 200 && code < 300); }

    // {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",...}; `code` and
    // empty details are left out the way the apiserver leaves them out.
    nlohmann::json toJson() const;
    // The same JSON as the apiserver writes it, byte for byte: the Go struct's field order
    // (kind, apiVersion, metadata, status, message, reason, details, code) and Go's string
    // escaping, without a trailing newline (a response body adds it). Written directly,
    // without a tree: every error response (a 409 of each lost compare-and-swap) is one.
    std::string dump() const;
    static Status fromJson(const nlohmann::json &json);

    static Status internalError(std::string message);
};

} // namespace rvscope::model
