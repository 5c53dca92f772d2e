// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace rvscope::api {

// A URL's query as the apiserver reads it (Go's url.ParseQuery, then one value per name):
// pairs split on '&', the name from its value on the first '='; in both, '+' is a space and
// %XX a byte, so `labelSelector=name+in+%28a%29` is `name in (a)`. A pair holding a ';' or
// a bad escape is dropped, as Go drops it; a name given twice keeps its first value, as the
// apiserver's parameter decoding takes the first. `rawQuery` is still percent-encoded (no
// leading '?').
std::map<std::string, std::string> parseQueryString(std::string_view rawQuery);

// The query as Go's url.Values.Encode writes it: names in order, every byte but ASCII
// letters, digits and -_.~ escaped, a space as '+'. parseQueryString() reads it back.
std::string encodeQueryString(const std::map<std::string, std::string> &query);

} // namespace rvscope::api
