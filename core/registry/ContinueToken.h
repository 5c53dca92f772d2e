// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "model/Result.h"

namespace rvscope::registry {

// The opaque `continue` of a paginated list: the revision the first page was read at and the
// key (relative to the list prefix) the next page starts from. Encoded like the apiserver's
// (base64url of {"v":"meta.k8s.io/v1","rv":N,"start":"..."}), so it looks familiar in logs.
struct ContinueToken final {
    std::int64_t revision = 0;
    std::string start;

    std::string encode() const;
    // 400 BadRequest for anything that is not a token we issued.
    static model::Result<ContinueToken> decode(const std::string &token);
};

} // namespace rvscope::registry
