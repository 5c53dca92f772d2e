// SPDX-License-Identifier: MIT
#include "model/Object.h"

#include <charconv>

#include "model/JsonParse.h"
#include "model/StatusErrors.h"

namespace rvscope::model {

Object::Object()
    : m_json(nlohmann::json::object())
{
}

Object::Object(nlohmann::json json)
    : m_json(std::move(json))
{
}

Object::Object(const Object &other)
{
    *this = other;
}

Object &Object::operator=(const Object &other)
{
    if (this == &other)
        return *this;
    if (other.m_jsonValid) {
        m_json = other.m_json;
        m_jsonValid = true;
        m_bytes.clear();
        m_bytesValid = false;
    } else {
        m_json = nullptr;
        m_jsonValid = false;
        m_bytes = other.m_bytes;
        m_bytesValid = true;
    }
    return *this;
}

Object Object::fromTrustedBytes(std::string bytes)
{
    Object object;
    object.m_json = nullptr;
    object.m_jsonValid = false;
    object.m_bytes = std::move(bytes);
    object.m_bytesValid = true;
    return object;
}

const nlohmann::json &Object::json() const
{
    if (!m_jsonValid) {
        std::optional<nlohmann::json> parsed = parseJson(m_bytes);
        m_json = parsed ? std::move(*parsed) : nlohmann::json::object();
        m_jsonValid = true;
    }
    return m_json;
}

Result<Object> Object::parse(std::string_view bytes)
{
    std::optional<nlohmann::json> json = parseJson(bytes);
    if (!json)
        return errors::badRequest("the request body is not valid JSON");
    if (!json->is_object())
        return errors::badRequest("the request body must be a JSON object");
    return Object(std::move(*json));
}

nlohmann::json &Object::mutableJson()
{
    json(); // a bytes-only object becomes a tree before it changes
    m_bytesValid = false;
    return m_json;
}

const std::string &Object::bytes() const
{
    if (!m_bytesValid) {
        json();
        // Replace invalid UTF-8 instead of throwing: a stored object must always serialize.
        m_bytes = m_json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        m_bytesValid = true;
    }
    return m_bytes;
}

std::string Object::kind() const
{
    auto it = json().find("kind");
    return it != m_json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Object::apiVersion() const
{
    auto it = json().find("apiVersion");
    return it != m_json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Object::metadataString(const char *field) const
{
    auto meta = json().find("metadata");
    if (meta == m_json.end() || !meta->is_object())
        return {};
    auto it = meta->find(field);
    return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::map<std::string, std::string> Object::metadataMap(const char *field) const
{
    std::map<std::string, std::string> result;
    auto meta = json().find("metadata");
    if (meta == m_json.end() || !meta->is_object())
        return result;
    auto it = meta->find(field);
    if (it == meta->end() || !it->is_object())
        return result;
    for (const auto &[key, value] : it->items()) {
        if (value.is_string())
            result.emplace(key, value.get<std::string>());
    }
    return result;
}

nlohmann::json &Object::metadata()
{
    nlohmann::json &meta = mutableJson()["metadata"];
    if (!meta.is_object())
        meta = nlohmann::json::object();
    return meta;
}

void Object::setMetadataString(const char *field, const std::string &value)
{
    nlohmann::json &meta = metadata();
    if (value.empty())
        meta.erase(field);
    else
        meta[field] = value;
}

std::string Object::name() const { return metadataString("name"); }
std::string Object::generateName() const { return metadataString("generateName"); }
std::string Object::namespaceName() const { return metadataString("namespace"); }
std::string Object::uid() const { return metadataString("uid"); }
std::string Object::resourceVersion() const { return metadataString("resourceVersion"); }
std::string Object::creationTimestamp() const { return metadataString("creationTimestamp"); }
std::string Object::deletionTimestamp() const { return metadataString("deletionTimestamp"); }
std::map<std::string, std::string> Object::labels() const { return metadataMap("labels"); }
std::map<std::string, std::string> Object::annotations() const { return metadataMap("annotations"); }

std::optional<std::int64_t> Object::generation() const
{
    auto meta = json().find("metadata");
    if (meta == m_json.end() || !meta->is_object())
        return std::nullopt;
    auto it = meta->find("generation");
    if (it == meta->end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

std::vector<std::string> Object::finalizers() const
{
    std::vector<std::string> result;
    auto meta = json().find("metadata");
    if (meta == m_json.end() || !meta->is_object())
        return result;
    auto it = meta->find("finalizers");
    if (it == meta->end() || !it->is_array())
        return result;
    for (const auto &value : *it) {
        if (value.is_string())
            result.push_back(value.get<std::string>());
    }
    return result;
}

void Object::setName(const std::string &name) { setMetadataString("name", name); }
void Object::setNamespace(const std::string &ns) { setMetadataString("namespace", ns); }
void Object::setUid(const std::string &uid) { setMetadataString("uid", uid); }
void Object::setResourceVersion(const std::string &rv) { setMetadataString("resourceVersion", rv); }
void Object::setCreationTimestamp(const std::string &ts) { setMetadataString("creationTimestamp", ts); }
void Object::setDeletionTimestamp(const std::string &ts) { setMetadataString("deletionTimestamp", ts); }

void Object::setGeneration(std::optional<std::int64_t> generation)
{
    nlohmann::json &meta = metadata();
    if (generation)
        meta["generation"] = *generation;
    else
        meta.erase("generation");
}

void Object::setLabels(const std::map<std::string, std::string> &labels)
{
    nlohmann::json &meta = metadata();
    if (labels.empty())
        meta.erase("labels");
    else
        meta["labels"] = labels;
}

void Object::setAnnotations(const std::map<std::string, std::string> &annotations)
{
    nlohmann::json &meta = metadata();
    if (annotations.empty())
        meta.erase("annotations");
    else
        meta["annotations"] = annotations;
}

void Object::setFinalizers(const std::vector<std::string> &finalizers)
{
    nlohmann::json &meta = metadata();
    if (finalizers.empty())
        meta.erase("finalizers");
    else
        meta["finalizers"] = finalizers;
}

std::optional<std::int64_t> parseResourceVersion(std::string_view resourceVersion)
{
    if (resourceVersion.empty())
        return std::nullopt;
    std::int64_t value = 0;
    const char *end = resourceVersion.data() + resourceVersion.size();
    auto [ptr, ec] = std::from_chars(resourceVersion.data(), end, value);
    if (ec != std::errc() || ptr != end || value < 0)
        return std::nullopt;
    return value;
}

} // namespace rvscope::model
