// SPDX-License-Identifier: MIT
// EtcdStorage's shared state: key mapping, the watch feed (one etcd watch on the whole
// prefix), writes waiting for their events, and the backfill of history from before the
// feed started. Delivery to history.watchers is in EtcdStorageWatch.cpp.
#include <algorithm>

#include <QtCore/QDebug>
#include <QtCore/QTimer>

#include "model/StatusErrors.h"
#include "storage/StorageErrors.h"
#include "storage/etcd/EtcdState_p.h"

namespace rvscope::storage {
namespace {
constexpr const char *REGISTRY = "/registry";
constexpr std::size_t REGISTRY_LENGTH = 9;

bool hasPrefix(const std::string &key, const std::string &prefix)
{
    return key.compare(0, prefix.size(), prefix) == 0;
}

// A broken feed is reopened on the next member after this pause.
constexpr std::chrono::milliseconds FEED_RECONNECT_DELAY{200};
} // namespace

ObjectPtr restamp(const model::Object &object, Revision revision)
{
    model::Object copy = object;
    copy.setResourceVersion(std::to_string(revision));
    copy.bytes(); // publish with the encoding computed: shared objects are never mutated
    return std::make_shared<const model::Object>(std::move(copy));
}

model::Result<ObjectPtr> decodeAt(const etcd::pb::KeyValue &kv, Revision revision)
{
    auto parsed = model::Object::parse(kv.value());
    if (!parsed) {
        return model::Status::internalError("the value of etcd key " + kv.key()
                                            + " is not a JSON object written by rvscope");
    }
    model::Object object = std::move(parsed).value();
    object.setResourceVersion(std::to_string(revision));
    object.bytes();
    return ObjectPtr(std::make_shared<const model::Object>(std::move(object)));
}

EtcdState::EtcdState(EtcdStorage::Options options)
    : client([&options]() {
        etcd::EtcdClient::Options clientOptions;
        clientOptions.endpoints = options.endpoints;
        clientOptions.requestTimeout = options.requestTimeout;
        return clientOptions;
    }())
    , prefix([&options]() {
        std::string p = options.prefix;
        while (!p.empty() && p.back() == '/')
            p.pop_back();
        return p;
    }())
    , feedWaitTimeout(options.feedWaitTimeout)
    , historyLimit(std::max<std::size_t>(options.historyLimit, 1))
    , m_context(std::make_unique<QObject>())
{
}

EtcdState::~EtcdState()
{
    shutdown();
}

std::string EtcdState::toEtcd(const std::string &key) const
{
    if (key.compare(0, REGISTRY_LENGTH, REGISTRY) == 0)
        return prefix + key.substr(REGISTRY_LENGTH);
    return prefix + key;
}

std::string EtcdState::fromEtcd(const std::string &etcdKey) const
{
    return REGISTRY + etcdKey.substr(std::min(prefix.size(), etcdKey.size()));
}

std::string EtcdState::rangeEnd(std::string etcdPrefix)
{
    // The smallest key greater than every key with this prefix: drop trailing 0xff bytes and
    // increment the last one ("\0" means "to the end of the keyspace").
    while (!etcdPrefix.empty() && static_cast<unsigned char>(etcdPrefix.back()) == 0xff)
        etcdPrefix.pop_back();
    if (etcdPrefix.empty())
        return std::string(1, '\0');
    etcdPrefix.back() = static_cast<char>(static_cast<unsigned char>(etcdPrefix.back()) + 1);
    return etcdPrefix;
}

// ---- the feed ------------------------------------------------------------------------------

void EtcdState::startFeed()
{
    openFeedStream(0);
}

void EtcdState::openFeedStream(Revision startRevision)
{
    const std::uint64_t generation = ++m_feedGeneration;
    std::weak_ptr<EtcdState> weak = weak_from_this();
    m_feedEndpoint = client.currentEndpoint();
    m_feed = client.openWatch(
        [weak, generation](etcd::pb::WatchResponse response) {
            if (auto state = weak.lock())
                state->handleFeedResponse(generation, std::move(response));
        },
        [weak, generation](grpc::Status status) {
            if (auto state = weak.lock())
                state->handleFeedClosed(generation, status);
        });
    etcd::pb::WatchRequest request;
    auto *create = request.mutable_create_request();
    create->set_key(prefix + "/");
    create->set_range_end(rangeEnd(prefix + "/"));
    create->set_start_revision(startRevision);
    create->set_prev_kv(true);
    // etcd then tells a synced feed, every --experimental-watch-progress-notify-interval
    // (10 min by default), how far it got even when nothing under the prefix changed: the
    // revision bookmarks carry moves on with the cluster's while this prefix is quiet.
    create->set_progress_notify(true);
    m_feed->send(std::move(request));
}

void EtcdState::shutdown()
{
    if (closed)
        return;
    closed = true;
    ++m_feedGeneration;
    if (m_feed)
        m_feed->cancel();
    m_feed.reset();
    releaseWaiters(true);
}

namespace {
// An etcd event as a storage event: PUT of a new key is Added (create_revision ==
// mod_revision), other PUTs Modified; DELETE carries the last state re-stamped with the
// deletion's revision, as MemoryStorage and the apiserver send it.
std::optional<WatchEvent> toWatchEvent(const etcd::pb::Event &event, std::string key)
{
    WatchEvent out;
    out.key = std::move(key);
    out.revision = event.kv().mod_revision();
    if (event.has_prev_kv()) {
        auto previous = decodeAt(event.prev_kv(), event.prev_kv().mod_revision());
        if (previous)
            out.previous = std::move(previous).value();
    }
    if (event.type() == etcd::pb::Event::DELETE) {
        out.type = WatchEventType::Deleted;
        if (!out.previous) {
            qWarning("rvscope: etcd deleted %s without its previous value; the event is skipped",
                     event.kv().key().c_str());
            return std::nullopt;
        }
        out.object = restamp(*out.previous, out.revision);
        return out;
    }
    auto object = decodeAt(event.kv(), out.revision);
    if (!object) {
        qWarning("rvscope: %s", object.error().message.c_str());
        return std::nullopt;
    }
    out.object = std::move(object).value();
    out.type = event.kv().create_revision() == event.kv().mod_revision() ? WatchEventType::Added
                                                                          : WatchEventType::Modified;
    return out;
}
} // namespace

void EtcdState::handleFeedResponse(std::uint64_t generation, etcd::pb::WatchResponse response)
{
    if (generation != m_feedGeneration || closed)
        return;
    if (response.created())
        m_feedFailures = 0;
    if (response.created() && !feedCreated) {
        feedCreated = true;
        feedRevision = response.header().revision();
        history.oldestRetained = feedRevision + 1;
        m_countAtStart.reset();
        m_countDelta = 0;
        countObjects(weak_from_this(), feedRevision, generation);
    }
    if (response.canceled()) {
        if (response.compact_revision() > 0) {
            // The feed was down while etcd compacted past it: events are lost for good, and
            // every watcher must relist (410), as a client of etcd itself would.
            failAllWatchers(errors::watchTooOld(feedRevision, response.compact_revision() - 1));
            history.base += history.events.size();
            history.events.clear();
            newestEvent.clear();
            feedCreated = false;
            feedRevision = 0;
            compacted = std::max(compacted, response.compact_revision());
            if (m_feed)
                m_feed->cancel();
            ++m_feedGeneration;
            openFeedStream(0);
            releaseWaiters(true);
            return;
        }
        if (m_feed)
            m_feed->cancel(); // reopened from handleFeedClosed
        return;
    }
    if (response.events_size() == 0 && !response.created() && feedCreated) {
        // A progress notification: every event under the prefix up to this revision was sent
        // already (etcd notifies only history.watchers that are synced; the progress_request of 3.4
        // gives no such promise, so it is not used).
        if (response.header().revision() > feedRevision) {
            feedRevision = response.header().revision();
            releaseWaiters(false); // a read waiting for this revision has it now
        }
        return;
    }
    for (const auto &event : response.events()) {
        const Revision revision = event.kv().mod_revision();
        // A resumed feed never repeats a revision we have; a Txn's several events share one.
        if (revision < feedRevision
            || (revision == feedRevision && (history.events.empty() || history.events.back().revision != revision)))
            continue;
        if (auto converted = toWatchEvent(event, fromEtcd(event.kv().key()))) {
            if (converted->type == WatchEventType::Added)
                ++m_countDelta;
            else if (converted->type == WatchEventType::Deleted)
                --m_countDelta;
            newestEvent[converted->key] = history.base + history.events.size();
            history.events.push_back(std::move(*converted));
        }
        feedRevision = std::max(feedRevision, revision);
    }
    pump();
    trimHistory();
    releaseWaiters(false);
}

QCoro::Task<> EtcdState::countObjects(std::weak_ptr<EtcdState> weak, Revision revision, std::uint64_t generation)
{
    auto state = weak.lock();
    if (!state)
        co_return;
    etcd::pb::RangeRequest request;
    request.set_key(state->prefix + "/");
    request.set_range_end(rangeEnd(state->prefix + "/"));
    request.set_revision(revision);
    request.set_count_only(true);
    auto reply = co_await state->client.range(std::move(request));
    if (reply.ok() && generation == state->m_feedGeneration && state->feedCreated)
        state->m_countAtStart = reply.response.count();
}

void EtcdState::handleFeedClosed(std::uint64_t generation, const grpc::Status &status)
{
    if (generation != m_feedGeneration || closed)
        return;
    ++m_feedFailures;
    // Before the feed ever worked, ready() and watch() fail once every member was tried.
    if (!feedCreated && !feedError && m_feedFailures >= client.endpoints().size()) {
        model::Status error;
        error.code = 500;
        error.message = "etcd is unavailable at " + client.endpoints()[m_feedEndpoint] + ": "
            + status.error_message();
        feedError = error;
    }
    client.failover(m_feedEndpoint);
    releaseWaiters(false);
    // Resume where the feed stopped: etcd keeps the history (until compacted), so history.watchers
    // see no gap. Before the first creation, start at the current revision.
    const Revision resumeFrom = feedCreated ? feedRevision + 1 : 0;
    const std::uint64_t expected = ++m_feedGeneration;
    std::weak_ptr<EtcdState> weak = weak_from_this();
    // The next member at once; after a whole round without success, pause between tries.
    const auto delay = m_feedFailures % client.endpoints().size() == 0 ? FEED_RECONNECT_DELAY
                                                                         : std::chrono::milliseconds(0);
    QTimer::singleShot(delay, m_context.get(), [weak, expected, resumeFrom]() {
        auto state = weak.lock();
        if (!state || state->closed || state->m_feedGeneration != expected)
            return;
        state->openFeedStream(resumeFrom);
    });
}

void EtcdState::failAllWatchers(const model::Status &status)
{
    WatchEvent error;
    error.type = WatchEventType::Error;
    error.revision = feedRevision;
    error.error = status;
    history.failAll(error);
}

// ---- writes waiting for their events -------------------------------------------------------

bool EtcdState::reached(Revision revision) const
{
    if (closed)
        return true;
    if (revision < 0)
        return feedCreated || feedError.has_value();
    return feedCreated && feedRevision >= revision;
}

void EtcdState::addWaiter(Revision revision, std::coroutine_handle<> handle)
{
    m_waiters.push_back(Waiter{revision, handle, std::chrono::steady_clock::now() + feedWaitTimeout});
    if (!m_waiterDeadline) {
        m_waiterDeadline = new QTimer(m_context.get());
        m_waiterDeadline->setSingleShot(true);
        m_waiterDeadline->setTimerType(Qt::PreciseTimer); // (a coarse one may fire early: an idle pass)
        QObject::connect(m_waiterDeadline, &QTimer::timeout, m_context.get(), [this] { expireWaiters(); });
    }
    if (!m_waiterDeadline->isActive())
        m_waiterDeadline->start(feedWaitTimeout);
}

void EtcdState::expireWaiters()
{
    // Taken out first: a resumed coroutine may start new waits.
    const auto now = std::chrono::steady_clock::now();
    const auto expired = std::find_if(m_waiters.begin(), m_waiters.end(),
                                      [now](const Waiter &waiter) { return waiter.deadline > now; });
    std::vector<std::coroutine_handle<>> ready;
    for (auto it = m_waiters.begin(); it != expired; ++it)
        ready.push_back(it->handle);
    m_waiters.erase(m_waiters.begin(), expired);
    if (!m_waiters.empty()) {
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(m_waiters.front().deadline - now);
        m_waiterDeadline->start(wait);
    }
    for (std::coroutine_handle<> handle : ready)
        handle.resume();
}

void EtcdState::releaseWaiters(bool all)
{
    // Taken out first: a resumed coroutine may start new waits.
    std::vector<std::coroutine_handle<>> ready;
    std::erase_if(m_waiters, [&](const Waiter &waiter) {
        if (all || reached(waiter.revision)) {
            ready.push_back(waiter.handle);
            return true;
        }
        return false;
    });
    for (auto handle : ready)
        handle.resume();
}

// ---- backfill: history from before the feed started -------------------------------------------

namespace {
struct Backfill {
    std::vector<WatchEvent> events;
    std::optional<model::Status> error;
    bool done = false;
    std::coroutine_handle<> waiter;
    std::shared_ptr<etcd::WatchStream> stream;

    void finish()
    {
        if (done)
            return;
        done = true;
        if (stream)
            stream->cancel();
        if (auto handle = std::exchange(waiter, {}))
            handle.resume();
    }
};

struct BackfillAwaiter {
    std::shared_ptr<Backfill> backfill;
    bool await_ready() const { return backfill->done; }
    void await_suspend(std::coroutine_handle<> handle) { backfill->waiter = handle; }
    void await_resume() const noexcept {}
};
} // namespace

// A watch resuming from before this storage's feed started (a client that read from another
// instance, or before a restart) needs etcd's history.events. One etcd watch over the whole keyspace
// from `from`+1: every revision has at least one event there, so the first event at or past
// the feed's start revision says the gap is complete, which a watch on our prefix alone could
// never tell. Events of other prefixes are dropped.
QCoro::Task<std::optional<model::Status>> EtcdState::backfill(Revision from)
{
    std::shared_ptr<EtcdState> self = shared_from_this();
    const Revision until = history.oldestRetained - 1; // the feed has every event after this
    auto fill = std::make_shared<Backfill>();
    const std::string ourPrefix = prefix + "/";
    std::weak_ptr<EtcdState> weak = self;
    fill->stream = client.openWatch(
        [fill, weak, from, until, ourPrefix](etcd::pb::WatchResponse response) {
            auto state = weak.lock();
            if (!state || fill->done)
                return;
            if (response.compact_revision() > 0) {
                fill->error = errors::watchTooOld(from, response.compact_revision() - 1);
                fill->finish();
                return;
            }
            if (response.canceled()) {
                fill->error = model::Status::internalError("etcd canceled the watch: " + response.cancel_reason());
                fill->finish();
                return;
            }
            for (const auto &event : response.events()) {
                const Revision revision = event.kv().mod_revision();
                if (revision > until) {
                    fill->finish();
                    return;
                }
                if (hasPrefix(event.kv().key(), ourPrefix)) {
                    if (auto converted = toWatchEvent(event, state->fromEtcd(event.kv().key())))
                        fill->events.push_back(std::move(*converted));
                }
                if (revision == until) {
                    fill->finish();
                    return;
                }
            }
        },
        [fill](grpc::Status status) {
            if (!fill->done) {
                model::Status error;
                error.code = 500;
                error.message = "etcd watch failed: " + status.error_message();
                fill->error = error;
                fill->finish();
            }
        });
    etcd::pb::WatchRequest request;
    auto *create = request.mutable_create_request();
    create->set_key(std::string(1, '\0'));
    create->set_range_end(std::string(1, '\0'));
    create->set_start_revision(from + 1);
    create->set_prev_kv(true);
    fill->stream->send(std::move(request));
    QTimer::singleShot(client.requestTimeout(), m_context.get(), [fill]() {
        if (!fill->done) {
            model::Status error;
            error.code = 504;
            error.reason = "Timeout";
            error.message = "etcd did not send the history after the requested resourceVersion in time";
            fill->error = error;
            fill->finish();
        }
    });
    BackfillAwaiter awaiter{fill};
    co_await awaiter;
    if (fill->error)
        co_return std::optional<model::Status>(*fill->error);
    // Prepend what history does not have yet (a concurrent backfill may have been first).
    const Revision oldestHeld = self->history.events.empty() ? self->feedRevision + 1 : self->history.events.front().revision;
    for (auto it = fill->events.rbegin(); it != fill->events.rend(); ++it) {
        if (it->revision <= from || it->revision >= oldestHeld)
            continue;
        self->history.events.push_front(std::move(*it));
        --self->history.base;
    }
    if (self->history.oldestRetained - 1 == until)
        self->history.oldestRetained = std::max(from + 1, self->compacted);
    co_return std::nullopt;
}

} // namespace rvscope::storage
