// SPDX-License-Identifier: MIT
#include "auth/PodReferences.h"

#include <array>

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"

namespace rvscope::auth {
namespace {
using nlohmann::json;
using model::member;
using model::memberAt;

void add(std::set<std::string> &names, const json &value)
{
    if (value.is_string() && !value.get_ref<const std::string &>().empty())
        names.insert(value.get<std::string>());
}

// The elements of `value` when it is an array, nothing otherwise.
const json &listOf(const json &value)
{
    static const json none = json::array();
    return value.is_array() ? value : none;
}

void addContainers(PodReferences &refs, const json &containers)
{
    for (const json &container : listOf(containers)) {
        for (const json &env : listOf(member(container, "env"))) {
            add(refs.secrets, memberAt(env, "valueFrom", "secretKeyRef", "name"));
            add(refs.configMaps, memberAt(env, "valueFrom", "configMapKeyRef", "name"));
        }
        for (const json &source : listOf(member(container, "envFrom"))) {
            add(refs.secrets, memberAt(source, "secretRef", "name"));
            add(refs.configMaps, memberAt(source, "configMapRef", "name"));
        }
    }
}

// Volume plugins whose credentials live in a secret named by `<plugin>.secretRef.name`.
constexpr std::array<std::string_view, 7> SECRET_REF_PLUGINS = {"cephfs", "cinder", "flexVolume", "iscsi",
                                                                "rbd",    "scaleIO", "storageos"};

void addVolume(PodReferences &refs, const json &volume, const std::string &podName)
{
    add(refs.secrets, memberAt(volume, "secret", "secretName"));
    add(refs.secrets, memberAt(volume, "azureFile", "secretName"));
    add(refs.secrets, memberAt(volume, "csi", "nodePublishSecretRef", "name"));
    for (std::string_view plugin : SECRET_REF_PLUGINS)
        add(refs.secrets, memberAt(volume, plugin, "secretRef", "name"));
    add(refs.configMaps, memberAt(volume, "configMap", "name"));
    for (const json &source : listOf(memberAt(volume, "projected", "sources"))) {
        add(refs.secrets, memberAt(source, "secret", "name"));
        add(refs.configMaps, memberAt(source, "configMap", "name"));
    }
    add(refs.persistentVolumeClaims, memberAt(volume, "persistentVolumeClaim", "claimName"));
    // A generic ephemeral volume's claim is named after the pod and the volume
    // (ephemeral.VolumeClaimName).
    const json &volumeName = member(volume, "name");
    if (member(volume, "ephemeral").is_object() && volumeName.is_string() && !podName.empty())
        refs.persistentVolumeClaims.insert(podName + '-' + volumeName.get<std::string>());
}
} // namespace

PodReferences PodReferences::of(const json &pod)
{
    PodReferences refs;
    const json &spec = member(pod, "spec");
    const std::string podName = model::stringOr(memberAt(pod, "metadata", "name"));
    for (const json &secret : listOf(member(spec, "imagePullSecrets")))
        add(refs.secrets, member(secret, "name"));
    for (const char *containers : {"containers", "initContainers", "ephemeralContainers"})
        addContainers(refs, member(spec, containers));
    for (const json &volume : listOf(member(spec, "volumes")))
        addVolume(refs, volume, podName);
    return refs;
}

} // namespace rvscope::auth
