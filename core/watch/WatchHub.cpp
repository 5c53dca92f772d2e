// SPDX-License-Identifier: MIT
#include "watch/WatchHub.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "model/Object.h"

namespace rvscope::watch {

using storage::Revision;
using storage::WatchEvent;
using storage::WatchHandle;
using storage::WatchSink;

namespace {
bool hasPrefix(const std::string &key, const std::string &prefix)
{
    return key.compare(0, prefix.size(), prefix) == 0;
}

std::size_t sizeOf(const WatchEvent &event)
{
    return (event.object ? event.object->bytes().size() : 0) + (event.previous ? event.previous->bytes().size() : 0);
}
} // namespace

struct WatchHub::Watcher : std::enable_shared_from_this<WatchHub::Watcher> {
    std::string prefix;
    Revision after = 0; // receives the events with a newer revision
    WatchSink sink;
    bool active = true;
    std::size_t slot = 0; // its index in its prefix's watcher list
};

// One upstream storage watch and the watchers it feeds. `buffer` holds the newest events
// (at most `limit`) in revision order; together with what is still to come it has every
// event of `root` after `coveredFrom`. Watchers are indexed by prefix, so an event costs a
// lookup per distinct prefix length, not a comparison per watcher: ten thousand watches of
// one object each are as cheap to skip as one.
struct WatchHub::Upstream {
    std::string root;
    std::size_t limit = 0;
    std::size_t limitBytes = 0;
    std::size_t bytes = 0; // of the buffered events' objects
    WatchHandle handle;
    Revision coveredFrom = 0;
    std::deque<WatchEvent> buffer;
    // Node-based maps: sinks may add watchers (and prefixes) while an event is dispatched.
    std::map<std::string, std::vector<std::shared_ptr<Watcher>>, std::less<>> byPrefix;
    std::map<std::size_t, int> prefixLengths; // of byPrefix's keys, with their counts
    int busy = 0; // > 0 while watchers or the buffer are being iterated
    bool failed = false;
    // Watchers stopped while busy, taken out of byPrefix once it is safe.
    std::vector<std::shared_ptr<Watcher>> stopped;

    void dispatch(const WatchEvent &event);
    // Replays the buffered events after watcher->after to it, then adds it to the live ones.
    void join(const std::shared_ptr<Watcher> &watcher);
    void stop(const std::shared_ptr<Watcher> &watcher);
    void settle();
    int activeWatchers() const;
    // Hands `event` to one watcher. A sink that throws (a bug) ends that watch, not every
    // watch of this root: the loops around it stay balanced.
    void deliver(Watcher &watcher, const WatchEvent &event);
};

void WatchHub::Upstream::deliver(Watcher &watcher, const WatchEvent &event)
{
    try {
        watcher.sink(event);
    } catch (const std::exception &error) {
        qWarning("rvscope: a watch under %s failed and was stopped: %s", watcher.prefix.c_str(), error.what());
        if (watcher.active) {
            watcher.active = false;
            stopped.push_back(watcher.shared_from_this());
        }
    }
}

void WatchHub::Upstream::dispatch(const WatchEvent &event)
{
    if (event.type == storage::WatchEventType::Error) {
        // The inner watch ended (its history was compacted under it, say): so does every
        // watcher's, with the same ERROR. The next watch of this root starts a new upstream.
        failed = true;
        ++busy;
        std::vector<std::shared_ptr<Watcher>> ending;
        for (const auto &[prefix, watchers] : byPrefix)
            ending.insert(ending.end(), watchers.begin(), watchers.end());
        for (const std::shared_ptr<Watcher> &watcher : ending) {
            if (!watcher->active)
                continue;
            watcher->active = false;
            stopped.push_back(watcher);
            deliver(*watcher, event);
        }
        --busy;
        handle.stop();
        settle();
        return;
    }
    buffer.push_back(event);
    buffer.back().encodings = std::make_shared<storage::WatchEventEncodings>();
    bytes += sizeOf(event);
    // By index: the deque may grow (not shrink) while busy, moving nothing but invalidating
    // iterators.
    const std::size_t index = buffer.size() - 1;
    const std::string_view key = buffer[index].key;
    const Revision revision = buffer[index].revision;
    ++busy;
    for (auto length = prefixLengths.begin(); length != prefixLengths.end() && length->first <= key.size(); ++length) {
        auto group = byPrefix.find(key.substr(0, length->first));
        if (group == byPrefix.end())
            continue;
        std::vector<std::shared_ptr<Watcher>> &watchers = group->second;
        for (std::size_t i = 0; i < watchers.size(); ++i) {
            Watcher *watcher = watchers[i].get();
            if (watcher->active && revision > watcher->after) {
                watcher->after = revision;
                deliver(*watcher, buffer[index]);
            }
        }
    }
    --busy;
    settle();
}

void WatchHub::Upstream::join(const std::shared_ptr<Watcher> &watcher)
{
    ++busy;
    auto first = std::upper_bound(buffer.begin(), buffer.end(), watcher->after,
                                  [](Revision after, const WatchEvent &event) { return after < event.revision; });
    // Sinks may write: the events that causes are appended (and dispatched to the others)
    // while this loop runs, and it reaches them too before the watcher goes live.
    for (auto i = static_cast<std::size_t>(first - buffer.begin()); i < buffer.size() && watcher->active; ++i) {
        const WatchEvent &event = buffer[i];
        if (event.revision <= watcher->after)
            continue;
        watcher->after = event.revision;
        if (hasPrefix(event.key, watcher->prefix))
            deliver(*watcher, event);
    }
    --busy;
    if (watcher->active) {
        auto &watchers = byPrefix[watcher->prefix];
        if (watchers.empty())
            ++prefixLengths[watcher->prefix.size()];
        watcher->slot = watchers.size();
        watchers.push_back(watcher);
    }
    settle();
}

void WatchHub::Upstream::stop(const std::shared_ptr<Watcher> &watcher)
{
    watcher->active = false;
    stopped.push_back(watcher);
    settle();
}

void WatchHub::Upstream::settle()
{
    if (busy > 0)
        return;
    for (const std::shared_ptr<Watcher> &watcher : stopped) {
        auto group = byPrefix.find(watcher->prefix);
        if (group == byPrefix.end())
            continue;
        // Swap with the last: constant time, and the order of watchers is nobody's business.
        std::vector<std::shared_ptr<Watcher>> &watchers = group->second;
        if (watcher->slot >= watchers.size() || watchers[watcher->slot] != watcher)
            continue; // never went live
        watchers[watcher->slot] = std::move(watchers.back());
        watchers[watcher->slot]->slot = watcher->slot;
        watchers.pop_back();
        if (!watchers.empty())
            continue;
        auto length = prefixLengths.find(group->first.size());
        if (--length->second == 0)
            prefixLengths.erase(length);
        byPrefix.erase(group);
    }
    stopped.clear();
    // The newest event stays whatever its size: a watcher joining now needs nothing older.
    while (buffer.size() > limit || (bytes > limitBytes && buffer.size() > 1)) {
        coveredFrom = buffer.front().revision;
        bytes -= sizeOf(buffer.front());
        buffer.pop_front();
    }
}

int WatchHub::Upstream::activeWatchers() const
{
    int count = 0;
    for (const auto &[prefix, watchers] : byPrefix)
        count += static_cast<int>(std::count_if(watchers.begin(), watchers.end(), [](const auto &w) { return w->active; }));
    return count;
}

WatchHub::WatchHub(std::shared_ptr<storage::Storage> inner, WatchHubOptions options)
    : m_inner(std::move(inner))
    , m_options(options)
{
    m_options.bufferEvents = std::max<std::size_t>(m_options.bufferEvents, 1);
}

WatchHub::~WatchHub()
{
    // Watchers of the upstreams get nothing more, like watchers of a storage that is gone.
    for (auto &[root, upstream] : m_upstreams)
        upstream->handle.stop();
}

void WatchHub::addRoot(std::string root)
{
    m_roots.insert(std::move(root));
}

std::string WatchHub::rootOf(const std::string &prefix) const
{
    // The longest root containing the prefix (roots may nest: "/registry/" and below).
    const std::string *best = nullptr;
    for (const std::string &root : m_roots) {
        if (hasPrefix(prefix, root) && (!best || root.size() > best->size()))
            best = &root;
    }
    return best ? *best : prefix;
}

WatchHubStats WatchHub::stats() const
{
    WatchHubStats stats;
    for (const auto &[root, upstream] : m_upstreams) {
        if (upstream->failed)
            continue;
        ++stats.upstreams;
        stats.sharedWatchers += upstream->activeWatchers();
    }
    stats.directWatchers = *m_directWatchers;
    return stats;
}

QCoro::Task<model::Result<std::shared_ptr<WatchHub::Upstream>>> WatchHub::upstreamFor(std::string root, Revision from)
{
    auto existing = m_upstreams.find(root);
    if (existing != m_upstreams.end() && !existing->second->failed) {
        std::shared_ptr<Upstream> shared = existing->second; // QCoro moves from a co_returned lvalue
        co_return shared;
    }
    Revision start = from;
    if (start == 0) {
        auto current = co_await m_inner->currentRevision();
        if (!current)
            co_return std::move(current).error();
        start = *current;
    }
    // Another watch may have started it while this one waited.
    existing = m_upstreams.find(root);
    if (existing != m_upstreams.end() && !existing->second->failed) {
        std::shared_ptr<Upstream> shared = existing->second; // QCoro moves from a co_returned lvalue
        co_return shared;
    }

    auto upstream = std::make_shared<Upstream>();
    upstream->root = root;
    upstream->limit = m_options.bufferEvents;
    upstream->limitBytes = m_options.bufferBytes;
    upstream->coveredFrom = start;
    m_upstreams[root] = upstream;
    std::weak_ptr<Upstream> weak = upstream;
    WatchSink dispatch = [weak](const WatchEvent &event) {
        if (auto alive = weak.lock())
            alive->dispatch(event);
    };
    auto handle = co_await m_inner->watch(root, start, std::move(dispatch));
    if (!handle) {
        upstream->failed = true;
        auto mine = m_upstreams.find(root);
        if (mine != m_upstreams.end() && mine->second == upstream)
            m_upstreams.erase(mine);
        co_return std::move(handle).error();
    }
    upstream->handle = std::move(handle).value();
    co_return upstream;
}

QCoro::Task<model::Result<WatchHandle>> WatchHub::watchDirect(std::string prefix, Revision fromRevision, WatchSink sink)
{
    auto handle = co_await m_inner->watch(std::move(prefix), fromRevision, std::move(sink));
    if (!handle)
        co_return std::move(handle).error();
    auto inner = std::make_shared<WatchHandle>(std::move(handle).value());
    std::shared_ptr<int> counter = m_directWatchers;
    ++*counter;
    co_return WatchHandle([inner, counter]() {
        if (inner->active()) {
            inner->stop();
            --*counter;
        }
    });
}

QCoro::Task<model::Result<WatchHandle>> WatchHub::watch(std::string prefix, Revision fromRevision, WatchSink sink)
{
    if (fromRevision < 0)
        co_return co_await watchDirect(std::move(prefix), fromRevision, std::move(sink));

    if (fromRevision > 0) {
        // The inner storage decides whether a watch may start at this revision (410, 504).
        WatchSink ignore = [](const WatchEvent &) {};
        auto probe = co_await m_inner->watch(prefix, fromRevision, std::move(ignore));
        if (!probe)
            co_return std::move(probe).error();
        probe->stop();
    }

    std::string root = rootOf(prefix);
    auto found = co_await upstreamFor(std::move(root), fromRevision);
    if (!found)
        co_return std::move(found).error();
    std::shared_ptr<Upstream> upstream = std::move(found).value();

    auto watcher = std::make_shared<Watcher>();
    watcher->prefix = prefix;
    watcher->sink = std::move(sink);
    watcher->after = fromRevision;
    if (fromRevision == 0) {
        storage::ListOptions options;
        options.withKeys = true;
        auto listed = co_await m_inner->list(prefix, options);
        if (!listed)
            co_return std::move(listed).error();
        if (listed->revision < upstream->coveredFrom || upstream->failed)
            co_return co_await watchDirect(std::move(prefix), 0, std::move(watcher->sink));
        // The current objects at their own revisions (like Storage::watch from 0), then
        // every change after the list. Busy: the buffer must keep what sinks write meanwhile.
        watcher->after = listed->revision;
        ++upstream->busy;
        for (std::size_t i = 0; i < listed->items.size() && watcher->active; ++i) {
            WatchEvent added;
            added.type = storage::WatchEventType::Added;
            added.key = listed->keys[i];
            added.object = listed->items[i];
            added.revision = model::parseResourceVersion(added.object->resourceVersion()).value_or(0);
            watcher->sink(added);
        }
        --upstream->busy;
    } else if (fromRevision < upstream->coveredFrom || upstream->failed) {
        co_return co_await watchDirect(std::move(prefix), fromRevision, std::move(watcher->sink));
    }
    upstream->join(watcher);

    std::weak_ptr<Upstream> weak = upstream;
    co_return WatchHandle([weak, watcher]() {
        if (!watcher->active)
            return;
        if (auto alive = weak.lock())
            alive->stop(watcher);
        else
            watcher->active = false;
    });
}

// The other calls hand back the inner storage's own task: no frame of their own on the
// request path.
QCoro::Task<model::Result<ObjectPtr>> WatchHub::get(std::string key)
{
    return m_inner->get(std::move(key));
}

QCoro::Task<model::Result<ObjectPtr>> WatchHub::create(std::string key, model::Object object)
{
    return m_inner->create(std::move(key), std::move(object));
}

QCoro::Task<model::Result<storage::RemoveResult>> WatchHub::remove(std::string key,
                                                                   storage::Preconditions preconditions,
                                                                   storage::ValidateDeletion validate)
{
    return m_inner->remove(std::move(key), std::move(preconditions), std::move(validate));
}

QCoro::Task<model::Result<storage::ListResult>> WatchHub::list(std::string prefix, storage::ListOptions options)
{
    return m_inner->list(std::move(prefix), std::move(options));
}

QCoro::Task<model::Result<storage::UpdateResult>> WatchHub::guaranteedUpdate(std::string key,
                                                                             storage::Preconditions preconditions,
                                                                             storage::TryUpdate tryUpdate,
                                                                             ObjectPtr suggestion, bool ignoreNotFound)
{
    return m_inner->guaranteedUpdate(std::move(key), std::move(preconditions), std::move(tryUpdate),
                                     std::move(suggestion), ignoreNotFound);
}

QCoro::Task<model::Result<Revision>> WatchHub::compact(Revision revision)
{
    return m_inner->compact(revision);
}

QCoro::Task<model::Result<Revision>> WatchHub::progressRevision()
{
    // The hub hands every upstream event on as it arrives: the inner storage's progress is its own.
    return m_inner->progressRevision();
}

bool WatchHub::shared() const
{
    return m_inner->shared();
}

bool WatchHub::committedHere(Revision revision) const
{
    return m_inner->committedHere(revision);
}

QCoro::Task<model::Result<Revision>> WatchHub::currentRevision()
{
    return m_inner->currentRevision();
}

} // namespace rvscope::watch
