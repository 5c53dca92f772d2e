// SPDX-License-Identifier: MIT
#pragma once

#include "registry/strategies/DeclaredStrategy.h"

// The declared rules of the built-in types without a hand-written strategy: scope, update
// rules, the status split and generation, and the defaulting and validation clients depend
// on (upstream pkg/apis/<group>/v1/defaults.go and pkg/apis/<group>/validation). One function
// per kind; BuiltinTypes.cpp's descriptor table names them.
namespace rvscope::registry::rules {

// core/v1
TypeRules serviceAccount();
TypeRules endpoints();
TypeRules replicationController();
TypeRules persistentVolume();
TypeRules podTemplate();
TypeRules limitRange();
TypeRules resourceQuota();

// apps/v1
TypeRules replicaSet();
TypeRules statefulSet();
TypeRules daemonSet();
TypeRules controllerRevision();

// batch/v1
TypeRules job();
TypeRules cronJob();

// rbac.authorization.k8s.io/v1
TypeRules role();
TypeRules clusterRole();
TypeRules roleBinding();
TypeRules clusterRoleBinding();

// discovery.k8s.io, networking.k8s.io, policy, autoscaling, storage.k8s.io,
// scheduling.k8s.io, admissionregistration.k8s.io, apiregistration.k8s.io
TypeRules endpointSlice();
TypeRules ingress();
TypeRules ingressClass();
TypeRules networkPolicy();
TypeRules podDisruptionBudget();
TypeRules horizontalPodAutoscaler();
TypeRules storageClass();
TypeRules priorityClass();
TypeRules webhookConfiguration();
TypeRules apiService();

} // namespace rvscope::registry::rules
