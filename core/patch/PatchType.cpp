// SPDX-License-Identifier: MIT
#include "patch/PatchType.h"

#include "model/StatusErrors.h"

namespace rvscope::patch {
namespace {

constexpr PatchType ALL_TYPES[] = {PatchType::JsonPatch, PatchType::MergePatch,
                                   PatchType::StrategicMergePatch, PatchType::ApplyPatch};

std::string_view trimmed(std::string_view text)
{
    constexpr std::string_view whitespace = " \t";
    const std::size_t first = text.find_first_not_of(whitespace);
    if (first == std::string_view::npos)
        return {};
    const std::size_t last = text.find_last_not_of(whitespace);
    return text.substr(first, last - first + 1);
}

} // namespace

std::string_view mediaType(PatchType type)
{
    switch (type) {
    case PatchType::JsonPatch:
        return "application/json-patch+json";
    case PatchType::MergePatch:
        return "application/merge-patch+json";
    case PatchType::StrategicMergePatch:
        return "application/strategic-merge-patch+json";
    case PatchType::ApplyPatch:
        return "application/apply-patch+yaml";
    }
    return {};
}

std::optional<PatchType> parsePatchType(std::string_view contentType)
{
    contentType = trimmed(contentType);
    // Upstream: `if idx := strings.Index(contentType, ";"); idx > 0`.
    if (const std::size_t semicolon = contentType.find(';');
        semicolon != std::string_view::npos && semicolon > 0)
        contentType = contentType.substr(0, semicolon);
    for (PatchType type : ALL_TYPES) {
        if (mediaType(type) == contentType)
            return type;
    }
    return std::nullopt;
}

std::vector<std::string_view> acceptedPatchMediaTypes(bool strategicMergeAllowed)
{
    std::vector<std::string_view> types;
    for (PatchType type : ALL_TYPES) {
        if (type != PatchType::StrategicMergePatch || strategicMergeAllowed)
            types.push_back(mediaType(type));
    }
    return types;
}

model::Status unsupportedPatchMediaType(bool strategicMergeAllowed)
{
    std::string message =
        "the body of the request was in an unknown format - accepted media types include: ";
    const std::vector<std::string_view> types = acceptedPatchMediaTypes(strategicMergeAllowed);
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (i > 0)
            message += ", ";
        message += types[i];
    }
    return model::errors::unsupportedMediaType(std::move(message));
}

model::Result<PatchType> patchTypeForRequest(std::string_view contentType, bool strategicMergeAllowed)
{
    const std::optional<PatchType> type = parsePatchType(contentType);
    if (!type || (*type == PatchType::StrategicMergePatch && !strategicMergeAllowed))
        return unsupportedPatchMediaType(strategicMergeAllowed);
    return *type;
}

} // namespace rvscope::patch
