// SPDX-License-Identifier: MIT
#include "patch/MergePatch.h"

#include <exception>
#include <string>

#include "model/StatusErrors.h"

namespace rvscope::patch {

using nlohmann::json;

json applyMergePatch(const json &target, const json &patch)
{
    if (!patch.is_object())
        return patch;
    json result = target.is_object() ? target : json::object();
    for (const auto &[name, value] : patch.items()) {
        if (value.is_null()) {
            result.erase(name);
            continue;
        }
        auto existing = result.find(name);
        // Recursing against null is what prunes nulls from patch values that land in new places.
        json merged = applyMergePatch(existing == result.end() ? json() : *existing, value);
        result[name] = std::move(merged);
    }
    return result;
}

model::Result<json> applyMergePatchToObject(const json &object, const json &patch)
{
    if (!patch.is_object())
        return model::errors::badRequest("Invalid JSON Patch");
    try {
        return applyMergePatch(object.is_object() ? object : json::object(), patch);
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
