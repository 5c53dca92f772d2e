// SPDX-License-Identifier: MIT
#include "auth/Attributes.h"

#include "registry/selection/FieldSelector.h"

namespace rvscope::auth {
namespace {
// validation/path.IsValidPathSegmentName: the name could stand in a URL path.
bool isValidPathSegmentName(const std::string &name)
{
    if (name.empty() || name == "." || name == "..")
        return false;
    return name.find_first_of("/%") == std::string::npos;
}
} // namespace

model::GroupResource Attributes::groupResource() const
{
    const auto slash = resource.find('/');
    if (slash == std::string::npos)
        return {std::string(), resource};
    return {resource.substr(0, slash), resource.substr(slash + 1)};
}

std::string Attributes::resourceFor(const model::GroupResource &resource)
{
    return resource.group.empty() ? resource.resource : resource.group + '/' + resource.resource;
}

void applyFieldSelectorName(Attributes &attributes, const registry::FieldSelector &selector)
{
    if (!attributes.resourceRequest || !attributes.name.empty())
        return;
    if (attributes.verb != "list" && attributes.verb != "watch")
        return;
    const auto name = selector.requiresExactMatch("metadata.name");
    if (name && isValidPathSegmentName(*name))
        attributes.name = *name;
}

} // namespace rvscope::auth
