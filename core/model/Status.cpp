// SPDX-License-Identifier: MIT
#include "model/Status.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace rvscope::model {

bool StatusDetails::empty() const
{
    return name.empty() && group.empty() && kind.empty() && uid.empty() && causes.empty()
        && retryAfterSeconds == 0;
}

namespace {
// A JSON string as nlohmann::json::dump() writes it (ASCII only: the caller checks).
void appendJsonString(std::string &out, const std::string &text)
{
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static constexpr char hex[] = "0123456789abcdef";
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendMember(std::string &out, bool &first, const char *name)
{
    if (!first)
        out += ',';
    first = false;
    out += '"';
    out += name;
    out += "\":";
}

bool isAscii(const std::string &text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
} // namespace

std::string Status::dump() const
{
    // Non-ASCII text goes through nlohmann, which validates UTF-8 as it always did.
    bool ascii = isAscii(message) && isAscii(reason) && isAscii(details.name) && isAscii(details.group)
        && isAscii(details.kind) && isAscii(details.uid);
    for (const StatusCause &cause : details.causes)
        ascii = ascii && isAscii(cause.type) && isAscii(cause.message) && isAscii(cause.field);
    if (!ascii)
        return toJson().dump();
    // Members in key order, as nlohmann's std::map-backed objects print them.
    std::string out;
    out.reserve(160 + message.size());
    bool first = true;
    out += '{';
    appendMember(out, first, "apiVersion");
    out += "\"v1\"";
    if (!isSuccess()) {
        appendMember(out, first, "code");
        out += std::to_string(code);
    }
    if (!details.empty()) {
        appendMember(out, first, "details");
        out += '{';
        bool firstDetail = true;
        if (!details.causes.empty()) {
            appendMember(out, firstDetail, "causes");
            out += '[';
            for (std::size_t i = 0; i < details.causes.size(); ++i) {
                const StatusCause &cause = details.causes[i];
                out += i == 0 ? "{" : ",{";
                bool firstCause = true;
                if (!cause.field.empty()) {
                    appendMember(out, firstCause, "field");
                    appendJsonString(out, cause.field);
                }
                if (!cause.message.empty()) {
                    appendMember(out, firstCause, "message");
                    appendJsonString(out, cause.message);
                }
                if (!cause.type.empty()) {
                    appendMember(out, firstCause, "reason");
                    appendJsonString(out, cause.type);
                }
                out += '}';
            }
            out += ']';
        }
        const std::pair<const char *, const std::string *> names[] = {
            {"group", &details.group}, {"kind", &details.kind}, {"name", &details.name}};
        for (const auto &[key, value] : names) {
            if (!value->empty()) {
                appendMember(out, firstDetail, key);
                appendJsonString(out, *value);
            }
        }
        if (details.retryAfterSeconds > 0) {
            appendMember(out, firstDetail, "retryAfterSeconds");
            out += std::to_string(details.retryAfterSeconds);
        }
        if (!details.uid.empty()) {
            appendMember(out, firstDetail, "uid");
            appendJsonString(out, details.uid);
        }
        out += '}';
    }
    appendMember(out, first, "kind");
    out += "\"Status\"";
    if (!message.empty()) {
        appendMember(out, first, "message");
        appendJsonString(out, message);
    }
    appendMember(out, first, "metadata");
    out += "{}";
    if (!reason.empty()) {
        appendMember(out, first, "reason");
        appendJsonString(out, reason);
    }
    appendMember(out, first, "status");
    out += isSuccess() ? "\"Success\"" : "\"Failure\"";
    out += '}';
    return out;
}

nlohmann::json Status::toJson() const
{
    nlohmann::json json = {
        {"kind", "Status"},
        {"apiVersion", "v1"},
        {"metadata", nlohmann::json::object()},
        {"status", isSuccess() ? "Success" : "Failure"},
    };
    if (!message.empty())
        json["message"] = message;
    if (!reason.empty())
        json["reason"] = reason;
    if (!details.empty()) {
        nlohmann::json d = nlohmann::json::object();
        if (!details.name.empty())
            d["name"] = details.name;
        if (!details.group.empty())
            d["group"] = details.group;
        if (!details.kind.empty())
            d["kind"] = details.kind;
        if (!details.uid.empty())
            d["uid"] = details.uid;
        if (!details.causes.empty()) {
            nlohmann::json causes = nlohmann::json::array();
            for (const StatusCause &cause : details.causes) {
                nlohmann::json c = nlohmann::json::object();
                if (!cause.type.empty())
                    c["reason"] = cause.type;
                if (!cause.message.empty())
                    c["message"] = cause.message;
                if (!cause.field.empty())
                    c["field"] = cause.field;
                causes.push_back(std::move(c));
            }
            d["causes"] = std::move(causes);
        }
        if (details.retryAfterSeconds > 0)
            d["retryAfterSeconds"] = details.retryAfterSeconds;
        json["details"] = std::move(d);
    }
    // A success Status carries no code (DELETE answers); failures always do.
    if (!isSuccess())
        json["code"] = code;
    return json;
}

Status Status::fromJson(const nlohmann::json &json)
{
    Status status;
    if (!json.is_object())
        return status;
    status.code = json.value("code", 0);
    status.reason = json.value("reason", "");
    status.message = json.value("message", "");
    if (auto it = json.find("details"); it != json.end() && it->is_object()) {
        status.details.name = it->value("name", "");
        status.details.group = it->value("group", "");
        status.details.kind = it->value("kind", "");
        status.details.uid = it->value("uid", "");
        status.details.retryAfterSeconds = it->value("retryAfterSeconds", 0);
        if (auto causes = it->find("causes"); causes != it->end() && causes->is_array()) {
            for (const auto &c : *causes) {
                if (c.is_object())
                    status.details.causes.push_back(
                        {c.value("reason", ""), c.value("message", ""), c.value("field", "")});
            }
        }
    }
    return status;
}

Status Status::internalError(std::string message)
{
    Status status;
    status.code = 500;
    status.reason = "InternalError";
    status.message = std::move(message);
    return status;
}

} // namespace rvscope::model
