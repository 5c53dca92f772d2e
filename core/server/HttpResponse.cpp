// SPDX-License-Identifier: MIT
#include "server/HttpResponse.h"

#include <nlohmann/json.hpp>

#include "model/Status.h"

namespace rvscope::server {

HttpResponse HttpResponse::fromStatus(const model::Status &status)
{
    HttpResponse response;
    response.status = status.code > 0 ? status.code : 200;
    response.body = QByteArray::fromStdString(status.toJson().dump());
    if (status.details.retryAfterSeconds > 0)
        response.headers.emplace_back("Retry-After", QByteArray::number(status.details.retryAfterSeconds));
    return response;
}

QByteArray HttpResponse::serialize(bool keepAlive) const
{
    QByteArray out;
    out.reserve(body.size() + 160);
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto &[name, value] : headers)
        out += name + ": " + value + "\r\n";
    if (!keepAlive)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += body;
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
