// SPDX-License-Identifier: MIT
#include "api/MediaRange.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace rvscope::api {
namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return result;
}

} // namespace

MediaRange parseMediaRange(std::string_view text)
{
    MediaRange range;
    std::size_t semicolon = text.find(';');
    range.type = lower(trim(text.substr(0, semicolon)));
    while (semicolon != std::string_view::npos) {
        text.remove_prefix(semicolon + 1);
        semicolon = text.find(';');
        const std::string_view param = text.substr(0, semicolon);
        const std::size_t equals = param.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string name = lower(trim(param.substr(0, equals)));
        std::string_view value = trim(param.substr(equals + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        if (name == "q") {
            // from_chars, not strtod: QCoreApplication sets the user's locale, whose decimal
            // separator may not be '.'. An unparsable weight counts as 0 (not acceptable).
            double q = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), q);
            range.q = error == std::errc() && end == value.data() + value.size() ? q : 0;
        } else {
            range.params[name] = std::string(value);
        }
    }
    return range;
}

std::string MediaRange::param(const char *name) const
{
    const auto found = params.find(name);
    return found == params.end() ? std::string() : found->second;
}

bool MediaRange::acceptsPlainJson() const
{
    // A range naming another object (as=...) asks for something else, such as a v2beta1
    // APIGroupDiscoveryList or a Table this server does not produce.
    if (params.count("as") != 0 || params.count("g") != 0)
        return false;
    return type == "application/json" || type == "application/*" || type == "*/*";
}

std::vector<MediaRange> parseAccept(std::string_view header)
{
    std::vector<MediaRange> ranges;
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        const std::string_view part = trim(header.substr(0, comma));
        if (!part.empty()) {
            MediaRange range = parseMediaRange(part);
            if (range.q > 0)
                ranges.push_back(std::move(range));
        }
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    }
    std::stable_sort(ranges.begin(), ranges.end(), [](const MediaRange &a, const MediaRange &b) { return a.q > b.q; });
    return ranges;
}

namespace {
// A range's media type as a serializer of the resource endpoints, or "" for none.
std::string_view servedType(const MediaRange &range)
{
    for (std::string_view served : {"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"}) {
        if (range.type == served)
            return served;
    }
    // A wildcard range takes the first serializer (JSON), as upstream's loop over them does.
    return range.type == "application/*" || range.type == "*/*" ? "application/json" : "";
}

// acceptMediaTypeOptions with a resource endpoint's restrictions.
bool servable(const MediaRange &range, std::string_view type)
{
    const std::string stream = range.param("stream");
    const std::string serverVersion = range.param("sv");
    if ((!stream.empty() && stream != "watch") || (!serverVersion.empty() && serverVersion != "v1"))
        return false;
    if (range.params.count("as") == 0 && range.params.count("g") == 0 && range.params.count("v") == 0)
        return true;
    const std::string group = range.param("g");
    const std::string version = range.param("v");
    if (group != "meta.k8s.io" || (version != "v1" && version != "v1beta1"))
        return false;
    const std::string kind = range.param("as");
    if (kind == "Table")
        return type == "application/json" || type == "application/yaml";
    return kind == "PartialObjectMetadata" || kind == "PartialObjectMetadataList";
}
} // namespace

bool acceptableByResourceEndpoint(std::string_view acceptHeader)
{
    if (trim(acceptHeader).empty())
        return true;
    const std::vector<MediaRange> ranges = parseAccept(acceptHeader);
    return std::any_of(ranges.begin(), ranges.end(), [](const MediaRange &range) {
        const std::string_view type = servedType(range);
        return !type.empty() && servable(range, type);
    });
}

} // namespace rvscope::api
