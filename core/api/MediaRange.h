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

// The media types a resource endpoint serves, as the apiserver's 406 names them (its
// serializers: JSON, YAML, protobuf; CBOR only behind a feature gate that 1.32 leaves off).
inline constexpr std::string_view RESOURCE_MEDIA_TYPES =
    "application/json, application/yaml, application/vnd.kubernetes.protobuf";
// Whether a resource endpoint can answer a request with this Accept header, as upstream's
// NegotiateOutputMediaType decides (an empty header takes the default): some range names
// one of RESOURCE_MEDIA_TYPES (or application/*, */*) with no conversion it cannot make
// (as=Table in JSON or YAML, as=PartialObjectMetadata[List], both in meta.k8s.io v1 or
// v1beta1; stream=watch; sv=v1). False: 406 NotAcceptable.
bool acceptableByResourceEndpoint(std::string_view acceptHeader);

} // namespace rvscope::api
