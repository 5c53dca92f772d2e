// SPDX-License-Identifier: MIT
#pragma once

#include "model/Object.h"
#include "model/Result.h"

// The autoscaling/v1 Scale view of a workload (upstream's scaleFromDeployment,
// scaleFromReplicaSet, ... and their scaleUpdatedObjectInfo) for the /scale subresource of
// every type with spec.replicas and a selector: Deployment, ReplicaSet, StatefulSet, and
// ReplicationController, whose selector is a plain map. Pure functions.
namespace rvscope::registry {

// {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{name,namespace,uid,
// resourceVersion,creationTimestamp},"spec":{"replicas":N},"status":{"replicas":M,
// "selector":"app=web"}}: N from spec.replicas (left out when 0, autoscaling/v1 omitempty),
// M from status.replicas (0 when absent), the selector as LabelSelector::toString() prints
// it. A selector that cannot be converted is a 400 BadRequest.
model::Result<model::Object> scaleOf(const model::Object &workload);

// Writes a Scale back: validates it (`Scale.autoscaling "web" is invalid: spec.replicas:
// Invalid value: -1: must be greater than or equal to 0`), then sets the workload's
// spec.replicas and copies the Scale's metadata.resourceVersion onto it, so that a Scale read
// at an old resourceVersion conflicts like a stale workload and one without a
// resourceVersion is an unconditional update.
model::Result<model::Object> applyScale(const model::Object &scale, model::Object workload);

} // namespace rvscope::registry
