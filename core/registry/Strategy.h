// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/Object.h"
#include "model/Status.h"

namespace rvscope::registry {

// How a resource type's objects are created, updated and validated: the per-type half of
// the apiserver's generic Store (k8s.io/apiserver registry/rest RESTCreateStrategy,
// RESTUpdateStrategy, RESTDeleteStrategy). One instance per type (and per subresource that
// changes the rules, such as /status). Pure functions of their arguments; any thread.
class Strategy {
public:
    enum class NameRule { Dns1123Subdomain, Dns1123Label, Dns1035Label, PathSegment };

    virtual ~Strategy() = default;

    virtual bool namespaced() const = 0;
    // PUT of a missing object creates it (201) instead of answering 404.
    virtual bool allowCreateOnUpdate() const { return false; }
    // PUT without metadata.resourceVersion is accepted as last-writer-wins (true for
    // built-ins); otherwise it is 422 "must be specified for an update" (custom resources).
    virtual bool allowUnconditionalUpdate() const { return true; }
    // DELETE answers with the deleted object instead of a success Status (pods).
    virtual bool returnDeletedObject() const { return false; }
    // DELETE of the collection is served (namespaces: 405, they are deleted one by one).
    virtual bool allowDeleteCollection() const { return true; }
    virtual bool supportsStrategicMerge() const { return true; }
    virtual NameRule nameRule() const { return NameRule::Dns1123Subdomain; }
    // Whether core validation's rule for finalizer names applies (a name without a domain must
    // be a standard finalizer): true for the types whose validation runs
    // pkg/apis/core/validation's ValidateObjectMeta; false for those that run apimachinery's
    // alone (CRDs and custom resources, Leases, webhook configurations, APIServices) or check
    // no metadata (PodDisruptionBudgets).
    virtual bool kubeFinalizerNames() const { return true; }

    // Clears what a client may not set on create (status where the type has a /status
    // subresource) and fills defaults. Identity fields (uid, timestamps, generation) are the
    // Store's business, not the strategy's.
    virtual void prepareForCreate(model::Object &object) const;
    // Resets what this endpoint may not change (status on the main resource, everything but
    // status on /status) from `old`.
    virtual void prepareForUpdate(model::Object &object, const model::Object &old) const;
    // Whether the change from `old` bumps metadata.generation (types that have one).
    virtual bool hasGeneration() const { return false; }
    virtual bool generationChanged(const model::Object &object, const model::Object &old) const;

    // Field errors (FieldValueInvalid, FieldValueRequired, ...), empty when valid. The base
    // class validates metadata: name (per nameRule), labels, annotations.
    virtual std::vector<model::StatusCause> validate(const model::Object &object) const;
    virtual std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                           const model::Object &old) const;

    // Values for fieldSelector: metadata.name and metadata.namespace (namespaced types)
    // plus the type's own (spec.nodeName for pods, type for secrets, ...).
    virtual std::map<std::string, std::string> selectableFields(const model::Object &object) const;
    // The labels selectableFields() adds beyond metadata.name/metadata.namespace.
    virtual std::vector<std::string> extraFieldLabels() const { return {}; }

protected:
    // Copies `field` of `old` over `object` (or removes it when `old` lacks it).
    static void keepField(model::Object &object, const model::Object &old, const char *field);
};

} // namespace rvscope::registry
