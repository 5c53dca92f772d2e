// SPDX-License-Identifier: MIT
#include "model/Object.h"

#include <charconv>
#include <cstring>

#include "model/JsonParse.h"
#include "model/JsonWrite.h"
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
        std::optional<nlohmann::json> parsed = parseObjectJson(m_bytes);
        m_json = parsed ? std::move(*parsed) : nlohmann::json::object();
        m_jsonValid = true;
    }
    return m_json;
}

Result<Object> Object::parse(std::string_view bytes)
{
    std::optional<nlohmann::json> json = parseObjectJson(bytes);
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
        // Invalid UTF-8 is replaced, not thrown on: a stored object must always serialize.
        m_bytes = dumpJson(m_json);
        m_bytesValid = true;
    }
    return m_bytes;
}

namespace {
// Where a JSON value starting at `at` ends (one past it). `text` is trusted, well-formed JSON
// (an encoding rvscope produced), so this only counts brackets outside strings.
std::size_t skipValue(std::string_view text, std::size_t at)
{
    int depth = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            // To the closing quote: one not preceded by an odd run of backslashes.
            for (;;) {
                const void *quote = std::memchr(text.data() + i + 1, '"', text.size() - i - 1);
                if (!quote)
                    return text.size();
                i = std::size_t(static_cast<const char *>(quote) - text.data());
                std::size_t backslashes = 0;
                while (text[i - 1 - backslashes] == '\\')
                    ++backslashes;
                if (backslashes % 2 == 0)
                    break;
            }
            if (depth == 0)
                return i + 1;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i; // the end of a number, true, false or null that closes its container
            if (--depth == 0)
                return i + 1;
        } else if (depth == 0 && (c == ',' || c == ':')) {
            return i; // the end of a number, true, false or null
        }
    }
    return text.size();
}

// The text of member `key` of the JSON object `object` (compact, as rvscope encodes), found
// by skipping the other members without building anything: a bytes-only object answers its
// accessors without growing back the tree storage let go of. Nothing when absent, or when a
// key has escapes (the caller then parses the whole tree).
std::optional<std::string_view> memberText(std::string_view object, std::string_view key, bool &unsure)
{
    std::size_t i = object.find('{');
    if (i == std::string_view::npos)
        return std::nullopt;
    ++i;
    while (i < object.size() && object[i] == '"') {
        const std::size_t keyEnd = object.find('"', i + 1);
        if (keyEnd == std::string_view::npos)
            break;
        const std::string_view name = object.substr(i + 1, keyEnd - i - 1);
        if (name.find('\\') != std::string_view::npos) {
            unsure = true;
            return std::nullopt;
        }
        const std::size_t valueStart = keyEnd + 2; // past '":'
        const std::size_t valueEnd = skipValue(object, valueStart);
        if (name == key)
            return object.substr(valueStart, valueEnd - valueStart);
        i = valueEnd + 1; // past ','
    }
    return std::nullopt;
}
} // namespace

std::string Object::topLevelString(const char *field) const
{
    if (!m_jsonValid) {
        bool unsure = false;
        if (auto text = memberText(m_bytes, field, unsure)) {
            auto parsed = parseJson(*text);
            return parsed && parsed->is_string() ? parsed->get<std::string>() : std::string();
        }
        if (!unsure)
            return {};
    }
    auto it = json().find(field);
    return it != m_json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Object::kind() const
{
    return topLevelString("kind");
}

std::string Object::apiVersion() const
{
    return topLevelString("apiVersion");
}

const nlohmann::json *Object::metadataField(const char *field, nlohmann::json &scratch) const
{
    if (!m_jsonValid) {
        bool unsure = false;
        auto meta = memberText(m_bytes, "metadata", unsure);
        auto value = meta ? memberText(*meta, field, unsure) : std::nullopt;
        if (value) {
            auto parsed = parseJson(*value);
            if (parsed) {
                scratch = std::move(*parsed);
                return &scratch;
            }
            unsure = true;
        }
        if (!unsure)
            return nullptr;
    }
    const nlohmann::json &root = json();
    auto meta = root.find("metadata");
    if (meta == root.end() || !meta->is_object())
        return nullptr;
    auto it = meta->find(field);
    return it == meta->end() ? nullptr : &*it;
}

std::string Object::metadataString(const char *field) const
{
    nlohmann::json scratch;
    const nlohmann::json *value = metadataField(field, scratch);
    return value && value->is_string() ? value->get<std::string>() : std::string();
}

std::map<std::string, std::string> Object::metadataMap(const char *field) const
{
    std::map<std::string, std::string> result;
    nlohmann::json scratch;
    const nlohmann::json *value = metadataField(field, scratch);
    if (!value || !value->is_object())
        return result;
    for (const auto &[key, item] : value->items()) {
        if (item.is_string())
            result.emplace(key, item.get<std::string>());
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
    nlohmann::json scratch;
    const nlohmann::json *value = metadataField("generation", scratch);
    if (!value || !value->is_number_integer())
        return std::nullopt;
    return value->get<std::int64_t>();
}

std::vector<std::string> Object::finalizers() const
{
    std::vector<std::string> result;
    nlohmann::json scratch;
    const nlohmann::json *value = metadataField("finalizers", scratch);
    if (!value || !value->is_array())
        return result;
    for (const auto &item : *value) {
        if (item.is_string())
            result.push_back(item.get<std::string>());
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
