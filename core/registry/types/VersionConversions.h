// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "registry/ResourceType.h"

// The built-in versions served apart from their storage version, each with its conversion.
namespace rvscope::registry::conversions {

// autoscaling/v1 HorizontalPodAutoscaler ↔ the stored autoscaling/v2.
std::shared_ptr<const VersionConversion> horizontalPodAutoscalerV1();

} // namespace rvscope::registry::conversions
