// SPDX-License-Identifier: MIT
#include "sim/CompetingClient.h"

#include <charconv>

#include "model/JsonAccess.h"
#include "sim/Clock.h"

namespace rvscope::sim {
namespace {

enum AttemptKind { ConditionalPut, BlindPut, MergePatch, MergePatchRv, JsonPatchTest, Apply, ApplyForce, ApplyRv };

const std::string MERGE_PATCH = "application/merge-patch+json";
const std::string JSON_PATCH = "application/json-patch+json";
constexpr int CONFLICT = 409;
constexpr int INVALID = 422;

std::int64_t counterOf(const nlohmann::json &object)
{
    const std::string text = model::stringOr(model::memberAt(object, "data", "counter"), "0");
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

std::string leaseName(const ObjectRef &ref)
{
    return ref.name + "-lock";
}

} // namespace

CompetingClient::CompetingClient(std::shared_ptr<Transport> transport, std::shared_ptr<Clock> clock,
                                 std::string clientId, ClientSpec spec, std::uint64_t seed)
    : m_client(std::move(transport), clientId, strategyName(spec.strategy))
    , m_clock(std::move(clock))
    , m_spec(std::move(spec))
    , m_random(seed)
{
    m_counters.clientId = std::move(clientId);
    m_counters.strategy = strategyName(m_spec.strategy);
}

QCoro::Task<> CompetingClient::run()
{
    auto self = shared_from_this();
    const std::vector<std::string> keys = m_spec.objectKeys();
    for (int i = 0; i < m_spec.operations && !m_stopped && !keys.empty(); ++i) {
        const std::size_t pick = keys.size() == 1
            ? 0
            : std::uniform_int_distribution<std::size_t>(0, keys.size() - 1)(m_random);
        const auto ref = ObjectRef::parse(keys[pick]);
        const std::int64_t start = m_clock->nowNs();
        const bool landed = co_await increment(*ref);
        if (m_stopped)
            break;
        ++m_counters.operationsDone;
        if (landed)
            ++m_counters.succeeded;
        else
            ++m_counters.failed;
        m_counters.latenciesNs.push_back(m_clock->nowNs() - start);
        // Let the others move before the next operation (a client loop yields somewhere).
        const std::chrono::nanoseconds yield{0};
        co_await m_clock->sleep(yield);
    }
    m_counters.finished = true;
}

QCoro::Task<bool> CompetingClient::increment(ObjectRef ref)
{
    switch (m_spec.strategy) {
    case WriteStrategy::RawPut:
        co_return co_await attemptOnce(ConditionalPut, ref);
    case WriteStrategy::RetryDefault:
        co_return co_await retrying(Backoff::defaultRetry(), CONFLICT, ref, ConditionalPut);
    case WriteStrategy::RetryBackoff:
        co_return co_await retrying(Backoff::defaultBackoff(), CONFLICT, ref, ConditionalPut);
    case WriteStrategy::BlindPut:
        co_return co_await attemptOnce(BlindPut, ref);
    case WriteStrategy::MergePatch:
        co_return co_await attemptOnce(MergePatch, ref);
    case WriteStrategy::JsonPatchTest:
        co_return co_await retrying(Backoff::defaultRetry(), INVALID, ref, JsonPatchTest);
    case WriteStrategy::MergePatchRv:
        co_return co_await retrying(Backoff::defaultRetry(), CONFLICT, ref, MergePatchRv);
    case WriteStrategy::Lease:
        co_return co_await withLease(ref);
    case WriteStrategy::Apply:
        co_return co_await attemptOnce(Apply, ref);
    case WriteStrategy::ApplyForce:
        co_return co_await attemptOnce(ApplyForce, ref);
    case WriteStrategy::ApplyRv:
        co_return co_await retrying(Backoff::defaultRetry(), CONFLICT, ref, ApplyRv);
    }
    co_return false;
}

QCoro::Task<bool> CompetingClient::retrying(Backoff backoff, int retriableStatus, ObjectRef ref, int kind)
{
    // retry.OnError over wait.ExponentialBackoff: up to `steps` tries, a Step() sleep
    // between two tries, the last failure returned when the steps run out.
    while (backoff.steps > 0 && !m_stopped) {
        if (co_await attemptOnce(kind, ref))
            co_return true;
        if (m_lastStatus != retriableStatus || backoff.steps == 1)
            co_return false;
        ++m_counters.retries;
        const std::chrono::nanoseconds pause = backoff.step(m_random);
        co_await m_clock->sleep(pause);
    }
    co_return false;
}

QCoro::Task<bool> CompetingClient::attemptOnce(int kind, ObjectRef ref)
{
    m_lastStatus = 0;
    KubeResponse read = co_await m_client.get(ref);
    if (!read.ok()) {
        m_lastStatus = read.status;
        ++m_counters.errors;
        co_return false;
    }
    co_await think();
    if (m_stopped)
        co_return false;
    const std::int64_t value = counterOf(read.body);
    const std::string next = std::to_string(value + 1);
    KubeResponse written;
    switch (kind) {
    case ConditionalPut:
    case BlindPut: {
        nlohmann::json object = std::move(read.body);
        object["data"]["counter"] = next;
        if (kind == BlindPut)
            object["metadata"].erase("resourceVersion");
        written = co_await m_client.update(ref, std::move(object));
        break;
    }
    case MergePatch:
    case MergePatchRv: {
        nlohmann::json patch = {{"data", {{"counter", next}}}};
        if (kind == MergePatchRv)
            patch["metadata"] = {{"resourceVersion", read.resourceVersion()}};
        written = co_await m_client.patch(ref, MERGE_PATCH, std::move(patch));
        break;
    }
    case JsonPatchTest: {
        nlohmann::json patch = nlohmann::json::array();
        patch.push_back({{"op", "test"}, {"path", "/data/counter"}, {"value", std::to_string(value)}});
        patch.push_back({{"op", "replace"}, {"path", "/data/counter"}, {"value", next}});
        written = co_await m_client.patch(ref, JSON_PATCH, std::move(patch));
        break;
    }
    case Apply:
    case ApplyForce:
    case ApplyRv: {
        // An applier sends only the fields it has an opinion about: the counter.
        nlohmann::json configuration = {{"apiVersion", model::member(read.body, "apiVersion")},
                                        {"kind", model::member(read.body, "kind")},
                                        {"metadata", {{"name", ref.name}, {"namespace", ref.namespaceName}}},
                                        {"data", {{"counter", next}}}};
        if (kind == ApplyRv)
            configuration["metadata"]["resourceVersion"] = read.resourceVersion();
        written = co_await m_client.apply(ref, std::move(configuration), m_client.clientId(), kind != Apply);
        break;
    }
    default:
        co_return false;
    }
    countWrite(written);
    co_return written.ok();
}

QCoro::Task<bool> CompetingClient::withLease(ObjectRef ref)
{
    ObjectRef lease{"leases", ref.namespaceName, leaseName(ref)};
    const std::string holder = m_counters.clientId;
    // Acquire: create the Lease, or take it over by CAS when its holder released it.
    bool held = false;
    while (!held && !m_stopped) {
        KubeResponse current = co_await m_client.get(lease);
        if (current.status == 404) {
            nlohmann::json object = {{"apiVersion", "coordination.k8s.io/v1"},
                                     {"kind", "Lease"},
                                     {"metadata", {{"name", lease.name}, {"namespace", lease.namespaceName}}},
                                     {"spec", {{"holderIdentity", holder}, {"leaseDurationSeconds", 15}}}};
            KubeResponse created = co_await m_client.create(lease, std::move(object));
            countWrite(created);
            held = created.ok();
        } else if (current.ok() && model::stringOr(model::memberAt(current.body, "spec", "holderIdentity"), "").empty()) {
            nlohmann::json object = std::move(current.body);
            object["spec"]["holderIdentity"] = holder;
            KubeResponse taken = co_await m_client.update(lease, std::move(object));
            countWrite(taken);
            held = taken.ok();
        } else if (!current.ok()) {
            ++m_counters.errors;
            co_return false;
        }
        if (!held) {
            ++m_counters.retries;
            const std::chrono::nanoseconds poll = std::chrono::microseconds(
                std::uniform_int_distribution<int>(1000, 2000)(m_random));
            co_await m_clock->sleep(poll);
        }
    }
    if (!held)
        co_return false;
    const bool landed = co_await attemptOnce(ConditionalPut, ref);
    // Release: CAS the holder back to empty (the next waiter takes it over).
    while (!m_stopped) {
        KubeResponse current = co_await m_client.get(lease);
        if (!current.ok())
            break;
        nlohmann::json object = std::move(current.body);
        object["spec"]["holderIdentity"] = "";
        KubeResponse released = co_await m_client.update(lease, std::move(object));
        countWrite(released);
        if (released.status != CONFLICT)
            break;
    }
    co_return landed;
}

QCoro::Task<> CompetingClient::think()
{
    const auto delay = m_spec.thinkTime.draw(m_random);
    co_await m_clock->sleep(delay);
}

void CompetingClient::countWrite(const KubeResponse &response)
{
    ++m_counters.attempts;
    m_lastStatus = response.status;
    if (response.status == CONFLICT)
        ++m_counters.conflicts;
    else if (!response.ok())
        ++m_counters.errors;
}

} // namespace rvscope::sim
