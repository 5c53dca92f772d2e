// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include <qcoro/qcorotask.h>

#include "registry/StoreTypes.h"
#include "registry/validation/KnownFields.h"
#include "registry/UpdatedObjectInfo.h"

namespace rvscope::registry {

// What a GET, PUT or PATCH of one object addresses: a resource's Store, its /status Store,
// or its /scale view (the apiserver's rest.Getter and rest.Updater, which every REST
// storage and subresource storage implements). The API layer resolves one per request and
// never asks which it holds. Core thread only.
class ObjectStore {
public:
    virtual ~ObjectStore() = default;

    // The kind and apiVersion of the objects it reads and takes ("Scale", "autoscaling/v1"
    // for /scale), which a PUT body must name.
    virtual std::string kind() const = 0;
    virtual std::string apiVersion() const = 0;
    // Whether a strategic merge patch applies to its objects (not to custom resources).
    virtual bool supportsStrategicMerge() const = 0;
    // The fields its objects may have (a body's others are dropped), or null: keep all.
    virtual const KnownFields *knownFields() const { return KnownFields::find(apiVersion(), kind()); }

    virtual QCoro::Task<model::Result<ObjectPtr>> get(std::string ns, std::string name) = 0;
    // `info` produces the new object from the current one (a PUT body or a PATCH).
    virtual QCoro::Task<model::Result<UpdateResponse>> update(std::string ns, std::string name,
                                                              std::shared_ptr<const UpdatedObjectInfo> info,
                                                              WriteOptions options) = 0;
};

} // namespace rvscope::registry
