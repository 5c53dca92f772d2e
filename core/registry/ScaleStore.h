// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "registry/ObjectStore.h"
#include "registry/Store.h"

namespace rvscope::registry {

// The /scale subresource of workloads (deployments, replicasets, statefulsets,
// replicationcontrollers): reads and writes an autoscaling/v1 Scale that is a view of the
// workload (spec.replicas, status.replicas, the selector as a string). Writes go through
// the workload's Store::update, so a Scale carrying a stale resourceVersion gets the same
// 409 as a stale workload, and one without a
// resourceVersion is unconditional.
class ScaleStore final : public ObjectStore {
public:
    explicit ScaleStore(std::shared_ptr<Store> parent);

    std::string kind() const override { return "Scale"; }
    std::string apiVersion() const override { return "autoscaling/v1"; }
    // A Scale takes strategic merge patches, whatever its parent's type.
    bool supportsStrategicMerge() const override { return true; }

    QCoro::Task<model::Result<ObjectPtr>> get(std::string ns, std::string name) override;
    // `info` produces the new Scale from the current one (PUT body or PATCH); the response
    // object is the resulting Scale.
    QCoro::Task<model::Result<UpdateResponse>> update(std::string ns, std::string name,
                                                      std::shared_ptr<const UpdatedObjectInfo> info,
                                                      WriteOptions options) override;

private:
    std::shared_ptr<Store> m_parent;
};

} // namespace rvscope::registry
