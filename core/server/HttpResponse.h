// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <QtCore/QByteArray>

namespace rvscope::model {
struct Status;
}

namespace rvscope::server {

// A complete HTTP response, serialized into one buffer so that it leaves in one write.
// The fields are the API layer's own strings, moved in rather than converted.
struct HttpResponse final {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;

    static HttpResponse fromStatus(const model::Status &status);
    // Status line, headers and body, with the body copied once (the only copy on the way
    // from the API layer to the socket).
    QByteArray serialize(bool keepAlive) const;
};

const char *reasonPhrase(int status);

} // namespace rvscope::server
