// SPDX-License-Identifier: MIT
#include "model/Status.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "model/GoJson.h"

namespace rvscope::model {

bool StatusDetails::empty() const
{
    return name.empty() && group.empty() && kind.empty() && uid.empty() && causes.empty()
        && retryAfterSeconds == 0;
}

namespace {
void appendMember(std::string &out, bool &first, const char *name)
{
    if (!first)
        out += ',';
    first = false;
    out += '"';
    out += name;
    out += "\":";
}

void appendStringMember(std::string &out, bool &first, const char *name, const std::string &value)
{
    if (value.empty())
        return; // omitempty
    appendMember(out, first, name);
    appendGoJsonString(out, value);
}
} // namespace

std::string Status::dump() const
{
    // metav1.Status as the apiserver encodes it: its Go struct's field order (TypeMeta, then
    // metadata, status, message, reason, details, code), empty fields left out.
    std::string out;
    out.reserve(160 + message.size());
    out += R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":)";
    out += isSuccess() ? "\"Success\"" : "\"Failure\"";
    bool first = false;
    appendStringMember(out, first, "message", message);
    appendStringMember(out, first, "reason", reason);
    if (details.present || !details.empty()) {
        appendMember(out, first, "details");
        out += '{';
        bool firstDetail = true;
        appendStringMember(out, firstDetail, "name", details.name);
        appendStringMember(out, firstDetail, "group", details.group);
        appendStringMember(out, firstDetail, "kind", details.kind);
        appendStringMember(out, firstDetail, "uid", details.uid);
        if (!details.causes.empty()) {
            appendMember(out, firstDetail, "causes");
            out += '[';
            for (std::size_t i = 0; i < details.causes.size(); ++i) {
                const StatusCause &cause = details.causes[i];
                out += i == 0 ? "{" : ",{";
                bool firstCause = true;
                appendStringMember(out, firstCause, "reason", cause.type);
                appendStringMember(out, firstCause, "message", cause.message);
                appendStringMember(out, firstCause, "field", cause.field);
                out += '}';
            }
            out += ']';
        }
        if (details.retryAfterSeconds > 0) {
            appendMember(out, firstDetail, "retryAfterSeconds");
            out += std::to_string(details.retryAfterSeconds);
        }
        out += '}';
    }
    // A success Status carries no code (DELETE answers); failures always do.
    if (!isSuccess()) {
        appendMember(out, first, "code");
        out += std::to_string(code);
    }
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
    if (details.present || !details.empty()) {
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
        status.details.present = true;
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
