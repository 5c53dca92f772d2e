// SPDX-License-Identifier: MIT
#include "storage/etcd/EtcdStorage.h"

#include "model/StatusErrors.h"
#include "storage/StorageErrors.h"
#include "storage/etcd/EtcdState_p.h"

namespace rvscope::storage {
namespace {

// What etcd refused, as the apiserver answers it. kube-apiserver passes etcd's errors up
// unchanged ("etcdserver: request is too large", "etcdserver: mvcc: database space exceeded",
// "etcdserver: request timed out", ...), and k8s.io/apiserver's
// endpoints/handlers/responsewriters.ErrorToAPIStatus turns an error that is not an
// APIStatus into a 500 Failure with reason Unknown (empty) and the error's text as its
// message; kubectl then prints "Error from server: etcdserver: request is too large".
// (Compacted and future revisions are mapped by the callers to 410 and 504, as the etcd3
// store does.)
model::Status etcdError(const grpc::Status &status)
{
    model::Status error;
    error.code = 500;
    error.message = status.error_message();
    if (error.message.empty())
        error.message = "etcd call failed with gRPC code " + std::to_string(static_cast<int>(status.error_code()));
    return error;
}

struct Origin {
    ObjectPtr object;
    Revision modRevision = 0;
};

model::Result<Origin> originOf(const etcd::pb::KeyValue *kv)
{
    if (!kv)
        return Origin{};
    auto object = decodeAt(*kv, kv->mod_revision());
    if (!object)
        return std::move(object).error();
    return Origin{std::move(object).value(), kv->mod_revision()};
}

// `serializable`: served by the member from its own state, without a Raft round (may be
// stale on a follower). Callers treat such a read like a cached suggestion: good enough to
// start a compare-and-swap on, re-read linearizably before any verdict drawn from it.
QCoro::Task<model::Result<Origin>> readOrigin(std::shared_ptr<EtcdState> state, std::string etcdKey,
                                              bool serializable = false)
{
    etcd::pb::RangeRequest request;
    request.set_key(etcdKey);
    request.set_serializable(serializable);
    auto reply = co_await state->client.range(std::move(request));
    if (!reply.ok())
        co_return etcdError(reply.status);
    const auto &kvs = reply.response.kvs();
    co_return originOf(kvs.empty() ? nullptr : &kvs[0]);
}

// The result of one compare-and-swap on a key's mod_revision.
struct CasOutcome {
    enum class Kind { Committed, Conflict, Failed };
    Kind kind = Kind::Failed;
    Revision revision = 0;                  // Committed: the write's revision
    std::optional<etcd::pb::KeyValue> current; // Conflict: the key now (none: absent)
    model::Status error;                    // Failed
};

// Txn(If mod_revision(key) == expected Then Put(key, value) | DeleteRange(key) Else Range(key)),
// the apiserver's OptimisticPut/OptimisticDelete. A Txn whose outcome is unknown (the
// connection failed after it may have been sent) is never resent blindly: the key is re-read
// (Range is idempotent and fails over) and compared. Still at `expected`: not applied, send it
// again (to the next member). Holding our value at a newer revision: it was applied. Anything
// else: someone else wrote, a conflict like any other. (The apiserver reports such a write as
// failed, although it may have landed.)
QCoro::Task<CasOutcome> compareAndSwap(std::shared_ptr<EtcdState> state, std::string etcdKey, Revision expected,
                                       std::optional<std::string> value)
{
    CasOutcome outcome;
    for (int attempt = 0;; ++attempt) {
        etcd::pb::TxnRequest txn;
        auto *compare = txn.add_compare();
        compare->set_result(etcd::pb::Compare::EQUAL);
        compare->set_target(etcd::pb::Compare::MOD);
        compare->set_key(etcdKey);
        compare->set_mod_revision(expected);
        if (value) {
            auto *put = txn.add_success()->mutable_request_put();
            put->set_key(etcdKey);
            put->set_value(*value);
        } else {
            txn.add_success()->mutable_request_delete_range()->set_key(etcdKey);
        }
        txn.add_failure()->mutable_request_range()->set_key(etcdKey);

        auto reply = co_await state->client.txn(std::move(txn));
        if (reply.ok()) {
            if (reply.response.succeeded()) {
                outcome.kind = CasOutcome::Kind::Committed;
                outcome.revision = reply.response.header().revision();
                co_return outcome;
            }
            outcome.kind = CasOutcome::Kind::Conflict;
            if (reply.response.responses_size() > 0) {
                const auto &kvs = reply.response.responses(0).response_range().kvs();
                if (!kvs.empty())
                    outcome.current = kvs[0];
            }
            // Sent again after an unknown outcome, and the key holds our value: the first
            // Txn was applied after all, later than the re-read looked.
            if (attempt > 0 && value && outcome.current && outcome.current->value() == *value) {
                outcome.kind = CasOutcome::Kind::Committed;
                outcome.revision = outcome.current->mod_revision();
                outcome.current.reset();
            }
            co_return outcome;
        }
        if (!reply.unknownOutcome || attempt >= 3) {
            outcome.error = etcdError(reply.status);
            co_return outcome;
        }

        etcd::pb::RangeRequest read;
        read.set_key(etcdKey);
        auto now = co_await state->client.range(std::move(read));
        if (!now.ok()) {
            outcome.error = etcdError(now.status);
            co_return outcome;
        }
        const auto &kvs = now.response.kvs();
        const etcd::pb::KeyValue *kv = kvs.empty() ? nullptr : &kvs[0];
        const Revision currentMod = kv ? kv->mod_revision() : 0;
        if (currentMod == expected && (expected != 0 || !kv))
            continue; // not applied: send it again
        if (value && kv && kv->value() == *value) {
            outcome.kind = CasOutcome::Kind::Committed;
            outcome.revision = kv->mod_revision();
            co_return outcome;
        }
        if (!value && !kv) {
            // Gone: ours or another deletion; the exact revision is not knowable any more.
            outcome.kind = CasOutcome::Kind::Committed;
            outcome.revision = now.response.header().revision();
            co_return outcome;
        }
        outcome.kind = CasOutcome::Kind::Conflict;
        if (kv)
            outcome.current = *kv;
        co_return outcome;
    }
}

// The object to write: without resourceVersion, as the apiserver stores it.
std::string storedBytes(model::Object &object)
{
    object.setResourceVersion(std::string());
    return object.bytes();
}

} // namespace

EtcdStorage::EtcdStorage(Options options)
    : m_state(std::make_shared<EtcdState>(std::move(options)))
{
    m_state->startFeed();
}

EtcdStorage::~EtcdStorage()
{
    m_state->shutdown();
}

QCoro::Task<model::Result<Revision>> EtcdStorage::ready()
{
    std::shared_ptr<EtcdState> state = m_state;
    co_await state->waitFor(-1);
    if (state->feedCreated)
        co_return Revision(state->feedRevision);
    if (state->feedError)
        co_return model::Status(*state->feedError);
    if (!state->closed) // the wait ended at feedWaitTimeout: connected, and nothing came back
        co_return model::Status::internalError("etcd did not start a watch within "
                                               + std::to_string(state->feedWaitTimeout.count()) + " ms");
    co_return model::Status::internalError("the etcd storage was shut down");
}

const std::string &EtcdStorage::prefix() const
{
    return m_state->prefix;
}

std::vector<std::string> EtcdStorage::endpoints() const
{
    return m_state->client.endpoints();
}

QCoro::Task<model::Result<ObjectPtr>> EtcdStorage::get(std::string key)
{
    std::shared_ptr<EtcdState> state = m_state;
    auto origin = co_await readOrigin(state, state->toEtcd(key));
    if (!origin)
        co_return std::move(origin).error();
    if (!origin->object)
        co_return errors::keyNotFound(key);
    co_return ObjectPtr(origin->object);
}

QCoro::Task<model::Result<ObjectPtr>> EtcdStorage::create(std::string key, model::Object object)
{
    if (!object.resourceVersion().empty())
        co_return model::Status::internalError("resourceVersion should not be set on objects to be created");
    std::shared_ptr<EtcdState> state = m_state;
    std::string value = storedBytes(object);
    auto outcome = co_await compareAndSwap(state, state->toEtcd(key), 0, std::move(value));
    switch (outcome.kind) {
    case CasOutcome::Kind::Committed: {
        ObjectPtr stored = restamp(object, outcome.revision);
        state->noteLocalCommit(outcome.revision);
        co_await state->waitFor(outcome.revision);
        co_return stored;
    }
    case CasOutcome::Kind::Conflict:
        co_return errors::keyExists(key);
    case CasOutcome::Kind::Failed:
        break;
    }
    co_return std::move(outcome.error);
}

QCoro::Task<model::Result<RemoveResult>> EtcdStorage::remove(std::string key, Preconditions preconditions,
                                                             ValidateDeletion validate)
{
    std::shared_ptr<EtcdState> state = m_state;
    const std::string etcdKey = state->toEtcd(key);
    auto read = co_await readOrigin(state, etcdKey, true);
    if (!read)
        co_return std::move(read).error();
    Origin origin = std::move(read).value();
    bool originIsCurrent = false;
    RemoveResult result;
    for (;;) {
        std::optional<model::Status> refused;
        if (!origin.object)
            refused = errors::keyNotFound(key);
        else if (auto failed = preconditions.check(key, *origin.object))
            refused = std::move(failed);
        else if (validate)
            refused = validate(*origin.object);
        if (refused) {
            if (originIsCurrent)
                co_return std::move(*refused);
            auto fresh = co_await readOrigin(state, etcdKey);
            if (!fresh)
                co_return std::move(fresh).error();
            origin = std::move(fresh).value();
            originIsCurrent = true;
            continue;
        }
        auto outcome = co_await compareAndSwap(state, etcdKey, origin.modRevision, std::nullopt);
        if (outcome.kind == CasOutcome::Kind::Failed)
            co_return std::move(outcome.error);
        if (outcome.kind == CasOutcome::Kind::Conflict) {
            auto next = originOf(outcome.current ? &*outcome.current : nullptr);
            if (!next)
                co_return std::move(next).error();
            origin = std::move(next).value();
            originIsCurrent = true;
            ++result.retries;
            continue;
        }
        result.object = origin.object;
        result.revision = outcome.revision;
        state->noteLocalCommit(outcome.revision);
        co_await state->waitFor(outcome.revision);
        co_return result;
    }
}

QCoro::Task<model::Result<ListResult>> EtcdStorage::list(std::string listPrefix, ListOptions options)
{
    std::shared_ptr<EtcdState> state = m_state;
    const std::string etcdPrefix = state->toEtcd(listPrefix);
    const std::string end = EtcdState::rangeEnd(etcdPrefix);
    std::string from = options.startKey > listPrefix ? state->toEtcd(options.startKey) : etcdPrefix;
    Revision at = options.revision;
    // With a predicate, items that do not match do not count: read in larger pages.
    const std::int64_t pageSize = options.limit <= 0 ? 0
        : options.predicate                        ? std::max<std::int64_t>(options.limit, 256)
                                                    : options.limit;
    ListResult result;
    std::string lastExamined;
    bool full = false;
    for (;;) {
        etcd::pb::RangeRequest request;
        request.set_key(from);
        request.set_range_end(end);
        request.set_revision(at);
        request.set_limit(pageSize);
        auto reply = co_await state->client.range(std::move(request));
        if (!reply.ok()) {
            if (etcd::isCompacted(reply.status))
                co_return errors::listTooOld();
            if (etcd::isFutureRevision(reply.status)) {
                auto current = co_await currentRevision();
                if (!current)
                    co_return std::move(current).error();
                co_return model::errors::tooLargeResourceVersion(at, *current);
            }
            co_return etcdError(reply.status);
        }
        if (at == 0)
            at = reply.response.header().revision();
        const auto &kvs = reply.response.kvs();
        int examined = 0;
        for (const auto &kv : kvs) {
            if (options.limit > 0 && static_cast<std::int64_t>(result.items.size()) >= options.limit) {
                full = true;
                break;
            }
            ++examined;
            lastExamined = kv.key();
            auto object = decodeAt(kv, kv.mod_revision());
            if (!object)
                co_return std::move(object).error();
            if (!options.predicate || options.predicate(**object)) {
                result.items.push_back(std::move(object).value());
                if (options.withKeys)
                    result.keys.push_back(state->fromEtcd(kv.key()));
            }
        }
        const bool more = full || examined < kvs.size() || reply.response.more();
        if (!more)
            break;
        if (full || (options.limit > 0 && static_cast<std::int64_t>(result.items.size()) >= options.limit)) {
            // Restart strictly after the last key examined, whatever the next key will be.
            result.continueKey = state->fromEtcd(lastExamined) + '\0';
            if (!options.predicate)
                result.remainingItemCount = reply.response.count() - examined;
            break;
        }
        from = lastExamined + '\0';
    }
    result.revision = at;
    co_return result;
}

QCoro::Task<model::Result<UpdateResult>> EtcdStorage::guaranteedUpdate(std::string key, Preconditions preconditions,
                                                                       TryUpdate tryUpdate, ObjectPtr suggestion,
                                                                       bool ignoreNotFound)
{
    // The frame keeps the state alive: the storage object may go away while tryUpdate waits.
    std::shared_ptr<EtcdState> state = m_state;
    const std::string etcdKey = state->toEtcd(key);

    Origin origin;
    bool originIsCurrent = true;
    if (!suggestion)
        suggestion = state->latestKnown(key); // the feed's copy saves a read; the CAS checks it
    if (suggestion) {
        origin = {suggestion, model::parseResourceVersion(suggestion->resourceVersion()).value_or(-1)};
        originIsCurrent = false;
    } else {
        auto read = co_await readOrigin(state, etcdKey, true);
        if (!read)
            co_return std::move(read).error();
        origin = std::move(read).value();
        originIsCurrent = false;
    }

    UpdateResult result;
    for (;;) {
        bool reread = false;
        if (!origin.object && !ignoreNotFound) {
            if (originIsCurrent)
                co_return errors::keyNotFound(key);
            reread = true;
        } else if (origin.object) {
            if (auto failed = preconditions.check(key, *origin.object)) {
                if (originIsCurrent)
                    co_return *failed;
                reread = true;
            }
        }
        std::optional<model::Object> next;
        if (!reread) {
            model::Result<model::Object> updated = co_await tryUpdate(origin.object);
            if (!updated) {
                // The error may stem from stale data; only a verdict on fresh data is final.
                if (originIsCurrent)
                    co_return std::move(updated).error();
                reread = true;
            } else {
                next = std::move(updated).value();
            }
        }
        if (next && origin.object) {
            // Same tree, same bytes: nothing to write (the apiserver's no-op update), unless
            // the comparison was against a stale copy.
            next->setResourceVersion(origin.object->resourceVersion());
            if (next->json() == origin.object->json()) {
                if (originIsCurrent) {
                    result.object = origin.object;
                    result.noop = true;
                    co_return result;
                }
                reread = true;
            }
        }
        if (reread) {
            auto read = co_await readOrigin(state, etcdKey);
            if (!read)
                co_return std::move(read).error();
            origin = std::move(read).value();
            originIsCurrent = true;
            continue;
        }

        std::string value = storedBytes(*next);
        auto outcome = co_await compareAndSwap(state, etcdKey, origin.modRevision, std::move(value));
        if (outcome.kind == CasOutcome::Kind::Failed)
            co_return std::move(outcome.error);
        if (outcome.kind == CasOutcome::Kind::Conflict) {
            // The Else branch's value is the next attempt's current object: no extra read.
            auto fresh = originOf(outcome.current ? &*outcome.current : nullptr);
            if (!fresh)
                co_return std::move(fresh).error();
            origin = std::move(fresh).value();
            originIsCurrent = true;
            ++result.retries;
            continue;
        }
        result.object = restamp(*next, outcome.revision);
        result.created = !origin.object;
        state->noteLocalCommit(outcome.revision);
        co_await state->waitFor(outcome.revision);
        co_return result;
    }
}

QCoro::Task<model::Result<Revision>> EtcdStorage::compact(Revision revision)
{
    std::shared_ptr<EtcdState> state = m_state;
    etcd::pb::CompactionRequest request;
    request.set_revision(revision);
    auto reply = co_await state->client.compact(std::move(request));
    if (!reply.ok() && !etcd::isCompacted(reply.status)) {
        if (etcd::isFutureRevision(reply.status)) {
            auto current = co_await currentRevision();
            if (!current)
                co_return std::move(current).error();
            co_return model::errors::tooLargeResourceVersion(revision, *current);
        }
        co_return etcdError(reply.status);
    }
    // Compacted already (by us or another instance): at least this far.
    state->forgetBefore(revision);
    co_return Revision(state->compacted);
}

QCoro::Task<model::Result<Revision>> EtcdStorage::progressRevision()
{
    co_return Revision(m_state->feedRevision);
}

QCoro::Task<model::Result<Revision>> EtcdStorage::currentRevision()
{
    std::shared_ptr<EtcdState> state = m_state;
    etcd::pb::RangeRequest request;
    request.set_key(state->prefix + "/");
    request.set_range_end(EtcdState::rangeEnd(request.key()));
    request.set_count_only(true);
    auto reply = co_await state->client.range(std::move(request));
    if (!reply.ok())
        co_return etcdError(reply.status);
    co_return Revision(reply.response.header().revision());
}

} // namespace rvscope::storage
