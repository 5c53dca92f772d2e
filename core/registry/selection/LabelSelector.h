// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Result.h"

namespace rvscope::registry {

// k8s.io/apimachinery/pkg/selection.Operator.
enum class SelectorOperator { In, NotIn, Equals, DoubleEquals, NotEquals, Exists, DoesNotExist, GreaterThan, LessThan };

// One term of a label selector (labels.Requirement): a key, an operator and its values.
struct LabelRequirement final {
    std::string key;
    SelectorOperator op = SelectorOperator::Exists;
    std::vector<std::string> values;

    // In/=/==: the key is present with one of the values. NotIn/!=: absent, or present with
    // none of them. Exists/DoesNotExist: presence. Gt/Lt: present, and both the label and the
    // value are base-10 int64s that compare as asked.
    bool matches(const std::map<std::string, std::string> &labels) const;
    // Upstream's Requirement.String(): "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a)",
    // "k", "!k", "k>1", "k<1"; several values are printed sorted.
    std::string toString() const;
    bool operator==(const LabelRequirement &) const = default;
};

// A label selector: the AND of its requirements, kept sorted by key (stable for equal keys),
// as labels.internalSelector is. A default-constructed selector selects everything.
// Values are immutable once built; copy freely, share across threads.
class LabelSelector final {
public:
    LabelSelector() = default;

    static LabelSelector everything() { return {}; }
    // labels.Nothing(): matches no object; empty() is false and toString() is "".
    static LabelSelector nothing();
    // labels.SelectorFromSet: key=value for each entry, unvalidated (the labels of a stored
    // object, e.g. a pod template's).
    static LabelSelector fromSet(const std::map<std::string, std::string> &labels);

    // labels.Parse, the `labelSelector` query parameter: `a=b`, `a==b`, `a!=b`,
    // `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, joined by ',' (AND), with
    // spaces, tabs, CR and LF allowed between tokens. "" selects everything. Keys must be
    // qualified names and values label values. A syntax or validation error is a 400
    // BadRequest carrying upstream's message, e.g.
    // `unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt`,
    // `unable to parse requirement: <nil>: Invalid value: "-a": name part must ...`,
    // `found ',', expected: !, identifier, or 'end of string'`.
    static model::Result<LabelSelector> parse(std::string_view selector);

    // metav1.LabelSelectorAsSelector for a metav1.LabelSelector in JSON
    // (`{"matchLabels":{...},"matchExpressions":[{"key","operator","values"}]}`):
    // null selects nothing; no matchLabels and no matchExpressions select everything;
    // matchLabels become `=` requirements; operators In, NotIn, Exists, DoesNotExist. An
    // unknown operator is a 400 `"Foo" is not a valid label selector operator`; a requirement
    // upstream's NewRequirement refuses is a 400 with its message (e.g.
    // `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`).
    // Members of the wrong JSON type are a 400 too. Run validateLabelSelector() first where
    // the apiserver answers 422 instead (workload specs).
    static model::Result<LabelSelector> fromJson(const nlohmann::json &labelSelector);

    // True when the selector does not restrict anything (no requirements).
    bool empty() const { return !m_nothing && m_requirements.empty(); }
    bool matchesNothing() const { return m_nothing; }
    bool matches(const std::map<std::string, std::string> &labels) const;
    // The value `key` must have for the selector to match, when the first requirement on
    // `key` is =, == or an In with one value; nullopt otherwise.
    std::optional<std::string> requiresExactMatch(std::string_view key) const;
    const std::vector<LabelRequirement> &requirements() const { return m_requirements; }
    // Requirements joined by ',' in key order, e.g. "app=web,tier in (a,b)": what
    // LabelSelectorAsSelector(...).String() gives for Scale.status.selector.
    std::string toString() const;

    bool operator==(const LabelSelector &) const = default;

private:
    explicit LabelSelector(std::vector<LabelRequirement> requirements);

    std::vector<LabelRequirement> m_requirements;
    bool m_nothing = false;
};

} // namespace rvscope::registry
