// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/Status.h"

namespace rvscope::registry {

// metav1.ListOptions as the registry receives them (the API layer parses the query string).
// Declares a constructor: see the note on coroutine parameter structs in StorageTypes.h.
struct ListOptions final {
    ListOptions() = default;

    std::string labelSelector;
    std::string fieldSelector;
    std::string resourceVersion;      // "" (unset), "0" or a revision
    std::string resourceVersionMatch; // "", "NotOlderThan" or "Exact"
    std::int64_t limit = 0;
    std::string continueToken;
    bool allowWatchBookmarks = false;
    std::optional<bool> sendInitialEvents;
    std::optional<std::int64_t> timeoutSeconds;
};

// The apiserver's ValidateListOptions: 422 Invalid on "ListOptions.meta.k8s.io" with the
// upstream field messages (resourceVersionMatch without resourceVersion, with continue,
// "exact" with "0", unsupported values, sendInitialEvents misuse).
std::optional<model::Status> validateListOptions(const ListOptions &options, bool watch);

} // namespace rvscope::registry
