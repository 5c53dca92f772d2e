// SPDX-License-Identifier: MIT
#pragma once

// KnownFields' tables (private to KnownFields*.cpp): each type's fields and what each holds.

#include <map>
#include <string>
#include <vector>

#include "registry/validation/KnownFields.h"

namespace rvscope::registry {

struct KnownFields::Ref {
    // Any: taken raw (RawExtension, JSON, FieldsV1: nothing inside is looked at); Interface:
    // decoded into interface{} (no unknown fields, but repeated keys count).
    enum class Terminal { Scalar, Any, Interface, Struct };
    std::string containers; // '[' a list, '{' a map with string keys, outermost first
    Terminal terminal = Terminal::Scalar;
    int type = -1; // Struct: index into Tables::types
};

struct KnownFields::Tables {
    std::vector<std::map<std::string, Ref, std::less<>>> types;
    std::vector<char> preserveUnknown; // per type: x-kubernetes-preserve-unknown-fields
    bool custom = false; // a custom resource's: errors in apiextensions' order
    int objectMeta = -1; // a custom resource's ObjectMeta: an embedded one is pruned last
    std::vector<Ref> structs; // a Ref to each type, for scans that start at one
    std::map<std::string, KnownFields, std::less<>> kinds; // "apps/v1/Deployment"
};

} // namespace rvscope::registry
