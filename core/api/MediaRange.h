// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rvscope::api {

// One range of an Accept header: "application/json;as=Table;v=v1;g=meta.k8s.io;q=0.9".
struct MediaRange final {
    std::string type;                          // lower case "application/json"
    std::map<std::string, std::string> params; // lower-case names; values unquoted; no q
    double q = 1.0;

    // A parameter's value, "" when absent.
    std::string param(const char *name) const;
    // Plain JSON: a JSON (or wildcard) range that names no other object (no as=, no g=).
    bool acceptsPlainJson() const;
};

MediaRange parseMediaRange(std::string_view text);
// The ranges of an Accept header acceptable at all (q > 0), most preferred first (by q,
// then in the order given), as the apiserver's negotiation walks them.
std::vector<MediaRange> parseAccept(std::string_view header);

} // namespace rvscope::api
