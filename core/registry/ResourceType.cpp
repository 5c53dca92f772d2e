// SPDX-License-Identifier: MIT
#include "registry/ResourceType.h"

namespace rvscope::registry {

std::string ResourceType::key(const std::string &ns, const std::string &name) const
{
    return namespaced() ? storagePrefix + '/' + ns + '/' + name : storagePrefix + '/' + name;
}

std::string ResourceType::prefix(const std::string &ns) const
{
    return namespaced() && !ns.empty() ? storagePrefix + '/' + ns + '/' : storagePrefix + '/';
}

std::string ResourceType::qualifiedKind() const
{
    return gvr.group.empty() ? kind : kind + '.' + gvr.group;
}

} // namespace rvscope::registry
