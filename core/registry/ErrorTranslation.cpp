// SPDX-License-Identifier: MIT
#include "registry/ErrorTranslation.h"

#include "model/StatusErrors.h"

namespace rvscope::registry {

using model::StorageCode;

model::Status interpretGetError(model::Status error, const model::GroupResource &resource, const std::string &name)
{
    if (error.storageCode == StorageCode::KeyNotFound)
        return model::errors::notFound(resource, name);
    return error;
}

model::Status interpretCreateError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name)
{
    if (error.storageCode == StorageCode::KeyExists)
        return model::errors::alreadyExists(resource, name);
    return error;
}

model::Status interpretUpdateError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name)
{
    switch (error.storageCode) {
    case StorageCode::KeyNotFound:
        return model::errors::notFound(resource, name);
    case StorageCode::KeyExists:
        return model::errors::alreadyExists(resource, name);
    case StorageCode::InvalidObj:
    case StorageCode::ResourceVersionConflicts:
        // The storage error text is part of the apiserver's message, verbatim.
        return model::errors::conflict(resource, name, error.message);
    default:
        return error;
    }
}

model::Status interpretDeleteError(model::Status error, const model::GroupResource &resource,
                                   const std::string &name)
{
    return interpretUpdateError(std::move(error), resource, name);
}

} // namespace rvscope::registry
