// SPDX-License-Identifier: MIT
#include "registry/strategies/NamespaceStrategy.h"

namespace rvscope::registry {
namespace {
void labelWithName(model::Object &object)
{
    auto labels = object.labels();
    labels["kubernetes.io/metadata.name"] = object.name();
    object.setLabels(labels);
}
} // namespace

void NamespaceStrategy::prepareForCreate(model::Object &object) const
{
    nlohmann::json &json = object.mutableJson();
    json["status"] = {{"phase", "Active"}};
    json["spec"] = {{"finalizers", {"kubernetes"}}};
    labelWithName(object);
}

void NamespaceStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    keepField(object, old, "status");
    keepField(object, old, "spec");
    labelWithName(object);
}

} // namespace rvscope::registry
