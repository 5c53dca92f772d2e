// SPDX-License-Identifier: MIT
#pragma once

#include "api/table/Printers.h"

// The built-in kinds' printers, one factory each, grouped by the file that defines them
// (private to core/api/table; printerFor in Printers.cpp maps kinds to them). Kinds for which
// kube-apiserver 1.32 has no printer (LimitRange, Role, ClusterRole, CustomResourceDefinition)
// are absent: they get the default convertor (table-output.md §4.1).
namespace rvscope::api::table {

// WorkloadPrinters.cpp (table-output.md §5.2, §5.3)
Printer deployments();
Printer replicationControllers();
Printer replicaSets();
Printer statefulSets();
Printer daemonSets();
Printer controllerRevisions();
Printer podTemplates();

// BatchPrinters.cpp (§5.3)
Printer jobs();
Printer cronJobs();

// NetworkingPrinters.cpp (§5.2, §5.6)
Printer endpoints();
Printer endpointSlices();
Printer ingresses();
Printer ingressClasses();
Printer networkPolicies();

// RbacPrinters.cpp (§5.2)
Printer serviceAccounts();
Printer roleBindings();
Printer clusterRoleBindings();

// StoragePrinters.cpp (§5.2, §5.7)
Printer persistentVolumes();
Printer persistentVolumeClaims();
Printer storageClasses();

// PolicyPrinters.cpp (§5.2, §5.7)
Printer resourceQuotas();
Printer podDisruptionBudgets();
Printer priorityClasses();

// AutoscalingPrinters.cpp (§5.7)
Printer horizontalPodAutoscalers();

// ExtensionPrinters.cpp (§4.3, §5.2)
Printer validatingWebhookConfigurations();
Printer mutatingWebhookConfigurations();
Printer apiServices();

} // namespace rvscope::api::table
