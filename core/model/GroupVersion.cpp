// SPDX-License-Identifier: MIT
#include "model/GroupVersion.h"

namespace rvscope::model {
namespace {
std::string joinApiVersion(const std::string &group, const std::string &version)
{
    return group.empty() ? version : group + '/' + version;
}
} // namespace

std::string GroupResource::toString() const
{
    return group.empty() ? resource : resource + '.' + group;
}

std::string GroupVersionResource::apiVersion() const
{
    return joinApiVersion(group, version);
}

std::string GroupVersionKind::apiVersion() const
{
    return joinApiVersion(group, version);
}

std::pair<std::string, std::string> splitApiVersion(const std::string &apiVersion)
{
    const auto slash = apiVersion.find('/');
    if (slash == std::string::npos)
        return {std::string(), apiVersion};
    return {apiVersion.substr(0, slash), apiVersion.substr(slash + 1)};
}

} // namespace rvscope::model
