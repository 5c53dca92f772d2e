// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "model/Object.h"
#include "registry/ResourceType.h"

namespace rvscope::registry {

// Where the definitions themselves are served.
inline const model::GroupVersionResource CUSTOM_RESOURCE_DEFINITIONS = {"apiextensions.k8s.io", "v1",
                                                                        "customresourcedefinitions"};

// The resource types a CustomResourceDefinition defines: one per served version, all stored
// under /registry/<group>/<plural> (one object, whatever version it is read through). An
// invalid or incomplete definition yields none.
std::vector<std::shared_ptr<ResourceType>> customResourceTypes(const model::Object &crd);

} // namespace rvscope::registry
