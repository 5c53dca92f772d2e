// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// The helpers the apiserver's printers share (shared/reference/table-output.md §5.1, §6).
namespace rvscope::api::table {

// Seconds since the epoch of an RFC 3339 UTC time ("2026-11-26T10:00:00Z", fractions
// allowed, as MicroTime writes them); nullopt for anything else.
std::optional<std::int64_t> parseTime(std::string_view text);
// duration.HumanDuration of `seconds`: "59s", "5m3s", "3h25m", "2d2h", "2y".
std::string humanDuration(std::int64_t seconds);
// translateTimestampSince: "<unknown>" for a missing or unparsable time, else its age at `now`.
std::string age(const nlohmann::json &timestamp, std::int64_t now);
// labels.FormatLabels: "k=v" sorted, joined with ','; "<none>" when empty.
std::string formatLabels(const nlohmann::json &labels);
// metav1.FormatLabelSelector: "<none>" for a null or empty selector, "<error>" for a bad operator.
std::string formatLabelSelector(const nlohmann::json &selector);
// A pod template's containers' names and images, joined with ','.
std::string containerNames(const nlohmann::json &podSpec);
std::string containerImages(const nlohmann::json &podSpec);
// A string field, or `otherwise` when absent or empty (model::stringOr keeps an empty one).
std::string textOr(const nlohmann::json &value, std::string otherwise);
// An integer field, or 0.
std::int64_t integerOr0(const nlohmann::json &value);
// The number of members or elements of an object or array; 0 for anything else.
std::size_t sizeOf(const nlohmann::json &value);
// `value` when it is an array, else an empty one: for walking lists a client may have left out.
const nlohmann::json &arrayOrEmpty(const nlohmann::json &value);
// `parts` joined with `separator` (strings.Join).
std::string joined(const std::vector<std::string> &parts, const char *separator);
// The printers' bounded lists (listWithMoreString): at most `max` of `count` entries joined with
// ',', then " + <count-max> more..." when `more`; "<unset>" when empty.
std::string listWithMore(const std::vector<std::string> &list, bool more, std::size_t count, std::size_t max);
// An IntOrString field as intstr.String() prints it: "1", "50%".
std::string intOrString(const nlohmann::json &value);

// metadata.name, and the §6 age since metadata.creationTimestamp.
std::string objectName(const nlohmann::json &object);
std::string objectAge(const nlohmann::json &object, std::int64_t now);

} // namespace rvscope::api::table
