// SPDX-License-Identifier: MIT
#include "server/HttpResponse.h"

#include <charconv>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Status.h"

namespace rvscope::server {

HttpResponse HttpResponse::fromStatus(const model::Status &status)
{
    HttpResponse response;
    response.status = status.code > 0 ? status.code : 200;
    response.body = status.dump();
    if (status.details.retryAfterSeconds > 0)
        response.headers.emplace_back("Retry-After", std::to_string(status.details.retryAfterSeconds));
    return response;
}

QByteArray HttpResponse::serialize(bool keepAlive) const
{
    // Appended piece by piece into one reserved buffer: no temporaries, one allocation.
    auto append = [](QByteArray &out, std::string_view text) { out.append(text.data(), qsizetype(text.size())); };
    auto appendNumber = [](QByteArray &out, std::size_t value) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
        out.append(digits, qsizetype(end - digits));
    };
    const char *reason = reasonPhrase(status);
    std::size_t headerBytes = 0;
    for (const auto &[name, value] : headers)
        headerBytes += name.size() + value.size() + 4;
    QByteArray out;
    out.reserve(qsizetype(body.size() + contentType.size() + headerBytes + 160));
    out.append("HTTP/1.1 ");
    appendNumber(out, std::size_t(status));
    out.append(' ');
    out.append(reason);
    out.append("\r\nContent-Type: ");
    append(out, contentType);
    out.append("\r\nContent-Length: ");
    appendNumber(out, body.size());
    out.append("\r\n");
    for (const auto &[name, value] : headers) {
        append(out, name);
        out.append(": ");
        append(out, value);
        out.append("\r\n");
    }
    if (!keepAlive)
        out.append("Connection: close\r\n");
    out.append("\r\n");
    append(out, body);
    return out;
}

const char *reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Unknown";
    }
}

} // namespace rvscope::server
