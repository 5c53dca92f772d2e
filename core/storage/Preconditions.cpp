// SPDX-License-Identifier: MIT
#include "storage/StorageTypes.h"

#include "storage/StorageErrors.h"

namespace rvscope::storage {

std::optional<model::Status> Preconditions::check(const std::string &key, const model::Object &object) const
{
    if (uid && *uid != object.uid()) {
        return errors::invalidObject(key, "Precondition failed: UID in precondition: " + *uid
                                              + ", UID in object meta: " + object.uid());
    }
    if (resourceVersion && *resourceVersion != object.resourceVersion()) {
        return errors::invalidObject(key, "Precondition failed: ResourceVersion in precondition: "
                                              + *resourceVersion + ", ResourceVersion in object meta: "
                                              + object.resourceVersion());
    }
    return std::nullopt;
}

} // namespace rvscope::storage
