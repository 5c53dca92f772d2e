// SPDX-License-Identifier: MIT
#include "registry/selection/FieldSelector.h"

#include <algorithm>

#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
// Bytes in the UTF-8 sequence that `lead` starts (1 for ASCII and for stray bytes).
std::size_t sequenceLength(unsigned char lead)
{
    if ((lead & 0xE0) == 0xC0)
        return 2;
    if ((lead & 0xF0) == 0xE0)
        return 3;
    if ((lead & 0xF8) == 0xF0)
        return 4;
    return 1;
}

// Terms split on the commas that are not escaped; the escapes stay in the terms.
std::vector<std::string> splitTerms(std::string_view selector)
{
    std::vector<std::string> terms;
    if (selector.empty())
        return terms;
    std::size_t start = 0;
    bool escaped = false;
    for (std::size_t i = 0; i < selector.size(); ++i) {
        if (escaped)
            escaped = false;
        else if (selector[i] == '\\')
            escaped = true;
        else if (selector[i] == ',') {
            terms.emplace_back(selector.substr(start, i - start));
            start = i + 1;
        }
    }
    terms.emplace_back(selector.substr(start));
    return terms;
}

struct SplitTerm final {
    std::string field;
    FieldOperator op = FieldOperator::Equals;
    std::string rawValue;
};

// The first position holding an operator splits the term; "!=" and "==" are tried before "="
// there so that "a==b" does not leave "=b" as the value. The field side has no escaping.
std::optional<SplitTerm> splitTerm(std::string_view term)
{
    for (std::size_t i = 0; i < term.size(); ++i) {
        const std::string_view rest = term.substr(i);
        for (std::string_view op : {std::string_view("!="), std::string_view("=="), std::string_view("=")}) {
            if (rest.substr(0, op.size()) == op)
                return SplitTerm{std::string(term.substr(0, i)), op == "!=" ? FieldOperator::NotEquals : FieldOperator::Equals,
                                 std::string(term.substr(i + op.size()))};
        }
    }
    return std::nullopt;
}

// fields.UnescapeValue. Unlike Go, bytes that are not UTF-8 are passed through rather than
// replaced by U+FFFD.
model::Result<std::string> unescapeValue(std::string_view raw)
{
    if (raw.find_first_of("\\,=") == std::string_view::npos)
        return std::string(raw);
    std::string value;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == ',' || c == '=')
            return model::errors::badRequest("invalid field selector: unescaped character in value: "
                                             + std::to_string(static_cast<int>(c)));
        if (c != '\\') {
            value += c;
            continue;
        }
        if (i + 1 == raw.size())
            return model::errors::badRequest("invalid field selector: invalid escape sequence: \\");
        const char next = raw[i + 1];
        if (next != '\\' && next != ',' && next != '=') {
            const std::size_t length = std::min(sequenceLength(static_cast<unsigned char>(next)), raw.size() - i - 1);
            return model::errors::badRequest("invalid field selector: invalid escape sequence: \\"
                                             + std::string(raw.substr(i + 1, length)));
        }
        value += next;
        ++i;
    }
    return value;
}
} // namespace

FieldSelector FieldSelector::oneTermEquals(std::string field, std::string value)
{
    FieldSelector selector;
    selector.m_requirements.push_back({std::move(field), FieldOperator::Equals, std::move(value)});
    return selector;
}

model::Result<FieldSelector> FieldSelector::parse(std::string_view selector)
{
    std::vector<std::string> terms = splitTerms(selector);
    std::sort(terms.begin(), terms.end());
    FieldSelector parsed;
    for (const std::string &term : terms) {
        if (term.empty())
            continue;
        std::optional<SplitTerm> split = splitTerm(term);
        if (!split)
            return model::errors::badRequest("invalid selector: '" + std::string(selector) + "'; can't understand '"
                                             + term + "'");
        auto value = unescapeValue(split->rawValue);
        if (!value)
            return std::move(value).error();
        // Upstream's identity transform turns a term with neither field nor value into
        // "everything", which the AND then drops.
        if (split->field.empty() && value->empty())
            continue;
        parsed.m_requirements.push_back({std::move(split->field), split->op, std::move(value).value()});
    }
    return parsed;
}

bool FieldSelector::matches(const std::map<std::string, std::string> &fields) const
{
    return std::all_of(m_requirements.begin(), m_requirements.end(), [&](const FieldRequirement &requirement) {
        const auto it = fields.find(requirement.field);
        const bool equal = (it == fields.end() ? std::string() : it->second) == requirement.value;
        return requirement.op == FieldOperator::Equals ? equal : !equal;
    });
}

std::optional<std::string> FieldSelector::requiresExactMatch(std::string_view field) const
{
    for (const FieldRequirement &requirement : m_requirements) {
        if (requirement.field == field && requirement.op == FieldOperator::Equals)
            return requirement.value;
    }
    return std::nullopt;
}

std::optional<model::Status> FieldSelector::validateLabels(const std::vector<std::string> &supported,
                                                           bool customLabels) const
{
    for (const FieldRequirement &requirement : m_requirements) {
        if (std::find(supported.begin(), supported.end(), requirement.field) != supported.end())
            continue;
        if (customLabels)
            return model::errors::badRequest("field label not supported: " + requirement.field);
        return model::errors::badRequest(goQuote(requirement.field)
                                         + R"( is not a known field selector: only "metadata.name", "metadata.namespace")");
    }
    return std::nullopt;
}

std::string FieldSelector::toString() const
{
    std::string text;
    for (std::size_t i = 0; i < m_requirements.size(); ++i) {
        const FieldRequirement &requirement = m_requirements[i];
        if (i > 0)
            text += ',';
        text += requirement.field;
        text += requirement.op == FieldOperator::Equals ? "=" : "!=";
        text += escapeFieldSelectorValue(requirement.value);
    }
    return text;
}

std::string escapeFieldSelectorValue(std::string_view value)
{
    std::string escaped;
    for (char c : value) {
        if (c == '\\' || c == ',' || c == '=')
            escaped += '\\';
        escaped += c;
    }
    return escaped;
}

} // namespace rvscope::registry
