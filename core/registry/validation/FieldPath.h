// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace rvscope::registry {

// A field path that is rendered only when an error names it
// (k8s.io/apimachinery/pkg/util/validation/field.Path): validation runs on every write, and
// building "spec.template.spec.containers[0].ports[1].protocol" for each field checked, valid
// or not, cost more than the checks themselves.
//
// A path refers to its parent and to the text it was given; it owns nothing. Keep every
// level alive while its children are used: pass `path.child("x")` straight to a call, or
// hold it in a named variable, and never return one from the function that holds its
// parent. Children are only derived from named paths (`path.child("a").index(0)` does not
// compile: it would dangle once the statement ends). Cheap to copy; any thread.
class FieldPath final {
public:
    // A root such as "spec" or "spec.template.spec" (dots allowed, printed as given).
    explicit FieldPath(std::string_view root) : m_name(root) {}

    // "<this>.<name>".
    FieldPath child(std::string_view name) const & { return FieldPath(this, name, NO_INDEX); }
    // "<this>[<i>]".
    FieldPath index(std::size_t i) const & { return FieldPath(this, {}, i); }
    // A child of a temporary would outlive it.
    FieldPath child(std::string_view name) const && = delete;
    FieldPath index(std::size_t i) const && = delete;

    // The rendered path, e.g. "spec.containers[0].name".
    std::string toString() const;

private:
    static constexpr std::size_t NO_INDEX = std::numeric_limits<std::size_t>::max();

    FieldPath(const FieldPath *parent, std::string_view name, std::size_t index)
        : m_parent(parent)
        , m_name(name)
        , m_index(index)
    {
    }

    void appendTo(std::string &out) const;

    const FieldPath *m_parent = nullptr;
    std::string_view m_name;
    std::size_t m_index = NO_INDEX;
};

} // namespace rvscope::registry
