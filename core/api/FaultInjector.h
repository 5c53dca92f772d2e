// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <qcoro/qcorotask.h>

#include "faults/FaultSet.h"

namespace rvscope::registry {
class Registry;
}
namespace rvscope::storage {
class Storage;
}

namespace rvscope::api {

class Watcher;

// The fault rules of one handler and what carrying them out needs beyond the rules: their
// targets resolved against the served types, the delays in flight (released when the server
// stops), and the sticky expiries. The one place a resource request or a bulk watch channel
// meets the rules (ApiHandler::handle, BulkWatchSession::openWatch). Core thread only.
class FaultInjector final {
public:
    explicit FaultInjector(std::weak_ptr<const registry::Registry> registry);
    ~FaultInjector();
    FaultInjector(const FaultInjector &) = delete;
    FaultInjector &operator=(const FaultInjector &) = delete;

    faults::FaultSet &rules() { return *m_rules; }
    bool empty() const { return m_rules->empty(); }

    // The firing for a request, if any. A watch resuming (resourceVersion > 0) from before an
    // expiry that an expire-after rule caused gets that expiry again, at once (expireNow), as
    // it would after a compaction; otherwise the first rule whose turn it is.
    std::optional<faults::FaultFiring> decide(const faults::FaultRequest &request, std::string_view resourceVersion);
    // What a firing does before the request runs: the delay, the compaction of `storage`.
    QCoro::Task<> before(faults::FaultFiring fault, std::shared_ptr<storage::Storage> storage);
    // What it does after the request ran (its write landed): delay-after-commit's wait.
    QCoro::Task<> after(faults::FaultFiring fault);
    // What it does to the watch the request opened: stall, end or expire after N events or a
    // time (an expiry is remembered for resumes, see decide), or expire at once.
    // `resourceVersion` is the one the watch starts from.
    void shapeWatch(Watcher &watcher, const faults::FaultFiring &fault, const faults::FaultRequest &request,
                    std::string_view resourceVersion);
    // Every delay in flight ends now, its request resumed at once (not on a later turn of
    // the loop): the server stops, and its requests finish instead of waiting out their
    // delays.
    void releaseDelays();
    // The same until none is left, and no delay waits from now on: the loop is about to end
    // (the window closes, serve quits), and a request left suspended would leak.
    void drain();
    std::size_t delaysInFlight() const { return m_delays->pending.size(); }

    // Whether a firing that resumes a watch from before a sticky expiry (expireNow) still
    // applies: not when the watch resumes from the current revision of `storage`.
    static QCoro::Task<bool> stillGone(faults::FaultFiring fault, std::shared_ptr<storage::Storage> storage);

private:
    struct Delay;
    class DelayAwaiter;
    // The delays in flight, shared with the sleeping coroutines.
    struct Delays {
        std::vector<std::shared_ptr<Delay>> pending;
        bool draining = false;
    };
    static QCoro::Task<> sleep(std::shared_ptr<Delays> delays, int milliseconds);

    std::shared_ptr<faults::FaultSet> m_rules = std::make_shared<faults::FaultSet>();
    std::shared_ptr<Delays> m_delays = std::make_shared<Delays>();
};

// Resolves a fault rule's target against the served types (FaultSet::TargetCheck): an
// unknown resource is refused (with the plural for a singular or short name), and a
// cluster-scoped resource's RESOURCE/NAME names the object.
std::optional<std::string> resolveFaultTarget(const registry::Registry &registry, faults::FaultRule &rule);

} // namespace rvscope::api
