// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Event (pkg/registry/core/event/strategy.go): namespaced, no status, PUT may create.
// Validation (legacyValidateEvent for core/v1): metadata, and for an event without eventTime
// the involved object's namespace must match the event's
// (`involvedObject.namespace: Invalid value: "x": does not match event.namespace`; an event
// about a cluster-scoped object lives in "" or "default"). Field selectors:
// involvedObject.{kind,namespace,name,uid,apiVersion,resourceVersion,fieldPath}, reason,
// reportingComponent, source (source.component, else reportingComponent), type.
class EventStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool allowCreateOnUpdate() const override { return true; }
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override;
};

} // namespace rvscope::registry
