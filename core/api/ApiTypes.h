// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/Object.h"

namespace rvscope::api {

class Watcher;

// One HTTP request as the API layer sees it, independent of the transport. Header names
// are lower case; a query parameter given twice keeps its first value, as the apiserver
// reads it (api/QueryString.h).
struct ApiRequest final {
    ApiRequest() = default;
    std::string method; // "GET", "POST", ...
    std::string path;   // percent-decoded, no query
    std::map<std::string, std::string> query;
    std::map<std::string, std::string> headers;
    std::string body;
    std::string user = "system:anonymous";

    std::string header(const std::string &lowerName) const;
    // The query value, or nullopt-like empty with `present` false.
    const std::string *queryValue(const std::string &name) const;
};

// What a resource request did, as the operation journal records it. The verbs fill it in;
// transports ignore it.
// The journal's reason for a server-side apply 409 (the wire's reason is "Conflict"): the
// cause type the apiserver gives each field another manager owns.
inline constexpr const char *FIELD_MANAGER_CONFLICT = "FieldManagerConflict";

struct ApiOutcome final {
    std::string resourceVersionSent; // the precondition or read resourceVersion the client sent
    // The Status reason of an error response; FIELD_MANAGER_CONFLICT for an ownership 409.
    std::string reason;
    std::string message; // an error response's Status message ("Apply failed with 1 conflict: ...")
    model::ObjectPtr object;         // the object written, read or deleted (null for lists)
    std::string resourceVersionProduced; // committed (writes), read (get, list) or "" (errors)
    std::string objectName; // a create's object name (its URL names none)
    int casRetries = 0;
    bool noop = false;
};

// A complete response, or the start of a watch stream (status 200, chunked JSON lines or
// WebSocket messages, fed by `watch`).
struct ApiResponse final {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::shared_ptr<Watcher> watch;
    ApiOutcome outcome;
    // Close the connection instead of replying (an injected fault: drop, drop-after-commit).
    bool dropConnection = false;
};

// One resource operation as the handler saw it, reported to the handler's observer (the
// operation journal) when its response is ready. Times are steady-clock nanoseconds.
struct OperationReport final {
    std::string clientId; // X-Rvscope-Client, else the User-Agent's product, else the user
    std::string requestBody; // writes (POST, PUT, PATCH) only, at most 64 KiB
    std::string strategy; // X-Rvscope-Strategy (rvscope's own clients), else empty
    std::string verb;     // get list create update patch delete deletecollection watch
    bool apply = false;   // a patch that is a server-side apply (application/apply-patch+yaml)
    std::string key;      // resource[/namespace][/name][/subresource]: "configmaps/default/foo"
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    int statusCode = 0;
    ApiOutcome outcome;
    // An injected fault acted on this operation: its action ("conflict", "delay-after-commit",
    // faults::actionName) and the id of the rule; empty and 0 otherwise.
    std::string injected;
    std::uint64_t faultRuleId = 0;
};

} // namespace rvscope::api
