// SPDX-License-Identifier: MIT
#include "model/JsonWrite.h"

#include <array>
#include <charconv>

#include "model/JsonParse.h"
#include "model/Utf8.h"

namespace rvscope::model {
namespace {

using json = nlohmann::json;

// Bytes a string can copy without a second look: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> PLAIN = [] {
    std::array<bool, 256> plain{};
    for (int c = 0x20; c < 0x80; ++c)
        plain[std::size_t(c)] = true;
    plain['"'] = false;
    plain['\\'] = false;
    return plain;
}();

bool validUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = utf8SequenceLength(text, i);
        if (length == 0)
            return false;
        i += length;
    }
    return true;
}

} // namespace

void appendJsonString(std::string &out, std::string_view text)
{
    if (!validUtf8(text)) {
        // nlohmann's replacement of invalid sequences has its own resynchronisation rules:
        // let it write this (rare) string.
        out += json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
        return;
    }
    out.push_back('"');
    std::size_t run = 0; // start of the bytes not yet copied
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (PLAIN[c] || c >= 0x80)
            continue;
        out.append(text.data() + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\f': out += "\\f"; break;
        case '\r': out += "\\r"; break;
        default: {
            static constexpr char HEX[] = "0123456789abcdef";
            const char escape[] = {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 0xF]};
            out.append(escape, sizeof escape);
        }
        }
    }
    out.append(text.data() + run, text.size() - run);
    out.push_back('"');
}

namespace {
template <typename Integer>
void appendInteger(std::string &out, Integer value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

} // namespace

void appendJson(std::string &out, const json &value)
{
    switch (value.type()) {
    case json::value_t::null:
        out += "null";
        return;
    case json::value_t::boolean:
        out += value.get<bool>() ? "true" : "false";
        return;
    case json::value_t::number_integer:
        appendInteger(out, value.get<std::int64_t>());
        return;
    case json::value_t::number_unsigned:
        appendInteger(out, value.get<std::uint64_t>());
        return;
    case json::value_t::number_float:
        // Shortest round trip, ".0" on whole numbers, null for NaN and infinities: its own.
        out += value.dump();
        return;
    case json::value_t::string:
        appendJsonString(out, value.get_ref<const std::string &>());
        return;
    case json::value_t::binary:
        out += rawJsonText(value);
        return;
    case json::value_t::object: {
        out.push_back('{');
        bool first = true;
        for (const auto &[key, member] : value.get_ref<const json::object_t &>()) {
            if (!first)
                out.push_back(',');
            first = false;
            appendJsonString(out, key);
            out.push_back(':');
            appendJson(out, member);
        }
        out.push_back('}');
        return;
    }
    case json::value_t::array: {
        out.push_back('[');
        bool first = true;
        for (const json &item : value.get_ref<const json::array_t &>()) {
            if (!first)
                out.push_back(',');
            first = false;
            appendJson(out, item);
        }
        out.push_back(']');
        return;
    }
    case json::value_t::discarded:
        out += "<discarded>";
        return;
    }
}

std::string dumpJson(const json &value)
{
    std::string out;
    appendJson(out, value);
    return out;
}

json rawJson(std::string_view text)
{
    return json::binary(json::binary_t::container_type(text.begin(), text.end()));
}

std::string_view rawJsonText(const json &value)
{
    const auto &bytes = value.get_binary();
    return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

void expandRawJson(json &value)
{
    if (value.is_binary()) {
        value = parseJson(rawJsonText(value)).value_or(json());
    } else if (value.is_structured()) {
        for (json &child : value)
            expandRawJson(child);
    }
}

} // namespace rvscope::model
