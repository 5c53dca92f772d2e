// SPDX-License-Identifier: MIT
#include "registry/strategies/Base64.h"

#include <array>

namespace rvscope::registry {
namespace {
const char *const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr unsigned char INVALID = 0xFF;

std::array<unsigned char, 256> decodeMap()
{
    std::array<unsigned char, 256> map{};
    map.fill(INVALID);
    for (unsigned char i = 0; i < 64; ++i)
        map[static_cast<unsigned char>(ALPHABET[i])] = i;
    return map;
}

bool isNewline(char c)
{
    return c == '\n' || c == '\r';
}
} // namespace

std::string base64Encode(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned value = (static_cast<unsigned char>(bytes[i]) << 16)
            | (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
        out += ALPHABET[(value >> 18) & 63];
        out += ALPHABET[(value >> 12) & 63];
        out += ALPHABET[(value >> 6) & 63];
        out += ALPHABET[value & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        unsigned value = static_cast<unsigned char>(bytes[i]) << 16;
        if (rest == 2)
            value |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += ALPHABET[(value >> 18) & 63];
        out += ALPHABET[(value >> 12) & 63];
        out += rest == 2 ? ALPHABET[(value >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// A transcription of Go's Encoding.decodeQuantum loop, so that the reported offsets match.
Base64Decoded base64Decode(std::string_view src)
{
    static const std::array<unsigned char, 256> MAP = decodeMap();
    Base64Decoded result;
    std::size_t si = 0;
    while (true) {
        std::array<unsigned char, 4> quantum{};
        std::size_t length = 4;
        bool end = false;
        for (std::size_t j = 0; j < 4; ++j) {
            if (si == src.size()) {
                if (j == 0)
                    return result;
                result.errorOffset = si - j;
                return result;
            }
            const char in = src[si++];
            const unsigned char out = MAP[static_cast<unsigned char>(in)];
            if (out != INVALID) {
                quantum[j] = out;
                continue;
            }
            if (isNewline(in)) {
                --j;
                continue;
            }
            if (in != '=' || j < 2) {
                result.errorOffset = si - 1;
                return result;
            }
            if (j == 2) {
                while (si < src.size() && isNewline(src[si]))
                    ++si;
                if (si == src.size()) {
                    result.errorOffset = src.size();
                    return result;
                }
                if (src[si] != '=') {
                    result.errorOffset = si - 1;
                    return result;
                }
                ++si;
            }
            while (si < src.size() && isNewline(src[si]))
                ++si;
            if (si < src.size())
                result.errorOffset = si;
            length = j;
            end = true;
            break;
        }
        const unsigned value = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6) | quantum[3];
        result.bytes += static_cast<char>((value >> 16) & 0xFF);
        if (length > 2)
            result.bytes += static_cast<char>((value >> 8) & 0xFF);
        if (length > 3)
            result.bytes += static_cast<char>(value & 0xFF);
        if (end || result.errorOffset)
            return result;
    }
}

} // namespace rvscope::registry
