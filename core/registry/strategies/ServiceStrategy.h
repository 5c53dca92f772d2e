// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Service (pkg/registry/core/service/strategy.go and the allocation its REST storage
// does): namespaced, names are DNS-1035 labels, PUT may create. Decoding defaults type
// ClusterIP, sessionAffinity None, ports[].protocol TCP, ports[].targetPort = port,
// internalTrafficPolicy Cluster, externalTrafficPolicy Cluster for NodePort/LoadBalancer.
// Create clears status to {"loadBalancer":{}} and, unless the client chose them, assigns
// spec.clusterIP/clusterIPs (IPv4 SingleStack, from 10.96.0.0/12) and node ports
// (30000-32767); both are derived from the object's uid, so they are stable but may collide
// (there is no allocator). Update keeps the stored status and carries the allocated clusterIP
// and node ports over when the client leaves them out, as upstream's patchAllocatedValues does.
// Validation: type, sessionAffinity, ports (required unless headless or ExternalName; port
// 1-65535; names required and unique when there are several; unique protocol/port pairs),
// externalName for ExternalName; on update the cluster IPs may not change
// (`spec.clusterIPs[0]: Invalid value: []string{...}: may not change once set`).
// Field selectors: spec.clusterIP, spec.type.
class ServiceStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool allowCreateOnUpdate() const override { return true; }
    NameRule nameRule() const override { return NameRule::Dns1035Label; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override { return {"spec.clusterIP", "spec.type"}; }

    static void applyDefaults(model::Object &object);
};

} // namespace rvscope::registry
