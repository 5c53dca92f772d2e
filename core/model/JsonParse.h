// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rvscope::model {

// Parses one JSON text (RFC 8259) into a tree, or nothing when the text is not JSON.
//
// Accepts and rejects exactly what nlohmann::json::parse(text, nullptr, false) does, and
// builds the same tree (the same value types: a non-negative integer is number_unsigned, a
// negative one number_integer, one that overflows 64 bits a double; later duplicate keys
// win; a UTF-8 byte order mark at the start is skipped), with two exceptions, both where
// Go's encoding/json in the apiserver differs from nlohmann too: nesting deeper than 10,000
// levels is refused (nlohmann builds such a tree, and its recursive dump(), copy and ==
// then overflow the thread's stack), and so is anything but whitespace after the value
// (nlohmann takes a NUL byte for the end of input and ignores what follows). Numbers are
// read in the C locale whatever the process locale is. It is several times faster: every
// request body is parsed on the core thread, and nlohmann's lexer reads one character at
// a time through a callback and appends each to its token buffer. The parser itself keeps
// its own stack, so no depth can overflow the thread's stack while parsing.
std::optional<nlohmann::json> parseJson(std::string_view text, bool *duplicateKeys = nullptr);

// The same for a Kubernetes object, keeping its metadata.managedFields, when that is a list,
// as a raw node of its text (see JsonWrite.h): validated, not built. For both, `duplicateKeys`,
// when given, says whether any object repeated a key (the later one won): the cue for strict
// decoding's duplicate-field check (registry/validation/KnownFields.h), free to take here.
std::optional<nlohmann::json> parseObjectJson(std::string_view text, bool *duplicateKeys = nullptr);
// The same for such a list's text, keeping each entry's fieldsV1 map raw (for the field
// manager, which reads the entries but not the sets inside).
std::optional<nlohmann::json> parseManagedFieldsJson(std::string_view text);

} // namespace rvscope::model
