// SPDX-License-Identifier: MIT
#include "registry/strategies/CustomResourceStrategy.h"

namespace rvscope::registry {

CustomResourceStrategy::CustomResourceStrategy(bool namespaced, bool statusSubresource, Endpoint endpoint)
    : m_namespaced(namespaced)
    , m_statusSubresource(statusSubresource)
    , m_endpoint(endpoint)
{
}

bool CustomResourceStrategy::generationChanged(const model::Object &object, const model::Object &old) const
{
    nlohmann::json a = object.json();
    nlohmann::json b = old.json();
    for (nlohmann::json *json : {&a, &b}) {
        json->erase("metadata");
        if (m_statusSubresource)
            json->erase("status");
    }
    return a != b;
}

void CustomResourceStrategy::prepareForCreate(model::Object &object) const
{
    if (m_statusSubresource)
        object.mutableJson().erase("status");
}

void CustomResourceStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    if (!m_statusSubresource)
        return;
    if (m_endpoint == Endpoint::Main) {
        keepField(object, old, "status");
        return;
    }
    // /status: everything but status stays as stored, including labels and annotations.
    model::Object result = old;
    const nlohmann::json &json = object.json();
    if (auto status = json.find("status"); status != json.end())
        result.mutableJson()["status"] = *status;
    else
        result.mutableJson().erase("status");
    result.setResourceVersion(object.resourceVersion());
    object = std::move(result);
}

} // namespace rvscope::registry
