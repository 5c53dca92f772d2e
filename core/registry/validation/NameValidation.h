// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "model/Status.h"

// The apiserver's name and label syntax checks (k8s.io/apimachinery/pkg/util/validation and
// api/validation), with its exact detail strings. Each `is...` function returns the list of
// problems with a value (empty when valid), the way upstream does, so that callers wrap each
// one in a field error: `metadata.name: Invalid value: "Bad_x": <detail>`. Pure functions.
namespace rvscope::registry {

inline constexpr std::size_t DNS1123_LABEL_MAX_LENGTH = 63;
inline constexpr std::size_t DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
inline constexpr std::size_t DNS1035_LABEL_MAX_LENGTH = 63;
inline constexpr std::size_t LABEL_VALUE_MAX_LENGTH = 63;
inline constexpr std::size_t QUALIFIED_NAME_MAX_LENGTH = 63;

// Lower-case alphanumerics and '-', starting and ending alphanumeric, at most 63 characters
// (Namespace names).
std::vector<std::string> isDns1123Label(std::string_view value);
// DNS-1123 labels joined by '.', at most 253 characters (most object names).
std::vector<std::string> isDns1123Subdomain(std::string_view value);
// A DNS-1123 label that starts with a letter (Service names).
std::vector<std::string> isDns1035Label(std::string_view value);
// A label or annotation key: an optional DNS-1123 subdomain prefix and '/', then a name of at
// most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric. Each problem is
// reported ("prefix part ...", "name part ..."); more than one '/' is a single error.
std::vector<std::string> isQualifiedName(std::string_view value);
// A label value: empty, or a qualified name's name part (at most 63 characters).
std::vector<std::string> isValidLabelValue(std::string_view value);

// validation.IsConfigMapKey: a ConfigMap/Secret data key ([-._a-zA-Z0-9]+, at most 253
// characters, not "." or "..", not starting with "..").
std::vector<std::string> isConfigMapKey(std::string_view key);

// apimachinery's ValidateNameFunc: checks an object name, or with `prefix` a generateName
// (whose trailing '-' is allowed because random characters will follow it).
using ValidateNameFunc = std::vector<std::string> (*)(std::string_view name, bool prefix);
std::vector<std::string> nameIsDnsSubdomain(std::string_view name, bool prefix);
std::vector<std::string> nameIsDnsLabel(std::string_view name, bool prefix);
std::vector<std::string> nameIsDns1035Label(std::string_view name, bool prefix);
// path.ValidatePathSegmentName (RBAC objects): not "." or "..", no '/' or '%'.
std::vector<std::string> nameIsPathSegment(std::string_view name, bool prefix);

// metadata.name's field errors (wire contract §2.1): `Required value: name or generateName is
// required` (FieldValueRequired) when `name` is empty, otherwise one FieldValueInvalid per
// problem `validateName` finds, e.g. `Invalid value: "Bad_x": a lowercase RFC 1123 subdomain
// must consist of ...`. Ready for model::errors::invalid().
std::vector<model::StatusCause> validateObjectName(std::string_view name, ValidateNameFunc validateName);

// The length of the generated suffix, and the longest generateName kept whole: a longer base
// is cut so that the name stays a valid DNS-1123 label length (63).
inline constexpr std::size_t GENERATED_SUFFIX_LENGTH = 5;
inline constexpr std::size_t MAX_GENERATE_NAME_BASE_LENGTH = 63 - GENERATED_SUFFIX_LENGTH;

// names.SimpleNameGenerator: `base` (cut to 58 bytes) followed by 5 characters drawn from
// upstream's alphabet "bcdfghjklmnpqrstvwxz2456789" (no vowels, so no words; no 0/1/3 that
// look like letters). Deterministic for a given generator state, whatever the platform.
std::string generateNameFrom(std::string_view base, std::mt19937 &random);

} // namespace rvscope::registry
