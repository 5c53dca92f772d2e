// SPDX-License-Identifier: MIT
#include "server/HttpResponse.h"

#include <charconv>
#include <cstring>
#include <string_view>


#include "api/ApiTypes.h"

namespace rvscope::server {

HttpResponse HttpResponse::from(api::ApiResponse &&response)
{
    HttpResponse http;
    http.status = response.status;
    http.contentType = std::move(response.contentType);
    http.body = std::move(response.body);
    http.headers = std::move(response.headers);
    return http;
}

QByteArray HttpResponse::serialize(Persistence persistence) const
{
    // Sized exactly, then filled by plain copies: one allocation and no per-piece checks
    // (QByteArray::append goes through insert() for every piece).
    char statusDigits[24];
    const std::string_view statusText(statusDigits,
                                      std::size_t(std::to_chars(statusDigits, statusDigits + sizeof statusDigits, status).ptr - statusDigits));
    char lengthDigits[24];
    const std::string_view lengthText(lengthDigits,
                                      std::size_t(std::to_chars(lengthDigits, lengthDigits + sizeof lengthDigits, body.size()).ptr - lengthDigits));
    const std::string_view reason = reasonPhrase(status);
    const std::string_view VERSION = isHttp10(persistence) ? "HTTP/1.0 " : "HTTP/1.1 ";
    constexpr std::string_view CONTENT_TYPE = "\r\nContent-Type: ";
    constexpr std::string_view CONTENT_LENGTH = "\r\nContent-Length: ";
    constexpr std::string_view CRLF = "\r\n";
    constexpr std::string_view SEPARATOR = ": ";
    std::string_view connection = ""; // (not a null view: memcpy takes no null pointer, even for 0 bytes)
    if (persistence == Persistence::Close)
        connection = "Connection: close\r\n";
    else if (persistence == Persistence::KeepAliveHttp10)
        connection = "Connection: keep-alive\r\n";
    std::size_t size = VERSION.size() + statusText.size() + 1 + reason.size() + CONTENT_TYPE.size() + contentType.size()
        + CONTENT_LENGTH.size() + lengthText.size() + CRLF.size() + CRLF.size() + (omitBody ? 0 : body.size());
    for (const auto &[name, value] : headers)
        size += name.size() + SEPARATOR.size() + value.size() + CRLF.size();
    size += connection.size();
    QByteArray out(qsizetype(size), Qt::Uninitialized);
    char *at = out.data();
    auto put = [&at](std::string_view text) {
        std::memcpy(at, text.data(), text.size());
        at += text.size();
    };
    put(VERSION);
    put(statusText);
    *at++ = ' ';
    put(reason);
    put(CONTENT_TYPE);
    put(contentType);
    put(CONTENT_LENGTH);
    put(lengthText);
    put(CRLF);
    for (const auto &[name, value] : headers) {
        put(name);
        put(SEPARATOR);
        put(value);
        put(CRLF);
    }
    put(connection);
    put(CRLF);
    if (!omitBody)
        put(body);
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
    case 417: return "Expectation Failed";
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
