// SPDX-License-Identifier: MIT
#include "server/ClientFrameHeads.h"

#include <algorithm>

namespace rvscope::server {
namespace {
constexpr std::string_view NOT_MASKED = "a client frame is not masked"; // RFC 6455 section 5.1
}

std::string_view ClientFrameHeads::feed(std::string_view bytes)
{
    if (m_breached)
        return NOT_MASKED;
    while (!bytes.empty()) {
        if (m_payloadLeft > 0) {
            const std::size_t passed = std::size_t(std::min<std::uint64_t>(m_payloadLeft, bytes.size()));
            m_payloadLeft -= passed;
            bytes.remove_prefix(passed);
            continue;
        }
        m_head[m_headBytes++] = static_cast<unsigned char>(bytes.front());
        bytes.remove_prefix(1);
        if (m_headBytes < 2)
            continue;
        if ((m_head[1] & 0x80) == 0) {
            m_breached = true;
            return NOT_MASKED;
        }
        const unsigned shortLength = m_head[1] & 0x7F;
        const std::size_t extended = shortLength == 127 ? 8 : shortLength == 126 ? 2 : 0;
        if (m_headBytes < 2 + extended + 4)
            continue;
        std::uint64_t length = shortLength;
        if (extended > 0) {
            length = 0;
            for (std::size_t i = 0; i < extended; ++i)
                length = (length << 8) | m_head[2 + i];
        }
        m_payloadLeft = length;
        m_headBytes = 0;
    }
    return {};
}

} // namespace rvscope::server
