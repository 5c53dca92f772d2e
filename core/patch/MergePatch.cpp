// SPDX-License-Identifier: MIT
#include "patch/MergePatch.h"

#include <exception>
#include <string>

#include "model/StatusErrors.h"

namespace rvscope::patch {

using nlohmann::json;

namespace {
// In place, so that a deep patch copies nothing the patch does not replace.
void mergeInto(json &target, const json &patch)
{
    if (!patch.is_object()) {
        target = patch;
        return;
    }
    if (!target.is_object())
        target = json::object();
    for (const auto &[name, value] : patch.items()) {
        if (value.is_null()) {
            target.erase(name);
            continue;
        }
        // Merging into a fresh null is what prunes nulls from patch values that land in new
        // places.
        mergeInto(target[name], value);
    }
}
} // namespace

json applyMergePatch(const json &target, const json &patch)
{
    json result = target;
    mergeInto(result, patch);
    return result;
}

model::Result<json> applyMergePatchToObject(const json &object, const json &patch)
{
    if (!patch.is_object())
        return model::errors::badRequest("Invalid JSON Patch");
    try {
        json result = object.is_object() ? object : json::object();
        mergeInto(result, patch);
        return result;
    } catch (const std::exception &e) {
        return model::Status::internalError(std::string("applying a merge patch failed: ") + e.what());
    }
}

json createMergePatch(const json &original, const json &modified)
{
    if (!original.is_object() || !modified.is_object())
        return modified;
    json patch = json::object();
    for (const auto &[name, value] : original.items()) {
        if (!modified.contains(name))
            patch[name] = nullptr;
    }
    for (const auto &[name, value] : modified.items()) {
        auto before = original.find(name);
        if (before == original.end()) {
            patch[name] = value;
        } else if (*before == value) {
            continue;
        } else if (before->is_object() && value.is_object()) {
            json nested = createMergePatch(*before, value);
            if (!nested.empty())
                patch[name] = std::move(nested);
        } else {
            patch[name] = value;
        }
    }
    return patch;
}

} // namespace rvscope::patch
