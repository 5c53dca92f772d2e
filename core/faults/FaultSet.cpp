// SPDX-License-Identifier: MIT
#include "faults/FaultSet.h"

#include <algorithm>

#include "faults/Glob.h"
#include "model/StatusErrors.h"

namespace rvscope::faults {
namespace {
// A uniform draw in [0, 1) from 53 bits: the same sequence for a seed on every platform
// (std::uniform_real_distribution's is the library's choice).
double unitDraw(std::mt19937_64 &random)
{
    return double(random() >> 11) * 0x1.0p-53;
}
} // namespace

std::uint64_t FaultSet::add(FaultRule rule, Origin origin)
{
    Entry entry;
    entry.id = m_nextId++;
    entry.origin = origin;
    entry.random.seed(rule.seed);
    entry.rule = std::move(rule);
    m_entries.push_back(std::move(entry));
    return m_entries.back().id;
}

model::Result<std::uint64_t> FaultSet::add(std::string_view text, Origin origin)
{
    auto rule = parseFaultRule(text);
    if (!rule)
        return std::move(rule).error();
    if (m_targetCheck) {
        if (auto problem = m_targetCheck(*rule))
            return model::errors::badRequest("fault rule \"" + rule->text + "\": " + *problem);
    }
    return add(std::move(rule).value(), origin);
}

bool FaultSet::remove(std::uint64_t id)
{
    return std::erase_if(m_entries, [id](const Entry &entry) { return entry.id == id; }) > 0;
}

bool FaultSet::names(const FaultRule &rule, const FaultRequest &request)
{
    if (!rule.matchesVerb(request.verb))
        return false;
    if (rule.subresource ? !globMatches(*rule.subresource, request.subresource) : !request.subresource.empty())
        return false;
    return globMatches(rule.resource, request.resource) && globMatches(rule.group, request.group)
        && globMatches(rule.namespaceName, request.namespaceName)
        && globMatches(rule.name, request.name) && globMatches(rule.user, request.user)
        && globMatches(rule.agent, request.agent) && globMatches(rule.client, request.client);
}

std::optional<FaultFiring> FaultSet::decide(const FaultRequest &request)
{
    std::optional<FaultFiring> firing;
    for (Entry &entry : m_entries) {
        if (entry.spent() || !names(entry.rule, request))
            continue;
        ++entry.matched;
        const FaultRule &rule = entry.rule;
        const bool turn = rule.probability ? unitDraw(entry.random) < *rule.probability
                                           : entry.matched % std::uint64_t(rule.every) == 0;
        if (!turn || firing)
            continue;
        ++entry.fired;
        FaultFiring fired;
        fired.ruleId = entry.id;
        fired.action = rule.action;
        fired.retryAfterSeconds = rule.retryAfterSeconds;
        fired.events = rule.events;
        fired.afterMs = rule.afterMs;
        fired.delayMs = rule.delayMinMs;
        if (rule.delayMaxMs > rule.delayMinMs)
            fired.delayMs += int(unitDraw(entry.random) * double(rule.delayMaxMs - rule.delayMinMs + 1));
        firing = fired;
    }
    return firing;
}

void FaultSet::withdraw(std::uint64_t ruleId)
{
    for (Entry &entry : m_entries) {
        if (entry.id == ruleId && entry.fired > 0)
            --entry.fired;
    }
}

std::string FaultSet::resourceKey(const FaultRequest &request)
{
    return request.group.empty() ? request.resource : request.resource + '.' + request.group;
}

void FaultSet::recordExpiry(std::uint64_t ruleId, const std::string &resource, std::int64_t oldest)
{
    for (Entry &entry : m_entries) {
        if (entry.id == ruleId) {
            std::int64_t &floor = entry.expiredBelow[resource];
            floor = std::max(floor, oldest);
        }
    }
}

std::optional<FaultSet::Expiry> FaultSet::expiredFor(const FaultRequest &request, std::int64_t resourceVersion) const
{
    const std::string resource = resourceKey(request);
    for (const Entry &entry : m_entries) {
        auto it = entry.expiredBelow.find(resource);
        if (it != entry.expiredBelow.end() && resourceVersion < it->second && names(entry.rule, request))
            return Expiry{entry.id, it->second};
    }
    return std::nullopt;
}

void FaultSet::takeOver(const FaultSet &previous)
{
    m_entries.clear();
    for (const Entry &old : previous.m_entries) {
        if (old.origin != Origin::User || old.spent())
            continue;
        Entry entry;
        entry.id = old.id;
        entry.origin = old.origin;
        entry.rule = old.rule;
        entry.random.seed(old.rule.seed);
        m_entries.push_back(std::move(entry));
    }
    m_nextId = previous.m_nextId;
}

} // namespace rvscope::faults
