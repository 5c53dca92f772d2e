// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"
#include "model/Status.h"

namespace rvscope::registry {

enum class FieldOperator { Equals, NotEquals };

// One term of a field selector: `field=value` (also written `field==value`) or
// `field!=value`. The value is stored unescaped.
struct FieldRequirement final {
    std::string field;
    FieldOperator op = FieldOperator::Equals;
    std::string value;

    bool operator==(const FieldRequirement &) const = default;
};

// A field selector (k8s.io/apimachinery/pkg/fields): the AND of its terms. A
// default-constructed selector selects everything. Immutable values; any thread.
class FieldSelector final {
public:
    FieldSelector() = default;

    static FieldSelector everything() { return {}; }
    // fields.OneTermEqualSelector: `field=value`, e.g. metadata.name for a name-scoped watch.
    static FieldSelector oneTermEquals(std::string field, std::string value);

    // fields.ParseSelector, the `fieldSelector` query parameter. Terms are split on ','
    // (not on "\,"), sorted, and each is cut at the first "!=", "==" or "=": there is no
    // whitespace trimming, so "a = b" is field "a " and value " b". In a value, "\\", "\,"
    // and "\=" stand for '\', ',' and '='. Empty terms are skipped, and so is a bare "=". A
    // 400 BadRequest with upstream's message otherwise:
    // `invalid selector: '<selector>'; can't understand '<term>'`,
    // `invalid field selector: invalid escape sequence: \x`, or
    // `invalid field selector: unescaped character in value: 61` (Go prints the rune as a
    // number: 61 is '=', 44 is ',').
    static model::Result<FieldSelector> parse(std::string_view selector);

    bool empty() const { return m_requirements.empty(); }
    // A field missing from `fields` has the value "" (so `spec.nodeName=` selects objects
    // without one).
    bool matches(const std::map<std::string, std::string> &fields) const;
    // The value `field` must have, from the first `field=value` term; nullopt when no such
    // term exists (a `!=` term never requires an exact match).
    std::optional<std::string> requiresExactMatch(std::string_view field) const;

    // The field-label check the apiserver runs after parsing (the scheme's field label
    // conversion function), term by term in parse order; the first unsupported field is a
    // 400 BadRequest. With `customLabels` false (types using the default conversion) the
    // message is `"x" is not a known field selector: only "metadata.name",
    // "metadata.namespace"`; with true (types that declare their own field labels, such as
    // pods or secrets) it is `field label not supported: x`. `supported` lists every field
    // accepted, metadata.name and metadata.namespace included where they apply.
    std::optional<model::Status> validateLabels(const std::vector<std::string> &supported, bool customLabels) const;

    const std::vector<FieldRequirement> &requirements() const { return m_requirements; }
    // Terms joined by ',' in parse order, values escaped ("a=b,c!=d\,e").
    std::string toString() const;

    bool operator==(const FieldSelector &) const = default;

private:
    std::vector<FieldRequirement> m_requirements;
};

// fields.EscapeValue: '\' -> "\\", ',' -> "\,", '=' -> "\=", so that any string can be
// used as a field selector value.
std::string escapeFieldSelectorValue(std::string_view value);

} // namespace rvscope::registry
