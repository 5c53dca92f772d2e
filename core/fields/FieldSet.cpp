// SPDX-License-Identifier: MIT
#include "fields/FieldSet.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "model/JsonParse.h"
#include "model/JsonWrite.h"

namespace rvscope::fields {
namespace {
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// The set a raw fieldsV1 (model::rawJson) encodes, decoded once per thread: a stored object's
// few encodings come back on every write to it. nullopt when it is no valid FieldsV1. The
// pointer lasts until the next call.
const std::optional<FieldSet> *decodedRaw(std::string_view text)
{
    constexpr std::size_t CAPACITY = 512;
    thread_local std::unordered_map<std::string, std::optional<FieldSet>, TextHash, std::equal_to<>> cache;
    if (auto it = cache.find(text); it != cache.end())
        return &it->second;
    if (cache.size() >= CAPACITY)
        cache.clear();
    const std::optional<nlohmann::json> tree = model::parseJson(text);
    std::optional<FieldSet> set = tree ? FieldSet::fromFieldsV1(*tree) : std::nullopt;
    return &cache.emplace(std::string(text), std::move(set)).first->second;
}

// structured-merge-diff's value order: numbers < strings < bools < lists < maps < null.
int rank(const nlohmann::json &value)
{
    if (value.is_number())
        return 0;
    if (value.is_string())
        return 1;
    if (value.is_boolean())
        return 2;
    if (value.is_array())
        return 3;
    if (value.is_object())
        return 4;
    return 5;
}

std::strong_ordering compareValues(const nlohmann::json &a, const nlohmann::json &b)
{
    const int ra = rank(a), rb = rank(b);
    if (ra != rb)
        return ra <=> rb;
    switch (ra) {
    case 0: {
        const double x = a.get<double>(), y = b.get<double>();
        return x < y ? std::strong_ordering::less : (y < x ? std::strong_ordering::greater : std::strong_ordering::equal);
    }
    case 1:
        return a.get_ref<const std::string &>().compare(b.get_ref<const std::string &>()) <=> 0;
    case 2:
        return a.get<bool>() <=> b.get<bool>();
    case 3: {
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
            if (auto c = compareValues(a[i], b[i]); c != 0)
                return c;
        }
        return a.size() <=> b.size();
    }
    case 4: {
        // Maps compare entry by entry in key order: key, then value.
        auto i = a.begin(), j = b.begin();
        for (; i != a.end() && j != b.end(); ++i, ++j) {
            if (auto c = i.key().compare(j.key()) <=> 0; c != 0)
                return c;
            if (auto c = compareValues(i.value(), j.value()); c != 0)
                return c;
        }
        return a.size() <=> b.size();
    }
    default:
        return std::strong_ordering::equal;
    }
}

std::string valueText(const nlohmann::json &value)
{
    return value.dump();
}
} // namespace

PathElement PathElement::field(std::string name)
{
    PathElement element;
    element.kind = Kind::Field;
    element.name = std::move(name);
    return element;
}

PathElement PathElement::key(nlohmann::json fields)
{
    PathElement element;
    element.kind = Kind::Key;
    element.value = std::move(fields);
    return element;
}

PathElement PathElement::member(nlohmann::json value)
{
    PathElement element;
    element.kind = Kind::Value;
    element.value = std::move(value);
    return element;
}

std::strong_ordering PathElement::operator<=>(const PathElement &other) const
{
    if (kind != other.kind)
        return kind <=> other.kind;
    switch (kind) {
    case Kind::Field:
        return name.compare(other.name) <=> 0;
    case Kind::Key:
    case Kind::Value:
        return compareValues(value, other.value);
    case Kind::Index:
        return index <=> other.index;
    }
    return std::strong_ordering::equal;
}

std::string PathElement::encoded() const
{
    switch (kind) {
    case Kind::Field:
        return "f:" + name;
    case Kind::Key:
        return "k:" + value.dump(); // compact, key fields sorted by name
    case Kind::Value:
        return "v:" + value.dump();
    case Kind::Index:
        return "i:" + std::to_string(index);
    }
    return {};
}

std::string PathElement::text() const
{
    switch (kind) {
    case Kind::Field:
        return '.' + name;
    case Kind::Key: {
        std::string out = "[";
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            out += it.key() + '=' + valueText(it.value());
        }
        return out + ']';
    }
    case Kind::Value:
        return "[=" + valueText(value) + ']';
    case Kind::Index:
        return '[' + std::to_string(index) + ']';
    }
    return {};
}

std::string pathText(const Path &path)
{
    std::string out;
    for (const PathElement &element : path)
        out += element.text();
    return out;
}

void FieldSet::insert(const Path &path)
{
    FieldSet *node = this;
    for (const PathElement &element : path)
        node = &node->m_children[element];
    node->m_member = true;
}

bool FieldSet::has(const Path &path) const
{
    const FieldSet *node = this;
    for (const PathElement &element : path) {
        auto it = node->m_children.find(element);
        if (it == node->m_children.end())
            return false;
        node = &it->second;
    }
    return node->m_member;
}

std::size_t FieldSet::size() const
{
    std::size_t count = m_member ? 1 : 0;
    for (const auto &[element, child] : m_children)
        count += child.size();
    return count;
}

// The set operations walk both sorted child maps side by side (no lookups) and append to
// the result in order (no tree searches).
FieldSet FieldSet::unionWith(const FieldSet &other) const
{
    FieldSet out;
    out.m_member = m_member || other.m_member;
    auto mine = m_children.begin();
    auto theirs = other.m_children.begin();
    while (mine != m_children.end() || theirs != other.m_children.end()) {
        const auto order = mine == m_children.end()           ? std::strong_ordering::greater
                           : theirs == other.m_children.end() ? std::strong_ordering::less
                                                               : mine->first <=> theirs->first;
        if (order < 0) {
            out.m_children.emplace_hint(out.m_children.end(), *mine++);
        } else if (order > 0) {
            out.m_children.emplace_hint(out.m_children.end(), *theirs++);
        } else {
            out.m_children.emplace_hint(out.m_children.end(), mine->first, mine->second.unionWith(theirs->second));
            ++mine;
            ++theirs;
        }
    }
    return out;
}

FieldSet FieldSet::minus(const FieldSet &other) const
{
    FieldSet out;
    out.m_member = m_member && !other.m_member;
    auto theirs = other.m_children.begin();
    for (const auto &[element, child] : m_children) {
        auto order = std::strong_ordering::less;
        while (theirs != other.m_children.end() && (order = theirs->first <=> element) < 0)
            ++theirs;
        if (theirs == other.m_children.end() || order > 0) {
            out.m_children.emplace_hint(out.m_children.end(), element, child);
            continue;
        }
        FieldSet rest = child.minus(theirs->second);
        if (!rest.empty())
            out.m_children.emplace_hint(out.m_children.end(), element, std::move(rest));
    }
    return out;
}

FieldSet FieldSet::intersect(const FieldSet &other) const
{
    FieldSet out;
    out.m_member = m_member && other.m_member;
    auto theirs = other.m_children.begin();
    for (const auto &[element, child] : m_children) {
        auto order = std::strong_ordering::less;
        while (theirs != other.m_children.end() && (order = theirs->first <=> element) < 0)
            ++theirs;
        if (theirs == other.m_children.end())
            break;
        if (order > 0)
            continue;
        FieldSet both = child.intersect(theirs->second);
        if (!both.empty())
            out.m_children.emplace_hint(out.m_children.end(), element, std::move(both));
    }
    return out;
}

void FieldSet::removeSubtree(const Path &path)
{
    if (path.empty()) {
        *this = FieldSet();
        return;
    }
    FieldSet *node = this;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        auto it = node->m_children.find(path[i]);
        if (it == node->m_children.end())
            return;
        node = &it->second;
    }
    node->m_children.erase(path.back());
    prune();
}

bool FieldSet::prune()
{
    for (auto it = m_children.begin(); it != m_children.end();) {
        if (it->second.prune())
            it = m_children.erase(it);
        else
            ++it;
    }
    return empty();
}

void FieldSet::forEach(const std::function<void(const Path &)> &visit) const
{
    Path prefix;
    forEachFrom(prefix, visit);
}

void FieldSet::forEachFrom(Path &prefix, const std::function<void(const Path &)> &visit) const
{
    if (m_member)
        visit(prefix);
    for (const auto &[element, child] : m_children) {
        prefix.push_back(element);
        child.forEachFrom(prefix, visit);
        prefix.pop_back();
    }
}

nlohmann::json FieldSet::toFieldsV1() const
{
    nlohmann::json out = nlohmann::json::object();
    if (m_member && !m_children.empty())
        out["."] = nlohmann::json::object();
    for (const auto &[element, child] : m_children)
        out[element.encoded()] = child.toFieldsV1();
    return out;
}

nlohmann::json FieldSet::toRawFieldsV1() const
{
    std::string text;
    appendFieldsV1(text);
    return model::rawJson(text);
}

void FieldSet::appendFieldsV1(std::string &out) const
{
    // Members in the order of their keys' bytes, as a JSON object's tree writes them.
    std::vector<std::pair<std::string, const FieldSet *>> members;
    members.reserve(m_children.size() + 1);
    if (m_member && !m_children.empty())
        members.emplace_back(".", nullptr);
    for (const auto &[element, child] : m_children)
        members.emplace_back(element.encoded(), &child);
    std::sort(members.begin(), members.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    out.push_back('{');
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0)
            out.push_back(',');
        model::appendJsonString(out, members[i].first);
        out.push_back(':');
        if (members[i].second)
            members[i].second->appendFieldsV1(out);
        else
            out += "{}";
    }
    out.push_back('}');
}

std::optional<FieldSet> FieldSet::fromFieldsV1(const nlohmann::json &fields)
{
    if (model::isRawJson(fields))
        return *decodedRaw(model::rawJsonText(fields));
    if (!fields.is_object())
        return std::nullopt;
    FieldSet out;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        const std::string &key = it.key();
        if (key == ".") {
            out.m_member = true;
            continue;
        }
        if (key.size() < 2 || key[1] != ':')
            continue;
        PathElement element;
        const std::string rest = key.substr(2);
        switch (key[0]) {
        case 'f':
            element = PathElement::field(rest);
            break;
        case 'k':
        case 'v': {
            nlohmann::json value = nlohmann::json::parse(rest, nullptr, false);
            if (value.is_discarded() || (key[0] == 'k' && !value.is_object()))
                return std::nullopt;
            element = key[0] == 'k' ? PathElement::key(std::move(value)) : PathElement::member(std::move(value));
            break;
        }
        case 'i':
            element.kind = PathElement::Kind::Index;
            try {
                element.index = std::stoi(rest);
            } catch (const std::exception &) {
                return std::nullopt;
            }
            break;
        default:
            continue; // unknown prefixes are dropped, as upstream's parser does
        }
        if (model::isRawJson(it.value()))
            return std::nullopt; // only a whole fieldsV1 is kept raw
        auto child = fromFieldsV1(it.value());
        if (!child)
            return std::nullopt;
        // A leaf ({}) is a member; a node with children is one only with ".".
        if (it.value().empty())
            child->m_member = true;
        out.m_children[std::move(element)] = std::move(*child);
    }
    return out;
}

bool FieldSet::encodes(const nlohmann::json &raw, const FieldSet &set)
{
    if (!model::isRawJson(raw))
        return false;
    const std::optional<FieldSet> *decoded = decodedRaw(model::rawJsonText(raw));
    return *decoded && **decoded == set;
}

bool FieldSet::encodedHas(const nlohmann::json &fields, const Path &path)
{
    if (model::isRawJson(fields)) {
        const std::optional<FieldSet> *set = decodedRaw(model::rawJsonText(fields));
        return *set && (*set)->has(path);
    }
    const nlohmann::json *node = &fields;
    for (const PathElement &element : path) {
        if (!node->is_object())
            return false;
        auto it = node->find(element.encoded());
        if (it == node->end())
            return false;
        node = &*it;
    }
    return node->is_object() && (node->empty() || node->contains("."));
}

bool FieldSet::operator==(const FieldSet &other) const
{
    return m_member == other.m_member && m_children == other.m_children;
}

} // namespace rvscope::fields
