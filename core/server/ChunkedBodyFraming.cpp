// SPDX-License-Identifier: MIT
#include "server/ChunkedBodyFraming.h"

#include <algorithm>

#include "model/Utf8.h"
#include "server/HeaderTokens.h"

namespace rvscope::server {
namespace {
// Go's net/http reads a connection through a 4096-byte bufio.Reader: a chunk-size line and
// a trailer must fit in it (maxLineLength, seeUpcomingDoubleCRLF).
constexpr std::size_t MAX_LINE_BYTES = 4096;
// Framing beyond what chunks may carry, and how much a chunk may carry (chunkedReader.excess).
constexpr std::int64_t MAX_EXCESS_BYTES = 16 * 1024;
constexpr std::int64_t OVERHEAD_PER_CHUNK = 16;

// textproto.ReadMIMEHeader's judgement of one line: "Name: value", the name a token, no
// control byte but tab in the value.
bool wellFormedField(std::string_view line)
{
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = line.substr(colon + 1);
    return std::all_of(name.begin(), name.end(), isTokenChar)
        && std::none_of(value.begin(), value.end(), [](char c) {
               const auto byte = static_cast<unsigned char>(c);
               return (byte < 0x20 && c != '\t') || byte == 0x7f;
           });
}
} // namespace

std::size_t ChunkedBodyFraming::feed(std::string_view bytes)
{
    std::size_t used = 0;
    while (used < bytes.size() && m_state == State::Reading) {
        const std::string_view rest = bytes.substr(used);
        switch (m_part) {
        case Part::SizeLine: {
            const std::size_t newline = rest.find('\n');
            const std::size_t take = newline == std::string_view::npos ? rest.size() : newline + 1;
            if (m_line.size() + take > MAX_LINE_BYTES) {
                fail("header line too long");
                break;
            }
            m_line.append(rest.substr(0, take));
            used += take;
            if (newline != std::string_view::npos)
                endSizeLine();
            break;
        }
        case Part::Data: {
            const std::uint64_t take = std::min<std::uint64_t>(m_chunkLeft, rest.size());
            if (m_data)
                m_data->append(rest.substr(0, std::size_t(take)));
            m_chunkLeft -= take;
            m_dataBytes += take;
            used += std::size_t(take);
            if (m_chunkLeft == 0) {
                m_part = Part::DataEnd;
                m_dataEndSeen = 0;
            }
            break;
        }
        case Part::DataEnd:
            if (rest.front() != (m_dataEndSeen == 0 ? '\r' : '\n')) {
                fail("malformed chunked encoding");
                break;
            }
            ++used;
            if (++m_dataEndSeen == 2)
                m_part = Part::SizeLine;
            break;
        case Part::Trailer:
            // Byte by byte: a trailer is at most 4 KiB, and most bodies have none.
            m_line += rest.front();
            ++used;
            if (m_line == "\r\n")
                m_state = State::Complete;
            else if (m_line.size() >= 4 && m_line.ends_with("\r\n\r\n"))
                endTrailer();
            else if (m_line.size() >= MAX_LINE_BYTES)
                fail("http: suspiciously long trailer after chunked body");
            break;
        }
    }
    return used;
}

void ChunkedBodyFraming::endSizeLine()
{
    std::string_view line = m_line;
    const std::size_t cr = line.find('\r');
    if (cr == std::string_view::npos) {
        fail("chunked line ends with bare LF");
        return;
    }
    if (cr != line.size() - 2) {
        fail("invalid CR in chunked line");
        return;
    }
    line.remove_suffix(2);
    m_excess += std::int64_t(line.size()) + 2; // the line, and the CRLF after the chunk's data
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    line = line.substr(0, line.find(';')); // an extension is ignored, whatever it holds
    if (line.empty()) {
        fail("empty hex number for chunk length");
        return;
    }
    std::uint64_t size = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const int digit = model::hexDigitValue(line[i]);
        if (digit < 0) {
            fail("invalid byte in chunk length");
            return;
        }
        if (i == 16) {
            fail("http chunk length too large");
            return;
        }
        size = (size << 4) | std::uint64_t(digit);
    }
    // 16 bytes of framing per chunk are free, and twice its data (a byte per chunk streams).
    constexpr std::uint64_t LARGE = std::uint64_t(1) << 40;
    m_excess = size >= LARGE ? 0 : std::max<std::int64_t>(0, m_excess - OVERHEAD_PER_CHUNK - 2 * std::int64_t(size));
    if (m_excess > MAX_EXCESS_BYTES) {
        fail("chunked encoding contains too much non-data");
        return;
    }
    m_line.clear();
    if (size == 0) {
        m_part = Part::Trailer;
    } else {
        m_chunkLeft = size;
        m_part = Part::Data;
    }
}

void ChunkedBodyFraming::endTrailer()
{
    std::string_view fields = m_line;
    fields.remove_suffix(2); // the blank line; every field line still ends in CRLF
    while (!fields.empty()) {
        const std::size_t end = fields.find("\r\n");
        const std::string_view line = fields.substr(0, end);
        if (!wellFormedField(line)) {
            fail("malformed MIME header line: " + std::string(line));
            return;
        }
        m_trailerFields = true;
        fields.remove_prefix(end + 2);
    }
    m_state = State::Complete;
}

void ChunkedBodyFraming::fail(std::string error)
{
    m_state = State::Malformed;
    m_error = std::move(error);
}

} // namespace rvscope::server
