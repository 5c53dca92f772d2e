// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Result.h"

// Request bodies in Kubernetes' protobuf encoding. kubectl 1.32's imperative create commands
// (`create configmap|secret|namespace|serviceaccount|quota|deployment|job|cronjob|service|
// ingress|poddisruptionbudget|priorityclass|role|clusterrole|rolebinding|clusterrolebinding`,
// and `autoscale`) send their body only this way (wire contract, top note and §8.4); rvscope decodes it to the
// JSON object the same command would have sent as JSON, and answers in JSON. Pure functions;
// never throw; any thread.
namespace rvscope::api {

inline constexpr std::string_view KUBERNETES_PROTOBUF_CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

// True when `contentType` is Kubernetes protobuf: parameters after ';' are ignored, the media
// type compares case-insensitively.
bool isKubernetesProtobuf(std::string_view contentType);

// The object in `body` as Kubernetes JSON. `body` is the magic "k8s\0" and a runtime.Unknown
// whose typeMeta (apiVersion, kind) names the type and whose raw holds the object. Served
// types: v1 ConfigMap, Secret, Namespace, Pod, Service, ServiceAccount, ResourceQuota;
// apps/v1 Deployment; autoscaling/v1 HorizontalPodAutoscaler; batch/v1 Job, CronJob; coordination.k8s.io/v1 Lease;
// networking.k8s.io/v1 Ingress; policy/v1 PodDisruptionBudget; rbac.authorization.k8s.io/v1
// Role, ClusterRole, RoleBinding, ClusterRoleBinding; scheduling.k8s.io/v1 PriorityClass.
// `kind` and `apiVersion` come from typeMeta; the other fields follow Go's JSON encoding of the
// object (ProtobufJson.h), so the result equals the JSON body kubectl would have sent. Fields
// the schemas leave out are ignored, like unknown fields.
// Whether the kind fits the URL is the caller's check, as for JSON bodies.
// Errors, all 400 BadRequest with a message starting "unable to decode protobuf body: ": an
// empty body, a missing magic, a body that is only the magic, a malformed envelope, a missing
// kind or apiVersion, a kind that is not served ("no kind "X" is registered for version
// "v""), a malformed object, a value Go could not encode as JSON either.
model::Result<nlohmann::json> decodeKubernetesProtobuf(std::string_view body);

} // namespace rvscope::api
