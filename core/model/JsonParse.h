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
// win; a UTF-8 byte order mark at the start is skipped), with one exception: nlohmann takes
// a NUL byte for the end of input and ignores what follows, while this parser, like Go's
// encoding/json in the apiserver, rejects anything but whitespace after the value. Numbers
// are read in the C locale whatever the process locale is. It is several times faster: every
// request body is parsed on the core thread, and nlohmann's lexer reads one character at
// a time through a callback and appends each to its token buffer. Nesting depth is bounded
// by memory only: the parser keeps its own stack, so a deep document cannot overflow the
// thread's stack.
std::optional<nlohmann::json> parseJson(std::string_view text);

} // namespace rvscope::model
