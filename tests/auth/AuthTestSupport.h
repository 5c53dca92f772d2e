// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <nlohmann/json.hpp>

#include "auth/Attributes.h"

// Builders shared by the auth tests.
namespace rvscope::testing {

inline auth::UserInfo user(const QString &name, const QStringList &groups = {})
{
    auth::UserInfo info;
    info.name = name.toStdString();
    for (const QString &group : groups)
        info.groups.push_back(group.toStdString());
    return info;
}

inline auth::Attributes request(const auth::UserInfo &who, const QString &verb, const QString &resource,
                                const QString &namespaceName = {}, const QString &name = {},
                                const QString &subresource = {})
{
    auth::Attributes attributes;
    attributes.user = who;
    attributes.verb = verb.toStdString();
    attributes.resource = resource.toStdString();
    attributes.namespaceName = namespaceName.toStdString();
    attributes.name = name.toStdString();
    attributes.subresource = subresource.toStdString();
    return attributes;
}

inline auth::Attributes pathRequest(const auth::UserInfo &who, const QString &verb, const QString &path)
{
    auth::Attributes attributes;
    attributes.user = who;
    attributes.verb = verb.toStdString();
    attributes.resourceRequest = false;
    attributes.path = path.toStdString();
    return attributes;
}

inline auth::UserInfo node(const QString &nodeName)
{
    return user(QStringLiteral("system:node:") + nodeName, {QStringLiteral("system:nodes"), QStringLiteral("system:authenticated")});
}

// A pod in `ns` named `name`, bound to `nodeName` ("" = unscheduled), whose spec is `spec`
// plus the node name.
inline nlohmann::json pod(const std::string &ns, const std::string &name, const std::string &nodeName,
                          nlohmann::json spec = nlohmann::json::object())
{
    if (!nodeName.empty())
        spec["nodeName"] = nodeName;
    if (!spec.contains("containers"))
        spec["containers"] = nlohmann::json::array({{{"name", "app"}, {"image", "busybox"}}});
    return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"namespace", ns}, {"name", name}}}, {"spec", spec}};
}

// A pod that mounts the secret `secretName` as a volume.
inline nlohmann::json podWithSecret(const std::string &ns, const std::string &name, const std::string &nodeName,
                                    const std::string &secretName)
{
    return pod(ns, name, nodeName,
               {{"volumes", nlohmann::json::array({{{"name", "creds"}, {"secret", {{"secretName", secretName}}}}})}});
}

} // namespace rvscope::testing
