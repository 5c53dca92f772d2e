// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rvscope::server {

// Follows a request body sent with `Transfer-Encoding: chunked` (RFC 9112 §7.1) as its
// bytes arrive, the way Go's net/http decodes one (net/http/internal/chunked.go, and the
// trailer reading of transfer.go): where the body ends, whether Go would accept its framing
// (and if not, Go's error text), how many data bytes it carries, and the data itself when
// given a sink (setDataSink()). What Go refuses:
// - a chunk-size line that does not end in CRLF ("chunked line ends with bare LF"), has a
//   CR before that ("invalid CR in chunked line") or is 4096 bytes or more ("header line
//   too long");
// - a size (after trailing spaces and any ;extension are cut) that is empty ("empty hex
//   number for chunk length"), not hex ("invalid byte in chunk length", a '-' too) or over
//   16 digits ("http chunk length too large");
// - chunk data not followed by CRLF ("malformed chunked encoding");
// - more than 16 KiB of framing beyond 16 bytes per chunk and twice its data ("chunked
//   encoding contains too much non-data": tiny chunks with long extensions);
// - a trailer whose blank line is not within 4096 bytes ("http: suspiciously long trailer
//   after chunked body") or whose lines are no header fields ("malformed MIME header line").
//
// A plain value; any thread.
class ChunkedBodyFraming final {
public:
    enum class State {
        Reading,   // within the body: more bytes are needed
        Complete,  // the last chunk and the trailer have been read
        Malformed, // the framing is broken: error() says how
    };

    // Reads the next bytes of the connection. Returns how many of them belong to the body:
    // all of them while Reading, up to its end once Complete (what follows is the next
    // request), up to the offending byte once Malformed. Nothing is read once it is no
    // longer Reading.
    std::size_t feed(std::string_view bytes);
    // The chunks' data is appended to `data` as it is read (null: dropped).
    void setDataSink(std::string *data) { m_data = data; }

    State state() const { return m_state; }
    // Go's error for a Malformed body; empty otherwise.
    const std::string &error() const { return m_error; }
    // The data bytes of the chunks read so far (what the handler would read as the body).
    std::uint64_t dataBytes() const { return m_dataBytes; }
    // The data bytes the chunks announced so far: those read and the rest of the current chunk.
    std::uint64_t announcedBytes() const { return m_dataBytes + m_chunkLeft; }
    // Whether the trailer holds fields (it is more than the final blank line).
    bool hasTrailerFields() const { return m_trailerFields; }

private:
    enum class Part { SizeLine, Data, DataEnd, Trailer };
    // The chunk-size line in m_line is complete (CRLF included).
    void endSizeLine();
    // The trailer in m_line holds its terminating blank line: checks its fields.
    void endTrailer();
    void fail(std::string error);

    State m_state = State::Reading;
    Part m_part = Part::SizeLine;
    std::string m_line;               // the size line, or the trailer, being read
    std::uint64_t m_chunkLeft = 0;    // data bytes still to come in the current chunk
    std::size_t m_dataEndSeen = 0;    // bytes of the CRLF after the data read (0, 1)
    std::int64_t m_excess = 0;        // Go's overhead account
    std::uint64_t m_dataBytes = 0;
    bool m_trailerFields = false;
    std::string m_error;
    std::string *m_data = nullptr;
};

} // namespace rvscope::server
