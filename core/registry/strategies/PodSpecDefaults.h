// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

// The defaults the apiserver applies while decoding a core/v1 PodSpec (pkg/apis/core/v1
// defaults.go), shared by pods and by the pod templates of workloads. Defaulting runs on every
// create and every update, so an update that omits a defaulted field does not change it.
// Members of the wrong JSON type are left alone for validation to report. No exceptions.
namespace rvscope::registry::podspec {

// SetDefaults_PodSpec and its parts: dnsPolicy ClusterFirst, restartPolicy Always,
// securityContext {}, terminationGracePeriodSeconds 30, schedulerName default-scheduler;
// per container (and init container): imagePullPolicy (Always for `:latest` or no tag, else
// IfNotPresent), terminationMessagePath /dev/termination-log, terminationMessagePolicy File,
// resources {}, ports[].protocol TCP, probe timings, env fieldRef apiVersion v1; volumes
// without a source become emptyDir, configMap/secret/projected/downwardAPI get defaultMode 420;
// serviceAccount and serviceAccountName mirror each other (the v1 conversion).
void applyPodSpecDefaults(nlohmann::json &spec);
// SetDefaults_Pod, which templates do not get: enableServiceLinks true, container requests
// defaulted from limits, hostPort = containerPort under hostNetwork.
void applyPodDefaults(nlohmann::json &spec);
// qos.ComputePodQOS: "BestEffort", "Burstable" or "Guaranteed" from the cpu/memory requests
// and limits of the containers and init containers.
std::string qosClass(const nlohmann::json &spec);

} // namespace rvscope::registry::podspec
