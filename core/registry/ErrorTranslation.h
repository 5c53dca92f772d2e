// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "model/GroupVersion.h"
#include "model/Status.h"

// The one place storage errors become resource-specific API errors (the apiserver's
// storeerr.Interpret*Error). Statuses that did not come from storage pass through.
namespace rvscope::registry {

model::Status interpretGetError(model::Status error, const model::GroupResource &resource, const std::string &name);
model::Status interpretCreateError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name);
model::Status interpretUpdateError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name);
model::Status interpretDeleteError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name);

} // namespace rvscope::registry
