// SPDX-License-Identifier: MIT
#include "faults/FaultRule.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "model/StatusErrors.h"

namespace rvscope::faults {
namespace {

constexpr std::array VERBS = {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"};
constexpr const char *VERB_LIST = "get, list, watch, create, update, patch, delete, deletecollection or *";

constexpr std::array<std::pair<std::string_view, FaultAction>, 12> ACTIONS = {{
    {"conflict", FaultAction::Conflict},
    {"throttle", FaultAction::Throttle},
    {"error", FaultAction::Error},
    {"timeout", FaultAction::Timeout},
    {"drop", FaultAction::Drop},
    {"delay", FaultAction::Delay},
    {"delay-after-commit", FaultAction::DelayAfterCommit},
    {"drop-after-commit", FaultAction::DropAfterCommit},
    {"end-after", FaultAction::EndAfter},
    {"expire-after", FaultAction::ExpireAfter},
    {"compact", FaultAction::Compact},
    {"stall", FaultAction::Stall},
}};
constexpr const char *ACTION_LIST = "conflict, throttle, error, timeout, drop, delay=D, delay-after-commit=D, "
                                    "drop-after-commit, end-after=N, expire-after=N, stall or compact";

// Actions that take a value (delay=200ms) and those that take none (conflict).
bool takesValue(FaultAction action)
{
    return action == FaultAction::Delay || action == FaultAction::DelayAfterCommit || action == FaultAction::EndAfter
        || action == FaultAction::ExpireAfter;
}

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            ++i;
        std::size_t end = i;
        while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n' && text[end] != '\r')
            ++end;
        if (end > i)
            out.push_back(text.substr(i, end - i));
        i = end;
    }
    return out;
}

std::optional<std::int64_t> positiveInteger(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1)
        return std::nullopt;
    return value;
}

// "200ms", "2s", "1.5s": milliseconds, at most an hour.
std::optional<int> durationMs(std::string_view text)
{
    double scale = 0;
    if (text.ends_with("ms")) {
        scale = 1;
        text.remove_suffix(2);
    } else if (text.ends_with('s')) {
        scale = 1000;
        text.remove_suffix(1);
    } else {
        return std::nullopt;
    }
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(value >= 0))
        return std::nullopt;
    const double ms = value * scale;
    if (ms > 3600.0 * 1000)
        return std::nullopt;
    return int(std::lround(ms));
}

class RuleParser final {
public:
    explicit RuleParser(std::string_view text)
        : m_words(words(text))
    {
        for (std::string_view word : m_words) {
            if (!m_rule.text.empty())
                m_rule.text += ' ';
            m_rule.text += word;
        }
    }

    model::Result<FaultRule> parse()
    {
        if (m_words.size() < 3)
            return fail("expected VERBS TARGET ... ACTION, such as \"update deployments/x every=3 conflict\"");
        if (auto problem = parseVerbs(m_words[0]))
            return fail(*problem);
        if (auto problem = parseTarget(m_words[1]))
            return fail(*problem);
        for (std::size_t i = 2; i < m_words.size(); ++i) {
            if (auto problem = parseWord(m_words[i]))
                return fail(*problem);
        }
        if (auto problem = checkWhole())
            return fail(*problem);
        return std::move(m_rule);
    }

private:
    model::Status fail(const std::string &problem) const
    {
        return model::errors::badRequest("fault rule \"" + m_rule.text + "\": " + problem);
    }

    std::optional<std::string> parseVerbs(std::string_view text)
    {
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            const std::string verb(text.substr(start, comma - start));
            const bool known = verb == "*" || std::find(VERBS.begin(), VERBS.end(), verb) != VERBS.end();
            if (!known)
                return "unknown verb \"" + verb + "\" (" + VERB_LIST + ")";
            if (std::find(m_rule.verbs.begin(), m_rule.verbs.end(), verb) == m_rule.verbs.end())
                m_rule.verbs.push_back(verb);
            start = comma + 1;
        }
        if (m_rule.verbs.size() > 1 && std::find(m_rule.verbs.begin(), m_rule.verbs.end(), "*") != m_rule.verbs.end())
            return std::string("\"*\" already names every verb");
        return std::nullopt;
    }

    std::optional<std::string> parseTarget(std::string_view text)
    {
        if (text.find('=') != std::string_view::npos)
            return "expected the target RESOURCE[/NAMESPACE[/NAME]] second, got \"" + std::string(text) + "\"";
        std::vector<std::string> parts;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t slash = std::min(text.find('/', start), text.size());
            parts.emplace_back(text.substr(start, slash - start));
            start = slash + 1;
        }
        if (parts.size() > 3)
            return "the target \"" + std::string(text)
                + "\" has more than RESOURCE/NAMESPACE/NAME (a subresource is subresource=NAME)";
        for (const std::string &part : parts) {
            if (part.empty())
                return "the target \"" + std::string(text) + "\" has an empty part (use * for any)";
        }
        const std::size_t dot = parts[0].find('.');
        m_rule.resource = parts[0].substr(0, dot);
        if (dot != std::string::npos)
            m_rule.group = parts[0].substr(dot + 1);
        if (m_rule.resource.empty() || m_rule.group.empty())
            return "the target \"" + std::string(text) + "\" has an empty resource or group";
        m_rule.targetParts = int(parts.size());
        if (parts.size() > 1)
            m_rule.namespaceName = parts[1];
        if (parts.size() > 2)
            m_rule.name = parts[2];
        return std::nullopt;
    }

    std::optional<std::string> parseWord(std::string_view word)
    {
        const std::size_t equals = word.find('=');
        const std::string key(word.substr(0, equals));
        const bool hasValue = equals != std::string_view::npos;
        const std::string_view value = hasValue ? word.substr(equals + 1) : std::string_view();
        if (hasValue && value.empty())
            return "\"" + key + "=\" needs a value";
        const auto action = std::find_if(ACTIONS.begin(), ACTIONS.end(), [&](const auto &a) { return a.first == key; });
        if (action != ACTIONS.end())
            return parseAction(action->second, key, hasValue, value);
        auto needsValue = [&]() -> std::optional<std::string> {
            if (!hasValue)
                return "\"" + key + "\" needs a value (" + key + "=...)";
            return std::nullopt;
        };
        auto glob = [&](std::string &field) -> std::optional<std::string> {
            if (auto problem = needsValue())
                return problem;
            field = std::string(value);
            return std::nullopt;
        };
        auto count = [&](std::optional<std::int64_t> &field) -> std::optional<std::string> {
            if (auto problem = needsValue())
                return problem;
            field = positiveInteger(value);
            if (!field)
                return key + " expects a whole number of at least 1, got \"" + std::string(value) + "\"";
            return std::nullopt;
        };
        if (key == "user")
            return glob(m_rule.user);
        if (key == "agent")
            return glob(m_rule.agent);
        if (key == "client")
            return glob(m_rule.client);
        if (key == "subresource") {
            std::string subresource;
            auto problem = glob(subresource);
            m_rule.subresource = std::move(subresource);
            return problem;
        }
        if (key == "every") {
            std::optional<std::int64_t> every;
            auto problem = count(every);
            m_everyGiven = true;
            m_rule.every = every.value_or(1);
            return problem;
        }
        if (key == "times") {
            if (m_onceGiven)
                return std::string("\"once\" and \"times\" exclude each other");
            return count(m_rule.times);
        }
        if (key == "once") {
            if (hasValue)
                return std::string("\"once\" takes no value");
            if (m_rule.times)
                return std::string("\"once\" and \"times\" exclude each other");
            m_onceGiven = true;
            m_rule.times = 1;
            return std::nullopt;
        }
        if (key == "probability") {
            if (auto problem = needsValue())
                return problem;
            double p = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), p);
            if (error != std::errc() || end != value.data() + value.size() || !(p > 0 && p <= 1))
                return "probability expects a number above 0 and at most 1, got \"" + std::string(value) + "\"";
            m_rule.probability = p;
            return std::nullopt;
        }
        if (key == "seed") {
            if (auto problem = needsValue())
                return problem;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), m_rule.seed);
            if (error != std::errc() || end != value.data() + value.size())
                return "seed expects a whole number, got \"" + std::string(value) + "\"";
            m_seedGiven = true;
            return std::nullopt;
        }
        if (key == "retry-after") {
            std::optional<std::int64_t> seconds;
            auto problem = count(seconds);
            if (!problem && *seconds > 3600)
                return std::string("retry-after is at most 3600 seconds");
            m_rule.retryAfterSeconds = int(seconds.value_or(1));
            m_retryAfterGiven = true;
            return problem;
        }
        return "unknown word \"" + std::string(word) + "\" (an action: " + ACTION_LIST
            + "; or subresource=, user=, agent=, client=, every=, probability=, seed=, once, times=, retry-after=)";
    }

    std::optional<std::string> parseAction(FaultAction action, const std::string &key, bool hasValue,
                                           std::string_view value)
    {
        if (m_actionGiven)
            return "two actions, \"" + std::string(actionName(m_rule.action)) + "\" and \"" + key
                + "\": a rule has exactly one";
        m_actionGiven = true;
        m_rule.action = action;
        if (!takesValue(action)) {
            if (hasValue)
                return "\"" + key + "\" takes no value";
            return std::nullopt;
        }
        if (!hasValue)
            return "\"" + key + "\" needs a value (" + key
                + (action == FaultAction::EndAfter || action == FaultAction::ExpireAfter ? "=N)" : "=200ms)");
        if (action == FaultAction::EndAfter || action == FaultAction::ExpireAfter) {
            if (const auto n = positiveInteger(value)) {
                m_rule.events = *n;
                return std::nullopt;
            }
            const auto after = durationMs(value);
            if (!after || *after < 1)
                return key + " expects a number of events of at least 1 (5) or a duration (30s), got \""
                    + std::string(value) + "\"";
            m_rule.afterMs = *after;
            return std::nullopt;
        }
        const std::size_t dots = value.find("..");
        const auto low = durationMs(value.substr(0, dots));
        const auto high = dots == std::string_view::npos ? low : durationMs(value.substr(dots + 2));
        if (!low || !high || *high < *low)
            return key + " expects a duration such as 200ms or 2s, or a range such as 100ms..1s, got \""
                + std::string(value) + "\"";
        m_rule.delayMinMs = *low;
        m_rule.delayMaxMs = *high;
        return std::nullopt;
    }

    std::optional<std::string> checkWhole() const
    {
        if (!m_actionGiven)
            return std::string("no action (one of ") + ACTION_LIST + ")";
        if (m_rule.probability && m_everyGiven)
            return std::string("\"every\" and \"probability\" exclude each other");
        if (m_seedGiven && !m_rule.probability)
            return std::string("\"seed\" applies to \"probability\" only");
        if (m_retryAfterGiven && m_rule.action != FaultAction::Throttle)
            return std::string("\"retry-after\" applies to \"throttle\" only");
        const std::string_view action = actionName(m_rule.action);
        if (m_rule.action == FaultAction::EndAfter || m_rule.action == FaultAction::ExpireAfter
            || m_rule.action == FaultAction::Stall) {
            if (m_rule.verbs != std::vector<std::string>{"watch"})
                return "\"" + std::string(action) + "\" acts on watch streams: the verb must be watch";
        }
        // A verb the action cannot act on, named: refused (a `*` rule passes such requests by).
        for (const std::string &verb : m_rule.verbs) {
            if (verb != "*" && !actsOn(m_rule.action, verb))
                return "\"" + std::string(action) + "\" acts on " + actedOnVerbs(m_rule.action) + ": \"" + verb
                    + "\" is not one";
        }
        return std::nullopt;
    }

    std::vector<std::string_view> m_words;
    FaultRule m_rule;
    bool m_actionGiven = false;
    bool m_everyGiven = false;
    bool m_onceGiven = false;
    bool m_seedGiven = false;
    bool m_retryAfterGiven = false;
};

} // namespace

std::string_view actionName(FaultAction action)
{
    for (const auto &[name, value] : ACTIONS) {
        if (value == action)
            return name;
    }
    return "?";
}

std::optional<FaultAction> actionNamed(std::string_view name)
{
    for (const auto &[word, value] : ACTIONS) {
        if (word == name)
            return value;
    }
    return std::nullopt;
}

bool answersInstead(FaultAction action)
{
    switch (action) {
    case FaultAction::Conflict:
    case FaultAction::Throttle:
    case FaultAction::Error:
    case FaultAction::Timeout:
    case FaultAction::Drop:
        return true;
    default:
        return false;
    }
}

bool FaultRule::matchesVerb(std::string_view verb) const
{
    return actsOn(action, verb)
        && std::any_of(verbs.begin(), verbs.end(), [&](const std::string &v) { return v == "*" || v == verb; });
}

bool actsOn(FaultAction action, std::string_view verb)
{
    switch (action) {
    case FaultAction::Conflict:
        // The optimistic lock's 409 answers writes to an existing object: a create's 409 is
        // AlreadyExists, and a deletecollection has no one object to name.
        return verb == "update" || verb == "patch" || verb == "delete";
    case FaultAction::DelayAfterCommit:
    case FaultAction::DropAfterCommit:
        // A watch's reply is its stream: there is no "after" to delay or drop.
        return verb != "watch";
    case FaultAction::EndAfter:
    case FaultAction::ExpireAfter:
    case FaultAction::Stall:
        return verb == "watch";
    default:
        return true;
    }
}

std::string actedOnVerbs(FaultAction action)
{
    switch (action) {
    case FaultAction::Conflict:
        return "update, patch and delete";
    case FaultAction::DelayAfterCommit:
    case FaultAction::DropAfterCommit:
        return "replies (every verb but watch)";
    case FaultAction::EndAfter:
    case FaultAction::ExpireAfter:
    case FaultAction::Stall:
        return "watch streams";
    default:
        return "every verb";
    }
}

model::Result<FaultRule> parseFaultRule(std::string_view text)
{
    return RuleParser(text).parse();
}

} // namespace rvscope::faults
