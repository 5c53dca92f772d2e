// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace rvscope::model {

// One YAML document as the JSON tree sigs.k8s.io/yaml makes of it (a server-side apply body
// is YAML, or JSON, which is YAML too): plain scalars typed as YAML 1.1 resolves them (null,
// true/false, integers, floats), quoted ones strings; map keys are strings. On failure, the
// parser's message (nullopt-like: the std::string alternative).
std::variant<nlohmann::json, std::string> parseYaml(std::string_view text);

} // namespace rvscope::model
