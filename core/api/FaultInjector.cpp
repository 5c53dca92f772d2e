// SPDX-License-Identifier: MIT
#include "api/FaultInjector.h"

#include <algorithm>
#include <charconv>

#include <coroutine>
#include <utility>

#include <QTimer>

#include "api/Watcher.h"
#include "faults/Glob.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"
#include "storage/Storage.h"

namespace rvscope::api {
namespace {
// The resourceVersion a watch resumes from; 0 for none ("", "0", not a number).
std::int64_t resumedFrom(std::string_view resourceVersion)
{
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(resourceVersion.data(), resourceVersion.data() + resourceVersion.size(), value);
    return error == std::errc() && end == resourceVersion.data() + resourceVersion.size() && value > 0 ? value : 0;
}

bool isGlob(const std::string &part)
{
    return part.find_first_of("*?") != std::string::npos;
}
} // namespace

FaultInjector::FaultInjector(std::weak_ptr<const registry::Registry> registry)
{
    m_rules->setTargetCheck([registry = std::move(registry)](faults::FaultRule &rule) -> std::optional<std::string> {
        auto served = registry.lock();
        return served ? resolveFaultTarget(*served, rule) : std::nullopt;
    });
}

// (A delay still in flight holds its Delay; its coroutine holds the handler, hence this.)
FaultInjector::~FaultInjector() = default;

std::optional<faults::FaultFiring> FaultInjector::decide(const faults::FaultRequest &request,
                                                         std::string_view resourceVersion)
{
    if (request.verb == "watch") {
        if (const std::int64_t from = resumedFrom(resourceVersion)) {
            if (auto expiry = m_rules->expiredFor(request, from)) {
                faults::FaultFiring again;
                again.ruleId = expiry->ruleId;
                again.action = faults::FaultAction::ExpireAfter;
                again.resumedFrom = from;
                again.expireNow = model::errors::expired("too old resource version: " + std::to_string(from) + " ("
                                                         + std::to_string(expiry->oldest) + ")");
                return again;
            }
        }
    }
    return m_rules->decide(request);
}

QCoro::Task<bool> FaultInjector::stillGone(faults::FaultFiring fault, std::shared_ptr<storage::Storage> storage)
{
    if (!fault.expireNow || !storage)
        co_return true;
    // A compaction never takes the head: a watch from the current revision misses nothing
    // (a client that relisted with nothing written since), so it goes on.
    const auto current = co_await storage->currentRevision();
    co_return !current || fault.resumedFrom < *current;
}

QCoro::Task<> FaultInjector::before(faults::FaultFiring fault, std::shared_ptr<storage::Storage> storage)
{
    if (fault.action == faults::FaultAction::Delay)
        co_await sleep(m_delays, fault.delayMs);
    if (fault.action == faults::FaultAction::Compact && storage) {
        // Every resume from an older resourceVersion now gets 410, as after the apiserver's
        // periodic compaction.
        const auto current = co_await storage->currentRevision();
        if (current) {
            const auto compacted = co_await storage->compact(*current);
            if (!compacted)
                qWarning("rvscope: injected compaction failed: %s", compacted.error().message.c_str());
        }
    }
}

QCoro::Task<> FaultInjector::after(faults::FaultFiring fault)
{
    if (fault.action == faults::FaultAction::DelayAfterCommit)
        co_await sleep(m_delays, fault.delayMs);
}

void FaultInjector::shapeWatch(Watcher &watcher, const faults::FaultFiring &fault, const faults::FaultRequest &request,
                               std::string_view resourceVersion)
{
    if (fault.expireNow) {
        watcher.expireNow(*fault.expireNow);
        return;
    }
    if (fault.action == faults::FaultAction::Stall) {
        watcher.stall();
        return;
    }
    if (fault.action != faults::FaultAction::EndAfter && fault.action != faults::FaultAction::ExpireAfter)
        return;
    const bool expire = fault.action == faults::FaultAction::ExpireAfter;
    if (fault.events > 0)
        watcher.limitEvents(fault.events, expire);
    else
        watcher.limitTime(fault.afterMs, expire);
    if (!expire)
        return;
    // Remembered as a compaction would be: a resume from before what the 410 says is gone
    // gets it again (decide).
    std::weak_ptr<faults::FaultSet> rules = m_rules;
    // (Before any event was handed over, what is gone is up to where the watch started.)
    watcher.onExpiredAtLimit([rules, ruleId = fault.ruleId, key = faults::FaultSet::resourceKey(request),
                              start = resumedFrom(resourceVersion)](std::int64_t oldest) {
        if (auto held = rules.lock())
            held->recordExpiry(ruleId, key, std::max(oldest, start + 1));
    });
}

// One delay in flight: its timer and the coroutine waiting on it, resumed once, by the timer
// or by releaseDelays(), whichever comes first. (When the timer resumes it, the request runs
// on and the delay, timer included, goes inside the timer's own timeout signal, which
// QObject::activate allows for a sender deleted by its slot; QCoro's sleepFor does the same.)
struct FaultInjector::Delay {
    QTimer timer;
    std::coroutine_handle<> waiting;

    void resume()
    {
        timer.stop();
        if (std::coroutine_handle<> handle = std::exchange(waiting, {}))
            handle.resume();
    }
};

class FaultInjector::DelayAwaiter {
public:
    DelayAwaiter(Delay *delay, int milliseconds)
        : m_delay(delay)
        , m_milliseconds(milliseconds)
    {
    }
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> waiting)
    {
        Delay *delay = m_delay; // the connection goes with the timer, which goes with the delay
        delay->waiting = waiting;
        delay->timer.setSingleShot(true);
        QObject::connect(&delay->timer, &QTimer::timeout, &delay->timer, [delay] { delay->resume(); });
        delay->timer.start(m_milliseconds);
    }
    void await_resume() const noexcept {}

private:
    Delay *m_delay;
    int m_milliseconds;
};

QCoro::Task<> FaultInjector::sleep(std::shared_ptr<Delays> delays, int milliseconds)
{
    if (delays->draining)
        co_return; // the server is going: no new waits
    auto delay = std::make_shared<Delay>();
    delays->pending.push_back(delay);
    co_await DelayAwaiter(delay.get(), milliseconds);
    std::erase(delays->pending, delay);
}

void FaultInjector::releaseDelays()
{
    // A copy: each resumed request may end, and with it its entry.
    const std::vector<std::shared_ptr<Delay>> pending = m_delays->pending;
    for (const std::shared_ptr<Delay> &delay : pending)
        delay->resume();
}

void FaultInjector::drain()
{
    m_delays->draining = true;
    // A released request may meet another delay (its client's next request): no new one
    // waits now, so each pass leaves fewer.
    for (int pass = 0; pass < 100 && !m_delays->pending.empty(); ++pass)
        releaseDelays();
}

std::optional<std::string> resolveFaultTarget(const registry::Registry &registry, faults::FaultRule &rule)
{
    if (isGlob(rule.resource)) {
        // Any resource: its parts keep their RESOURCE/NAMESPACE/NAME places. A group is
        // still checked (a typo in it would name nothing).
        const auto types = registry.types();
        const bool served = rule.group == "*" || std::ranges::any_of(types, [&rule](const auto &type) {
            return faults::globMatches(rule.group, type->gvr.group);
        });
        if (!served)
            return "the server serves no group \"" + rule.group + "\"";
        return std::nullopt;
    }
    std::vector<std::shared_ptr<const registry::ResourceType>> named;
    std::string plural; // what a singular or short name stands for
    for (const auto &type : registry.types()) {
        if (!faults::globMatches(rule.group, type->gvr.group))
            continue;
        if (type->gvr.resource == rule.resource)
            named.push_back(type);
        else if (type->singularName == rule.resource
                 || std::ranges::find(type->shortNames, rule.resource) != type->shortNames.end())
            plural = type->gvr.resource;
    }
    if (named.empty()) {
        std::string problem = "the server serves no resource \"" + rule.resource + "\"";
        if (rule.group != "*")
            problem += " in group \"" + rule.group + "\"";
        if (!plural.empty())
            return problem + " (a rule names the plural: \"" + plural + "\")";
        return problem + " (a custom resource's definition must exist before its rules)";
    }
    const bool clusterScoped = std::ranges::none_of(named, [](const auto &type) { return type->namespaced(); });
    const bool namespaced = std::ranges::all_of(named, [](const auto &type) { return type->namespaced(); });
    if (!clusterScoped && !namespaced)
        return "\"" + rule.resource + "\" is namespaced in one group and cluster-scoped in another: name the group ("
            + rule.resource + ".GROUP)";
    if (namespaced)
        return std::nullopt;
    if (rule.targetParts > 2)
        return "\"" + rule.resource + "\" is cluster-scoped: its target is " + rule.resource + "[/NAME]";
    if (rule.targetParts == 2) {
        rule.name = rule.namespaceName;
        rule.namespaceName = "*";
    }
    return std::nullopt;
}

} // namespace rvscope::api
