// SPDX-License-Identifier: MIT
#include "registry/ResourceType.h"

#include <QtCore/QtGlobal>

#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {

std::optional<model::Status> invalidKeyName(const std::string &name)
{
    std::string reasons;
    if (name == "." || name == "..") {
        reasons = "may not be '" + name + "'";
    } else {
        for (const char *forbidden : {"/", "%"}) {
            if (name.find(forbidden) != std::string::npos)
                reasons += (reasons.empty() ? "may not contain '" : ";may not contain '") + std::string(forbidden) + "'";
        }
    }
    if (reasons.empty())
        return std::nullopt;
    return model::errors::badRequest("Name parameter invalid: " + goQuote(name) + ": " + reasons);
}

std::string ResourceType::key(const std::string &ns, const std::string &name) const
{
    return namespaced() ? storagePrefix + '/' + ns + '/' + name : storagePrefix + '/' + name;
}

std::string ResourceType::prefix(const std::string &ns) const
{
    return namespaced() && !ns.empty() ? storagePrefix + '/' + ns + '/' : storagePrefix + '/';
}

std::shared_ptr<const model::Object> ResourceType::served(std::shared_ptr<const model::Object> stored) const
{
    if (!conversion || !stored)
        return stored;
    model::Object view = *stored;
    try {
        conversion->fromStorage(view.mutableJson());
    } catch (const std::exception &error) {
        // Conversions do not throw by design; should one, a reader (a watch's sink among
        // them) gets the stored object rather than an exception in its path.
        qWarning("rvscope: converting %s to %s failed: %s", stored->name().c_str(), apiVersion().c_str(), error.what());
        return stored;
    }
    view.mutableJson()["apiVersion"] = apiVersion();
    return std::make_shared<const model::Object>(std::move(view));
}

void ResourceType::toStorage(model::Object &object) const
{
    if (!conversion)
        return;
    conversion->toStorage(object.mutableJson());
    object.mutableJson()["apiVersion"] = conversion->storageApiVersion;
}

std::string ResourceType::qualifiedKind() const
{
    return gvr.group.empty() ? kind : kind + '.' + gvr.group;
}

} // namespace rvscope::registry
