// SPDX-License-Identifier: MIT
#include "server/RequestTarget.h"

#include <algorithm>
#include <cctype>

#include "api/QueryString.h"
#include "model/Utf8.h"

namespace rvscope::server {
namespace {
// How much of a refused target its error quotes.
constexpr std::size_t QUOTED_BYTES = 64;

bool isEscape(std::string_view text, std::size_t at)
{
    return at + 2 < text.size() && model::hexDigitValue(text[at + 1]) >= 0 && model::hexDigitValue(text[at + 2]) >= 0;
}

// The query with each '%' that starts no escape written as "%25", so that its value is
// judged as sent: `limit=%zz` is a bad limit (400) rather than no limit, which is what Go's
// url.Values would make of it by dropping the pair (a dropped labelSelector lists
// everything). A broken escape in a name still leaves a parameter nobody reads.
std::string withBrokenEscapesKept(std::string_view query)
{
    std::string out;
    out.reserve(query.size());
    for (std::size_t i = 0; i < query.size(); ++i) {
        out += query[i];
        if (query[i] == '%' && !isEscape(query, i))
            out += "25";
    }
    return out;
}

bool isSchemeChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
}
} // namespace

std::string readRequestTarget(std::string_view target, api::ApiRequest &request)
{
    const std::string quoted = "parse \"" + std::string(target.substr(0, QUOTED_BYTES)) + "\": ";
    if (std::any_of(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        return quoted + "net/url: invalid control character in URL";
    const std::size_t question = target.find('?');
    std::string_view path = target.substr(0, question);
    if (path != "*" && !path.starts_with('/')) {
        const std::size_t colon = path.find(':');
        const std::string_view scheme = path.substr(0, colon);
        if (colon == std::string_view::npos || scheme.empty() || !std::isalpha(static_cast<unsigned char>(scheme[0]))
            || !std::all_of(scheme.begin(), scheme.end(), isSchemeChar))
            return quoted + "invalid URI for request";
        path.remove_prefix(colon + 1);
        if (path.starts_with("//")) {
            const std::size_t slash = path.find('/', 2);
            path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
        } else if (!path.starts_with('/')) {
            path = {}; // an opaque URL
        }
    }
    std::string decoded;
    decoded.reserve(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') {
            decoded += path[i];
            continue;
        }
        if (!isEscape(path, i))
            return "invalid URL escape \"" + std::string(path.substr(i, 3)) + '"';
        decoded += char(model::hexDigitValue(path[i + 1]) * 16 + model::hexDigitValue(path[i + 2]));
        i += 2;
    }
    request.path = std::move(decoded);
    if (question != std::string_view::npos)
        request.query = api::parseQueryString(withBrokenEscapesKept(target.substr(question + 1)));
    return {};
}

} // namespace rvscope::server
