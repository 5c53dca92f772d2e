// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rvscope::server {

// Follows the frames a WebSocket client sends (RFC 6455 section 5.2) as their bytes arrive,
// reading only their heads: payloads are counted past, never looked at or kept. It judges
// what a server must refuse before it reads a frame and Qt 6.4's reader does not: a client
// frame whose MASK bit is clear (section 5.1: "a server MUST close the connection upon
// receiving a frame that is not masked"). Everything else in a frame (reserved bits and
// opcodes, lengths, UTF-8) QWebSocket judges itself.
//
// A plain value; any thread.
class ClientFrameHeads final {
public:
    // Bytes of the current frame's payload still to come: skip() may pass them unread.
    std::uint64_t payloadLeft() const { return m_payloadLeft; }
    // Passes `count` payload bytes (at most payloadLeft()).
    void skip(std::uint64_t count) { m_payloadLeft -= count; }
    // Reads the stream's next bytes. Returns why the client broke the protocol, or an empty
    // text while it has not; nothing is read after a breach.
    std::string_view feed(std::string_view bytes);
    bool breached() const { return m_breached; }

private:
    // 2 bytes, up to 8 of extended length, the 4-byte masking key.
    static constexpr std::size_t MAX_HEAD = 14;
    std::array<unsigned char, MAX_HEAD> m_head{};
    std::size_t m_headBytes = 0;
    std::uint64_t m_payloadLeft = 0;
    bool m_breached = false;
};

} // namespace rvscope::server
