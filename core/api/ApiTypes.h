// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rvscope::api {

class WatchStream;

// One HTTP request as the API layer sees it, independent of the transport. Header names
// are lower case; query parameters keep their last value (as Go's url.Values.Get does).
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

// A complete response, or the start of a watch stream (status 200, chunked JSON lines or
// WebSocket messages, fed by `watch`).
struct ApiResponse final {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::shared_ptr<WatchStream> watch;
};

} // namespace rvscope::api
