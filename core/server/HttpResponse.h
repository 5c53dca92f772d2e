// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <QtCore/QByteArray>

namespace rvscope::api {
struct ApiResponse;
}

namespace rvscope::server {

// What an answer does with its connection, as Go's server decides it from the request: an
// HTTP/1.1 connection stays open unless the request says "Connection: close", which the
// answer then says too; an HTTP/1.0 one closes unless it says "Connection: keep-alive",
// which the answer then says too. An answer to HTTP/1.0 has an HTTP/1.0 status line, and
// closes with no Connection field (Go's chunkWriter.writeHeader).
enum class Persistence { KeepAlive, Close, KeepAliveHttp10, CloseHttp10 };

constexpr bool closes(Persistence persistence)
{
    return persistence == Persistence::Close || persistence == Persistence::CloseHttp10;
}
constexpr bool isHttp10(Persistence persistence)
{
    return persistence == Persistence::KeepAliveHttp10 || persistence == Persistence::CloseHttp10;
}

// A complete HTTP response, serialized into one buffer so that it leaves in one write.
// The fields are the API layer's own strings, moved in rather than converted.
struct HttpResponse final {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    // An answer to HEAD: the Content-Length of the body, and no body (Go's server eats what
    // a handler writes for a HEAD request; a body would be read as the next answer).
    bool omitBody = false;

    // The API layer's response as bytes for the wire; the one place an ApiResponse becomes
    // HTTP (a Status becomes an ApiResponse in api::statusResponse, and only there).
    static HttpResponse from(api::ApiResponse &&response);
    // Status line, headers and body, with the body copied once (the only copy on the way
    // from the API layer to the socket).
    QByteArray serialize(Persistence persistence) const;
};

const char *reasonPhrase(int status);

} // namespace rvscope::server
