// SPDX-License-Identifier: MIT
#pragma once

#include <set>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace rvscope::auth {

// The objects in its own namespace that a pod needs to run, as the node authorizer's graph
// populator reads them (podutil.VisitPodSecretNames / VisitPodConfigmapNames plus the
// claims). Containers are spec.containers, spec.initContainers and spec.ephemeralContainers.
//
// - secrets: imagePullSecrets[].name; containers' env[].valueFrom.secretKeyRef.name and
//   envFrom[].secretRef.name; volumes' secret.secretName, projected.sources[].secret.name,
//   csi.nodePublishSecretRef.name, azureFile.secretName and the secretRef.name of cephfs,
//   cinder, flexVolume, iscsi, rbd, scaleIO and storageos;
// - configmaps: containers' env[].valueFrom.configMapKeyRef.name and
//   envFrom[].configMapRef.name; volumes' configMap.name and projected.sources[].configMap.name;
// - persistentvolumeclaims: volumes' persistentVolumeClaim.claimName, and "<pod>-<volume>"
//   for generic ephemeral volumes (volumes[].ephemeral).
//
// Fields of the wrong JSON type and empty names are skipped, never an error. Pure; any thread.
struct PodReferences final {
    std::set<std::string> secrets;
    std::set<std::string> configMaps;
    std::set<std::string> persistentVolumeClaims;

    static PodReferences of(const nlohmann::json &pod);
    bool operator==(const PodReferences &) const = default;
};

} // namespace rvscope::auth
