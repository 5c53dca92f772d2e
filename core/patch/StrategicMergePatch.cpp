// SPDX-License-Identifier: MIT
#include "patch/StrategicMergePatch.h"

#include <exception>
#include <string>

#include "model/StatusErrors.h"
#include "patch/PatchErrors.h"
#include "patch/StrategicMerger.h"

namespace rvscope::patch {

model::Result<nlohmann::json> applyStrategicMergePatch(const nlohmann::json &original,
                                                       const nlohmann::json &patch,
                                                       std::string_view kind)
{
    // patch.go decodes the body into a map first; anything else fails there with Go's text.
    if (!patch.is_object())
        return model::errors::badRequest(std::string("json: cannot unmarshal ") + goJsonTypeName(patch)
                                         + " into Go value of type map[string]interface {}");
    if (!original.is_object())
        return model::Status::internalError("strategic merge patch needs an object to patch");
    try {
        model::Result<detail::MergedValue> merged =
            detail::StrategicMerger(kind).mergeMap(original, patch, std::string());
        if (!merged)
            return std::move(merged).error();
        if (merged->deleted)
            return nlohmann::json::object();
        return std::move(merged->value);
    } catch (const std::exception &e) {
        return model::Status::internalError(std::string("applying a strategic merge patch failed: ")
                                            + e.what());
    }
}

} // namespace rvscope::patch
