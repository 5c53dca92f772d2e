// SPDX-License-Identifier: MIT
// Policy::parse and friends: the strict reading of a policy file.
#include "auth/Policy.h"

#include <algorithm>
#include <array>
#include <optional>

#include <nlohmann/json.hpp>

#include "auth/TextFile.h"
#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::auth {
namespace {
using nlohmann::json;
using registry::goQuote;

constexpr std::array<std::string_view, 8> RESOURCE_VERBS = {"get",    "list",   "watch",  "create",
                                                            "update", "patch",  "delete", "deletecollection"};
constexpr std::array<std::string_view, 7> NON_RESOURCE_VERBS = {"get", "head", "post", "put", "patch", "delete", "options"};
constexpr std::array<std::string_view, 8> RULE_KEYS = {"users",      "groups", "verbs", "resources", "subresources",
                                                       "namespaces", "names",  "nonResourceURLs"};

template <std::size_t N>
bool oneOf(const std::array<std::string_view, N> &list, std::string_view value)
{
    for (std::string_view entry : list)
        if (entry == value)
            return true;
    return false;
}

template <std::size_t N>
std::string joined(const std::array<std::string_view, N> &list)
{
    std::string text;
    for (std::string_view entry : list) {
        if (!text.empty())
            text += ", ";
        text += entry;
    }
    return text;
}

model::Status parseError(const std::string &where, const std::string &message)
{
    return model::errors::badRequest("policy " + where + ": " + message);
}

// '*' is a wildcard only on its own; inside a word it is a mistake, never a pattern.
bool hasEmbeddedWildcard(std::string_view value)
{
    return value != "*" && value.find('*') != std::string_view::npos;
}

enum class Empty { Forbidden, Allowed };

// The string list `key` of `rule`: nullopt in `list` when absent. Present lists must be
// non-empty arrays of strings without embedded wildcards.
std::optional<model::Status> readList(const json &rule, const std::string &where, const char *key, Empty empty,
                                      std::optional<std::vector<std::string>> &list)
{
    const auto it = rule.find(key);
    if (it == rule.end())
        return std::nullopt;
    const std::string at = where + '.' + key;
    if (!it->is_array())
        return parseError(at, "must be a list of strings");
    if (it->empty())
        return parseError(at, "must not be empty (leave it out to use the default)");
    list.emplace();
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json &entry = (*it)[i];
        const std::string entryAt = at + '[' + std::to_string(i) + ']';
        if (!entry.is_string())
            return parseError(entryAt, "must be a string, not " + std::string(entry.type_name()));
        const std::string &value = entry.get_ref<const std::string &>();
        if (value.empty() && empty == Empty::Forbidden)
            return parseError(entryAt, "must not be empty");
        // Resources and paths have their own wildcard grammar, checked where they are parsed.
        const bool ownGrammar = std::string_view(key) == "resources" || std::string_view(key) == "nonResourceURLs";
        if (!ownGrammar && hasEmbeddedWildcard(value))
            return parseError(entryAt, goQuote(value) + ": '*' is a wildcard only on its own");
        list->push_back(value);
    }
    return std::nullopt;
}

bool isResourceSegment(std::string_view segment)
{
    if (segment.empty())
        return false;
    for (char c : segment)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
            return false;
    return true;
}

model::Result<PolicyRule::Resource> parseResource(const std::string &value, const std::string &at)
{
    const std::size_t slash = value.find('/');
    if (slash != std::string::npos && value.find('/', slash + 1) != std::string::npos)
        return parseError(at, goQuote(value) + ": expected \"<plural>\" or \"<group>/<plural>\"; "
                                               "name subresources in \"subresources\"");
    PolicyRule::Resource resource;
    if (slash == std::string::npos) {
        resource.group = value == "*" ? "*" : "";
        resource.resource = value;
    } else {
        resource.group = value.substr(0, slash);
        resource.resource = value.substr(slash + 1);
    }
    for (const std::string *segment : {&resource.group, &resource.resource}) {
        if (*segment == "*" || (segment == &resource.group && slash == std::string::npos))
            continue;
        if (segment->empty())
            return parseError(at, goQuote(value) + ": empty group or resource");
        if (segment->find('*') != std::string::npos)
            return parseError(at, goQuote(value) + ": '*' is a wildcard only on its own");
        if (!isResourceSegment(*segment))
            return parseError(at, goQuote(value) + ": expected a lower-case resource plural such as \"configmaps\" "
                                                   "or \"apps/deployments\", not a kind");
    }
    if (resource.group == "core")
        return parseError(at, goQuote(value) + ": the core group has no prefix; write " + goQuote(resource.resource));
    return resource;
}

model::Result<PolicyRule> parseRule(const json &rule, const std::string &where)
{
    if (!rule.is_object())
        return parseError(where, "must be an object, not " + std::string(rule.type_name()));
    for (const auto &item : rule.items()) {
        if (!oneOf(RULE_KEYS, item.key()))
            return parseError(where, "unknown key " + goQuote(item.key()) + " (expected one of " + joined(RULE_KEYS) + ')');
    }

    std::optional<std::vector<std::string>> users, groups, verbs, resources, subresources, namespaces, names, paths;
    for (auto [key, empty, list] : {std::tuple{"users", Empty::Forbidden, &users},
                                    std::tuple{"groups", Empty::Forbidden, &groups},
                                    std::tuple{"verbs", Empty::Forbidden, &verbs},
                                    std::tuple{"resources", Empty::Forbidden, &resources},
                                    std::tuple{"subresources", Empty::Allowed, &subresources},
                                    std::tuple{"namespaces", Empty::Allowed, &namespaces},
                                    std::tuple{"names", Empty::Forbidden, &names},
                                    std::tuple{"nonResourceURLs", Empty::Forbidden, &paths}}) {
        if (auto error = readList(rule, where, key, empty, *list))
            return std::move(*error);
    }

    if (!users && !groups)
        return parseError(where, "has no subject: give \"users\", \"groups\" or both");
    if (!verbs)
        return parseError(where, "has no \"verbs\"");
    if (resources && paths)
        return parseError(where, "has both \"resources\" and \"nonResourceURLs\"; split it into two rules");
    if (!resources && !paths)
        return parseError(where, "has neither \"resources\" nor \"nonResourceURLs\"");

    PolicyRule parsed;
    parsed.users = users.value_or(std::vector<std::string>());
    parsed.groups = groups.value_or(std::vector<std::string>());
    for (std::size_t i = 0; i < verbs->size(); ++i) {
        const std::string &verb = (*verbs)[i];
        const bool known = verb == "*" || (paths ? oneOf(NON_RESOURCE_VERBS, verb) : oneOf(RESOURCE_VERBS, verb));
        if (!known)
            return parseError(where + ".verbs[" + std::to_string(i) + ']',
                              "unknown verb " + goQuote(verb) + " (expected *, "
                                  + (paths ? joined(NON_RESOURCE_VERBS) : joined(RESOURCE_VERBS)) + ')');
    }
    parsed.verbs = std::move(*verbs);

    if (paths) {
        for (const char *key : {"subresources", "namespaces", "names"}) {
            if (rule.contains(key))
                return parseError(where, std::string("has \"") + key + "\", which does not apply to \"nonResourceURLs\"");
        }
        for (std::size_t i = 0; i < paths->size(); ++i) {
            const std::string &path = (*paths)[i];
            const std::string at = where + ".nonResourceURLs[" + std::to_string(i) + ']';
            const std::size_t star = path.find('*');
            if (star != std::string::npos && star != path.size() - 1)
                return parseError(at, goQuote(path) + ": '*' may only end a path prefix");
            if (path != "*" && path.front() != '/')
                return parseError(at, goQuote(path) + ": a path starts with '/'");
        }
        parsed.nonResourceURLs = std::move(*paths);
        return parsed;
    }

    for (std::size_t i = 0; i < resources->size(); ++i) {
        auto resource = parseResource((*resources)[i], where + ".resources[" + std::to_string(i) + ']');
        if (!resource)
            return std::move(resource).error();
        parsed.resources.push_back(std::move(resource).value());
    }
    parsed.subresources = subresources.value_or(std::vector<std::string>{""});
    parsed.namespaces = namespaces.value_or(std::vector<std::string>{"*"});
    parsed.names = names.value_or(std::vector<std::string>{"*"});
    return parsed;
}
} // namespace

model::Result<Policy> Policy::fromJson(const json &document)
{
    if (!document.is_object())
        return model::errors::badRequest("policy: must be a JSON object with \"rules\", not " + std::string(document.type_name()));
    for (const auto &item : document.items()) {
        if (item.key() != "rules")
            return model::errors::badRequest("policy: unknown key " + goQuote(item.key()) + " (expected \"rules\")");
    }
    const auto rules = document.find("rules");
    if (rules == document.end())
        return model::errors::badRequest("policy: missing \"rules\"");
    if (!rules->is_array())
        return model::errors::badRequest("policy rules: must be a list of rules");

    Policy policy;
    for (std::size_t i = 0; i < rules->size(); ++i) {
        auto rule = parseRule((*rules)[i], "rules[" + std::to_string(i) + ']');
        if (!rule)
            return std::move(rule).error();
        policy.m_rules.push_back(std::move(rule).value());
    }
    return policy;
}

model::Result<Policy> Policy::parse(std::string_view text)
{
    // nlohmann keeps the last of two equal keys; a policy where {"verbs":["get"],
    // "verbs":["*"]} silently means "*" is the kind of surprise this file must not have.
    std::vector<std::vector<std::string>> keysByDepth;
    std::string duplicateKey;
    const json::parser_callback_t rejectDuplicateKeys = [&](int, json::parse_event_t event, json &parsed) {
        if (event == json::parse_event_t::object_start)
            keysByDepth.emplace_back();
        else if (event == json::parse_event_t::object_end && !keysByDepth.empty())
            keysByDepth.pop_back();
        else if (event == json::parse_event_t::key && !keysByDepth.empty()) {
            auto &keys = keysByDepth.back();
            const std::string &key = parsed.get_ref<const std::string &>();
            if (std::find(keys.begin(), keys.end(), key) != keys.end() && duplicateKey.empty())
                duplicateKey = key;
            keys.push_back(key);
        }
        return true;
    };
    json document;
    try {
        document = json::parse(text.begin(), text.end(), rejectDuplicateKeys);
    } catch (const json::parse_error &error) {
        // "[json.exception.parse_error.101] parse error at line 2, column 5: ..." without the tag.
        std::string message = error.what();
        if (const std::size_t tagEnd = message.find("] "); message.front() == '[' && tagEnd != std::string::npos)
            message.erase(0, tagEnd + 2);
        return model::errors::badRequest("policy: invalid JSON: " + message);
    }
    if (!duplicateKey.empty())
        return model::errors::badRequest("policy: the key " + goQuote(duplicateKey) + " appears twice in one object");
    return fromJson(document);
}

model::Result<Policy> Policy::load(const std::string &path)
{
    const auto text = readTextFile(path, "policy file");
    if (!text)
        return text.error();
    auto policy = parse(*text);
    if (!policy) {
        // "policy rules[0]: ..." -> "policy file "<path>" rules[0]: ...".
        model::Status error = std::move(policy).error();
        error.message.replace(0, std::string_view("policy").size(), "policy file \"" + path + '"');
        return error;
    }
    return policy;
}

} // namespace rvscope::auth
