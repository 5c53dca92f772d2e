// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace rvscope::model {

// A JSON string as Go's encoding/json writes it, which is what the apiserver's JSON
// serializer sends: '<', '>' and '&' as \u003c, \u003e and \u0026, U+2028 and U+2029
// escaped, \n \r \t \b \f by name, other control bytes as \u00XX, and each byte that is not
// part of valid UTF-8 as \ufffd. Appends the quoted string to `out`.
void appendGoJsonString(std::string &out, std::string_view text);

// What Go's json.Unmarshal says of `data` when it is not valid JSON, in its scanner's words
// ("invalid character 'a' looking for beginning of value", "unexpected end of JSON input",
// "exceeded max depth"); empty when `data` is valid JSON.
std::string goJsonSyntaxError(std::string_view data);

// The apiserver's summarizeData(data, maxLength) for decode errors: "<empty>", the text when
// it starts with '{', else hex; cut at maxLength bytes with " ..." after.
std::string goSummarizeData(std::string_view data, std::size_t maxLength = 30);

} // namespace rvscope::model
