// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Result.h"

namespace google::protobuf {
class Message;
}

// Kubernetes JSON from a decoded Kubernetes protobuf message: the JSON that Go's encoding/json
// writes for the same Go object, so that a protobuf request body and the JSON body kubectl
// would send for the same object decode to the same thing. Pure functions; never throw; any
// thread.
namespace rvscope::api {

// The JSON object for `message`, a message of the schemas in api/protobuf/kubernetes/ (kind
// and apiVersion are not part of it: the envelope carries them).
// * Keys are the proto field names, which Kubernetes chooses equal to the JSON keys.
// * Presence follows each field's (rvscope.pb.go) option, i.e. the Go field behind it:
//   omitempty values leave out zero scalars and empty lists/maps but always write structs,
//   pointers are written when present on the wire, inline structs merge into their parent.
// * meta/v1 Time → "2024-01-02T03:04:05Z" (whole seconds), MicroTime →
//   "2024-01-02T03:04:05.000000Z", the zero time → null; IntOrString → its number or string;
//   Quantity → its string; bytes → base64; int64 → a JSON number; text that is not UTF-8
//   gets U+FFFD per bad byte.
// Errors: 400 BadRequest (message without prefix) for values Go cannot write either: an
// IntOrString whose type is neither 0 nor 1, a time outside the years 0000-9999.
model::Result<nlohmann::json> kubernetesJsonFromProtobuf(const google::protobuf::Message &message);

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD, as
// Go's encoding/json writes such strings (nlohmann::json refuses to dump invalid UTF-8).
std::string validUtf8(std::string_view text);

} // namespace rvscope::api
