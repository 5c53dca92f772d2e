// SPDX-License-Identifier: MIT
#include "registry/validation/FieldPath.h"

namespace rvscope::registry {

std::string FieldPath::toString() const
{
    std::string out;
    appendTo(out);
    return out;
}

void FieldPath::appendTo(std::string &out) const
{
    if (m_parent)
        m_parent->appendTo(out);
    if (m_index != NO_INDEX) {
        out += '[';
        out += std::to_string(m_index);
        out += ']';
        return;
    }
    if (m_parent)
        out += '.';
    out += m_name;
}

} // namespace rvscope::registry
