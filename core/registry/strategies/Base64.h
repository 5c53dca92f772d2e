// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// Standard base64 (RFC 4648 with padding) as Go's encoding/base64.StdEncoding does it, which
// is how the apiserver decodes the []byte values of Secret.data. Pure functions.
namespace rvscope::registry {

std::string base64Encode(std::string_view bytes);

struct Base64Decoded final {
    std::string bytes;
    // The offset Go's CorruptInputError reports ("illegal base64 data at input byte N"), or
    // nullopt when the input decoded. \r and \n are skipped; padding is required.
    std::optional<std::size_t> errorOffset;
};
Base64Decoded base64Decode(std::string_view text);

} // namespace rvscope::registry
