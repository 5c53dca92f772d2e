// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "registry/Strategy.h"

namespace rvscope::registry {

using Causes = std::vector<model::StatusCause>;

// The rules of a built-in type that needs no hand-written strategy, as declared data: the
// same knobs upstream's per-type strategy.go files turn (NamespaceScoped, AllowCreateOnUpdate,
// AllowUnconditionalUpdate, PrepareForCreate/Update's status reset, generation bumps), plus
// optional hooks for the type's defaulting and validation. Every hook sees the whole object.
struct TypeRules final {
    enum class Generation {
        None, // no metadata.generation
        Spec, // bumped when anything but metadata and status changes
    };

    bool namespaced = true;
    bool createOnUpdate = false;
    bool unconditionalUpdate = true;
    Generation generation = Generation::None;
    // The type has a /status subresource: create clears status, the main resource keeps the
    // stored status on update, and /status changes nothing but status.
    bool statusSplit = false;
    Strategy::NameRule nameRule = Strategy::NameRule::Dns1123Subdomain;
    // Core validation's finalizer-name rule (Strategy::kubeFinalizerNames); false for the
    // types whose validation upstream does not run core's ValidateObjectMeta.
    bool kubeFinalizerNames = true;
    // The status struct's integer fields without omitempty, which Go writes as 0 when unset
    // and typed clients require (the Python client refuses a ReplicaSetStatus without
    // `replicas`). Kept present on every write. Null-terminated; nullptr for none.
    const char *const *statusCounters = nullptr;
    // PrepareForCreate beyond the status reset, instead of `defaults` on create (a Job's
    // generated selector needs the uid the Store has just assigned).
    void (*prepareCreate)(nlohmann::json &object) = nullptr;
    // SetDefaults_<Kind>, run on create and on every update (as decoding runs it).
    void (*defaults)(nlohmann::json &object) = nullptr;
    // Validate<Kind>, after the object metadata's own checks.
    void (*validate)(const nlohmann::json &object, Causes &causes) = nullptr;
    // Validate<Kind>Update's extra checks (immutable fields), after validate().
    void (*validateUpdate)(const nlohmann::json &object, const nlohmann::json &old, Causes &causes) = nullptr;
};

// A Strategy that does what its TypeRules say.
class DeclaredStrategy final : public Strategy {
public:
    explicit DeclaredStrategy(TypeRules rules);

    bool namespaced() const override { return m_rules.namespaced; }
    bool allowCreateOnUpdate() const override { return m_rules.createOnUpdate; }
    bool allowUnconditionalUpdate() const override { return m_rules.unconditionalUpdate; }
    NameRule nameRule() const override { return m_rules.nameRule; }
    bool kubeFinalizerNames() const override { return m_rules.kubeFinalizerNames; }
    bool hasGeneration() const override { return m_rules.generation != TypeRules::Generation::None; }
    // Semantic comparison (apiequality.Semantic.DeepEqual): a client that re-sends the
    // same spec with nulls or empty structs filled in changes nothing.
    bool generationChanged(const model::Object &object, const model::Object &old) const override;
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;

private:
    TypeRules m_rules;
};

// The /status half of a statusSplit type (upstream's <kind>StatusStrategy): an update keeps
// everything but status and metadata from the stored object (`newObj.Spec = oldObj.Spec`)
// and never bumps the generation. Validation is the object metadata's, and the status
// counters must not be negative (the part of upstream's Validate<Kind>StatusUpdate every
// one of them shares).
class DeclaredStatusStrategy final : public Strategy {
public:
    explicit DeclaredStatusStrategy(TypeRules rules);

    bool namespaced() const override { return m_rules.namespaced; }
    NameRule nameRule() const override { return m_rules.nameRule; }
    bool kubeFinalizerNames() const override { return m_rules.kubeFinalizerNames; }
    bool hasGeneration() const override { return m_rules.generation != TypeRules::Generation::None; }
    bool generationChanged(const model::Object &, const model::Object &) const override { return false; }
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;

private:
    TypeRules m_rules;
};

} // namespace rvscope::registry
