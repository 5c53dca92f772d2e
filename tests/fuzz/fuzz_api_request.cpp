// SPDX-License-Identifier: MIT
// libFuzzer target: the API layer's request handling with no sockets. The input is a request
// as text: "METHOD TARGET" on the first line, "name: value" header lines, an empty line, then
// the body; the target is read as the server's reader reads it (server::readRequestTarget;
// one it refuses never reaches the API). Everything below the transport runs: routing, authentication-free dispatch,
// decoding of JSON, YAML and protobuf bodies, validation of every type, each patch format,
// selectors, list/watch options, Table output. Every answer must be an HTTP status with a
// body; a crash, a sanitizer report or an exception out of the handler is a finding.
#include <cstdlib>
#include <optional>
#include <string>

#include "FuzzSupport.h"
#include "api/Watcher.h"
#include "server/RequestTarget.h"

using namespace rvscope;

namespace {
std::string_view takeLine(std::string_view &rest)
{
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    return line;
}

// The request, or nullopt for one whose target the server refuses.
std::optional<api::ApiRequest> parseRequest(std::string_view input)
{
    api::ApiRequest request;
    std::string_view first = takeLine(input);
    const std::size_t space = first.find(' ');
    request.method = std::string(space == std::string_view::npos ? std::string_view("GET") : first.substr(0, space));
    const std::string_view target = space == std::string_view::npos ? first : first.substr(space + 1);
    if (!server::readRequestTarget(target, request).empty())
        return std::nullopt;
    while (!input.empty()) {
        const std::string_view line = takeLine(input);
        if (line.empty())
            break;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::string name(line.substr(0, colon));
        for (char &c : name)
            c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
        request.headers[name] = std::string(value);
    }
    request.body = std::string(input);
    return request;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::optional<api::ApiRequest> request = parseRequest(fuzz::textOf(data, size));
    if (!request)
        return 0;
    fuzz::FuzzCore &core = fuzz::FuzzCore::next();
    api::ApiResponse response = QCoro::waitFor(core.handler->handle(std::move(*request)));
    if (response.watch)
        response.watch->close();
    if (response.status < 100 || response.status > 599)
        std::abort(); // no such HTTP status
    return 0;
}
