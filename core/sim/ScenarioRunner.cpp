// SPDX-License-Identifier: MIT
#include "sim/ScenarioRunner.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "api/ApiHandler.h"
#include "api/Watcher.h"
#include "faults/FaultSet.h"
#include "fields/ManagedFields.h"
#include "history/Journal.h"
#include "history/LinearizabilityChecker.h"
#include "history/LostUpdateChecker.h"
#include "history/WatchGuaranteesChecker.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/SteadyClock.h"
#include "sim/Clock.h"
#include "sim/KubeClient.h"
#include "sim/NodeGraphFeeder.h"
#include "sim/Transport.h"
#include "sim/Workload.h"

namespace rvscope::sim {
namespace {

using Action = ScenarioStep::Action;


std::string contentTypeFor(const std::string &patchType)
{
    if (patchType == "json")
        return "application/json-patch+json";
    if (patchType == "strategic")
        return "application/strategic-merge-patch+json";
    return "application/merge-patch+json";
}

const char *httpVerb(Action action)
{
    switch (action) {
    case Action::Get:
    case Action::List:
    case Action::Watch:
        return "GET";
    case Action::Create:
        return "POST";
    case Action::Update:
        return "PUT";
    case Action::Patch:
        return "PATCH";
    case Action::Delete:
        return "DELETE";
    default:
        return "";
    }
}

// Sets a dotted path ("data.counter") in `object`; the value "+N" adds N to the number the
// field holds (as a JSON number or a decimal string, as ConfigMap data is).
void applySet(nlohmann::json &object, const nlohmann::json &set)
{
    for (const auto &[path, value] : set.items()) {
        nlohmann::json *node = &object;
        std::size_t begin = 0;
        while (true) {
            const std::size_t dot = path.find('.', begin);
            const std::string part = path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
            if (!node->is_object())
                *node = nlohmann::json::object();
            node = &(*node)[part];
            if (dot == std::string::npos)
                break;
            begin = dot + 1;
        }
        if (value.is_string() && value.get<std::string>().starts_with('+')) {
            const std::string delta = value.get<std::string>().substr(1);
            std::int64_t add = 0;
            std::from_chars(delta.data(), delta.data() + delta.size(), add);
            std::int64_t current = 0;
            if (node->is_number_integer())
                current = node->get<std::int64_t>();
            else if (node->is_string())
                current = std::atoll(node->get<std::string>().c_str());
            *node = node->is_number_integer() ? nlohmann::json(current + add) : nlohmann::json(std::to_string(current + add));
        } else {
            *node = value;
        }
    }
}

std::string formatMs(std::int64_t ns)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f ms", static_cast<double>(ns) / 1e6);
    return text;
}

} // namespace

struct ScenarioRunner::ClientState {
    std::map<std::string, nlohmann::json> lastRead; // key → object
    std::map<std::string, std::string> lastList;    // collection key → list resourceVersion
    int watches = 0;
};

struct ScenarioRunner::OpenWatch {
    std::shared_ptr<api::Watcher> stream;
};

std::function<model::Result<std::uint64_t>(const std::string &rule)> faultRulesOf(std::shared_ptr<api::ApiHandler> handler)
{
    std::weak_ptr<api::ApiHandler> weak = handler;
    return [weak](const std::string &rule) -> model::Result<std::uint64_t> {
        auto served = weak.lock();
        if (!served)
            return model::Status::internalError("the server is gone");
        if (rule == "clear") {
            served->faults().clear(faults::FaultSet::Origin::Scenario); // a person's rules stay
            return std::uint64_t(0);
        }
        return served->faults().add(rule, faults::FaultSet::Origin::Scenario);
    };
}

ScenarioRunner::ScenarioRunner(Scenario scenario, ScenarioContext context)
    : m_scenario(std::move(scenario))
    , m_context(std::move(context))
{
}

ScenarioRunner::~ScenarioRunner()
{
    stop();
}

ScenarioRunner::ClientState &ScenarioRunner::client(const std::string &name)
{
    auto &state = m_clients[name];
    if (!state)
        state = std::make_unique<ClientState>();
    return *state;
}

std::shared_ptr<Transport> ScenarioRunner::transportFor(const std::string &name)
{
    const ScenarioIdentity *identity = m_scenario.access ? m_scenario.access->identity(name) : nullptr;
    if (!identity || identity->anonymous())
        return m_context.transport;
    auto &transport = m_transports[name];
    if (!transport)
        transport = std::make_shared<BearerTokenTransport>(m_context.transport, identity->token);
    return transport;
}

QCoro::Task<> ScenarioRunner::setup()
{
    auto self = shared_from_this();
    KubeClient setupClient(transportFor("setup"), "setup", "");
    for (const nlohmann::json &object : m_scenario.objects) {
        const std::string kind = model::stringOr(model::member(object, "kind"), "");
        std::string resource = kind == "Lease" ? "leases" : kind == "Secret" ? "secrets" : kind == "Pod" ? "pods" : "configmaps";
        const std::string ns = model::stringOr(model::memberAt(object, "metadata", "namespace"), "default");
        const ObjectRef ref(resource, ns, model::stringOr(model::memberAt(object, "metadata", "name"), ""));
        co_await setupClient.create(ref, object);
    }
}

QCoro::Task<StepResult> ScenarioRunner::runNext()
{
    auto self = shared_from_this();
    if (finished())
        co_return StepResult{};
    const std::size_t index = m_next++;
    ScenarioStep step = m_scenario.steps[index];
    StepResult result = co_await runStep(step, index);
    // A pod change of this step queued a re-authorization of the open watches: run it now,
    // so that the watches it ends report their ERROR with this step, not some later one.
    if (m_context.nodeGraph)
        m_context.nodeGraph->recheckNow();
    reportWatchEvents(result, step);
    co_return result;
}

void ScenarioRunner::reportWatchEvents(StepResult &result, const ScenarioStep &step)
{
    // Watch events delivered by this step's writes belong to its outcome.
    for (std::string &line : m_pendingEvents->lines)
        result.details.push_back(std::move(line));
    bool expectedErrorSeen = false;
    for (const PendingError &error : m_pendingEvents->errors) {
        expectedErrorSeen = expectedErrorSeen || (step.expectWatchError && *step.expectWatchError == error.code);
        if (!error.opening)
            result.outcome += "; the server ended watch " + error.watcher + " with ERROR " + std::to_string(error.code)
                + (error.reason.empty() ? std::string() : ' ' + error.reason);
    }
    m_pendingEvents->lines.clear();
    m_pendingEvents->errors.clear();
    if (step.expectWatchError && !expectedErrorSeen) {
        result.expectationMet = false;
        result.outcome += "; no watch got the expected ERROR " + std::to_string(*step.expectWatchError);
    }
}

QCoro::Task<StepResult> ScenarioRunner::runStep(ScenarioStep step, std::size_t index)
{
    StepResult result;
    result.index = index;
    result.client = step.client;
    result.action = ScenarioStep::actionName(step.action);
    result.object = step.object;
    result.explain = step.explain;
    ClientState &state = client(step.client);
    KubeClient kube(transportFor(step.client), step.client, "scenario");
    const auto ref = ObjectRef::parse(step.object);
    if (!step.object.empty() && !ref) {
        result.outcome = "unknown object \"" + step.object + "\" (use configmaps/<ns>/<name> and the like)";
        result.expectationMet = false;
        co_return result;
    }

    KubeResponse response;
    switch (step.action) {
    case Action::Note:
        result.outcome = "(note)";
        co_return result;
    case Action::Compact: {
        auto compacted = co_await m_context.compact();
        result.status = compacted ? 200 : compacted.error().code;
        result.outcome = compacted ? "storage compacted at revision " + std::to_string(*compacted)
                                   : "compaction failed: " + compacted.error().message;
        result.resourceVersionProduced = compacted ? std::to_string(*compacted) : std::string();
        co_return result;
    }
    case Action::Fault: {
        if (!m_context.fault) {
            result.outcome = "fault rules are not available here";
            result.expectationMet = false;
            co_return result;
        }
        auto added = m_context.fault(step.rule);
        result.status = added ? 200 : added.error().code;
        if (step.rule == "clear")
            result.outcome = "the scenario's fault rules removed: its requests are served faithfully again";
        else
            result.outcome = added ? "fault rule #" + std::to_string(*added) + " added: " + step.rule
                                   : "fault rule refused: " + added.error().message;
        result.expectationMet = bool(added);
        co_return result;
    }
    case Action::Workload:
        co_await runWorkload(step, &result);
        co_return result;
    case Action::Sweep:
        co_await runSweep(step, &result);
        co_return result;
    case Action::Get:
        response = co_await kube.get(*ref);
        if (response.ok())
            state.lastRead[ref->key()] = response.body;
        break;
    case Action::List:
        response = co_await kube.list(*ref, "");
        if (response.ok())
            state.lastList[ref->key()] = response.resourceVersion();
        break;
    case Action::Create:
        response = co_await kube.create(*ref, step.body);
        break;
    case Action::Update: {
        nlohmann::json object;
        if (step.body.is_object()) {
            object = step.body;
        } else if (auto read = state.lastRead.find(ref->key()); read != state.lastRead.end()) {
            object = read->second;
        } else {
            result.outcome = step.client + " has not read " + step.object + " yet: add a get step first";
            result.expectationMet = false;
            co_return result;
        }
        applySet(object, step.set);
        if (step.omitResourceVersion && object.contains("metadata"))
            object["metadata"].erase("resourceVersion");
        result.resourceVersionSent = model::stringOr(model::memberAt(object, "metadata", "resourceVersion"), "");
        response = co_await kube.update(*ref, std::move(object));
        break;
    }
    case Action::Patch: {
        nlohmann::json patch = step.body;
        if (step.withResourceVersion) {
            const std::string rv = model::stringOr(model::memberAt(state.lastRead[ref->key()], "metadata", "resourceVersion"), "");
            if (patch.is_array())
                patch.insert(patch.begin(), nlohmann::json{{"op", "test"}, {"path", "/metadata/resourceVersion"}, {"value", rv}});
            else
                patch["metadata"]["resourceVersion"] = rv;
            result.resourceVersionSent = rv;
        }
        if (step.patchType == "apply") {
            response = co_await kube.apply(*ref, std::move(patch), step.fieldManager, step.force);
            break;
        }
        const std::string contentType = contentTypeFor(step.patchType);
        response = co_await kube.patch(*ref, contentType, std::move(patch));
        break;
    }
    case Action::Delete: {
        std::string precondition;
        if (step.withResourceVersion)
            precondition = model::stringOr(model::memberAt(state.lastRead[ref->key()], "metadata", "resourceVersion"), "");
        result.resourceVersionSent = precondition;
        response = co_await kube.remove(*ref, precondition);
        break;
    }
    case Action::Watch: {
        std::string from = step.from;
        if (from == "list")
            from = state.lastList[ref->key()];
        result.resourceVersionSent = from;
        response = co_await kube.watch(*ref, from);
        break;
    }
    }

    result.status = response.status;
    result.reason = response.reason;
    result.message = response.message;
    if (response.ok() && step.action != Action::Watch && step.action != Action::Delete)
        result.resourceVersionProduced = response.resourceVersion();
    // client-go's Update returns the written object and typed clients keep working on it; a
    // patch's response is usually ignored (the patcher never held the whole object).
    if (response.ok() && (step.action == Action::Update || step.action == Action::Create))
        state.lastRead[ref->key()] = response.body;
    std::string line = step.client + ' ' + httpVerb(step.action) + ' ' + step.object;
    if (!result.resourceVersionSent.empty())
        line += " (rv " + result.resourceVersionSent + ')';
    line += " → " + std::to_string(response.status);
    if (response.ok()) {
        if (!result.resourceVersionProduced.empty())
            line += ", rv " + result.resourceVersionProduced;
    } else {
        line += ' ' + response.reason + ": " + response.message;
    }
    result.outcome = line;
    if (response.ok() && (step.action == Action::Create || step.action == Action::Update || step.action == Action::Patch))
        describeOwnership(response.body, result);
    if (step.action == Action::Watch && response.watch)
        openWatch(step, response.watch, result);
    if (step.expect)
        result.expectationMet = *step.expect == result.status;
    co_return result;
}

void ScenarioRunner::describeOwnership(const nlohmann::json &object, StepResult &result)
{
    // Who manages which field matters once an applier is involved; before that every write
    // would list its own manager and say nothing new.
    std::vector<std::string> lines = fields::ownershipLines(object, false);
    const bool applied = std::any_of(lines.begin(), lines.end(), [](const std::string &line) {
        return line.find(" (Apply") != std::string::npos;
    });
    if (!applied)
        return;
    for (std::string &line : lines)
        result.details.push_back("manages " + std::move(line));
}

void ScenarioRunner::openWatch(const ScenarioStep &step, std::shared_ptr<api::Watcher> stream, StepResult &result)
{
    ClientState &state = client(step.client);
    const std::string watcher = step.client + '/' + step.object + '#' + std::to_string(++state.watches);
    // The watch request was journaled when its response was made, just before this.
    const std::uint64_t operation = m_context.journal ? m_context.journal->nextId() - 1 : 0;
    auto open = std::make_shared<OpenWatch>();
    open->stream = stream;
    m_watches.push_back(open);
    std::weak_ptr<history::Journal> journal = m_context.journal;
    auto pending = m_pendingEvents;
    // Events already queued are delivered inside attach(): an ERROR among them is the
    // watch request's own answer.
    struct Opening {
        bool attaching = true;
        int firstError = 0;
    };
    auto opening = std::make_shared<Opening>();
    stream->attach(
        [journal, pending, watcher, operation, opening](const std::string &line) {
            const nlohmann::json event = model::parseJson(line).value_or(nlohmann::json());
            const std::string type = model::stringOr(model::member(event, "type"), "");
            const nlohmann::json &object = model::member(event, "object");
            history::WatchDelivery delivery;
            delivery.watcherId = watcher;
            delivery.operationId = operation;
            delivery.eventType = type;
            delivery.resourceVersion = model::stringOr(model::memberAt(object, "metadata", "resourceVersion"), "");
            const std::string ns = model::stringOr(model::memberAt(object, "metadata", "namespace"), "");
            const std::string name = model::stringOr(model::memberAt(object, "metadata", "name"), "");
            const std::string prefix = watcher.substr(0, watcher.find('#'));
            const std::string collection = prefix.substr(prefix.find('/') + 1);
            if (!name.empty())
                delivery.key = collection.substr(0, collection.find('/')) + (ns.empty() ? "" : '/' + ns) + '/' + name;
            delivery.timeNs = model::steadyNowNs();
            std::string text = watcher + " ← " + type;
            if (type == "ERROR") {
                const int code = model::member(object, "code").is_number_integer() ? model::member(object, "code").get<int>() : 0;
                text += ' ' + std::to_string(code) + ' ' + model::stringOr(model::member(object, "reason"), "") + ": "
                    + model::stringOr(model::member(object, "message"), "");
                if (opening->attaching && opening->firstError == 0)
                    opening->firstError = code;
                const std::string reason = model::stringOr(model::member(object, "reason"), "");
                delivery.message = std::to_string(code) + ' ' + reason + ": "
                    + model::stringOr(model::member(object, "message"), "");
                pending->errors.push_back(PendingError{watcher, code, reason, opening->attaching});
            } else {
                text += ' ' + name + " rv " + delivery.resourceVersion;
            }
            pending->lines.push_back(std::move(text));
            if (auto shared = journal.lock())
                shared->record(std::move(delivery));
        },
        [] {});
    opening->attaching = false;
    // A too-old resourceVersion opens the stream with one ERROR event (410 inside a 200).
    if (opening->firstError != 0) {
        result.status = opening->firstError;
        result.outcome += ", then an ERROR event " + std::to_string(opening->firstError) + ": the client must relist";
    }
}

QCoro::Task<> ScenarioRunner::runWorkload(ScenarioStep step, StepResult *result)
{
    ClientSpec spec = step.workload;
    spec.seed = spec.seed * 31 + m_context.seed;
    m_workload = std::make_shared<Workload>(transportFor(step.client), m_context.clock, spec);
    std::shared_ptr<Workload> workload = m_workload;
    co_await workload->run();
    const WorkloadSummary summary = workload->summary();
    result->status = 200;
    result->outcome = std::to_string(summary.clients) + " " + summary.strategy + " clients: "
        + std::to_string(summary.succeeded) + " increments landed, " + std::to_string(summary.failed) + " gave up, "
        + std::to_string(summary.conflicts) + " conflicts (409), " + std::to_string(summary.retries) + " retries";
    for (const ClientCounters &counters : workload->counters()) {
        result->details.push_back(counters.clientId + ": " + std::to_string(counters.succeeded) + " ok, "
                                  + std::to_string(counters.conflicts) + " × 409, " + std::to_string(counters.retries)
                                  + " retries, " + std::to_string(counters.errors) + " other errors");
    }
    m_workload.reset();
}

QCoro::Task<> ScenarioRunner::runSweep(ScenarioStep step, StepResult *result)
{
    char header[160];
    std::snprintf(header, sizeof header, "%-16s %7s %9s %10s %10s %9s %8s", "strategy", "clients", "incr/s", "p50",
                  "p99", "409s", "retries");
    result->details.push_back(header);
    for (const WriteStrategy strategy : step.sweepStrategies) {
        for (const int count : step.sweepClients) {
            ClientSpec spec = step.workload;
            spec.strategy = strategy;
            spec.clients = count;
            spec.seed = spec.seed * 31 + m_context.seed;
            spec.objectPrefix = "sweep-" + strategyName(strategy) + '-' + std::to_string(count);
            m_workload = std::make_shared<Workload>(transportFor(step.client), m_context.clock, spec);
            std::shared_ptr<Workload> workload = m_workload;
            co_await workload->run();
            const WorkloadSummary summary = workload->summary();
            char row[160];
            std::snprintf(row, sizeof row, "%-16s %7d %9.0f %10s %10s %9d %8d", summary.strategy.c_str(), count,
                          summary.throughputPerSecond(), formatMs(summary.p50LatencyNs).c_str(),
                          formatMs(summary.p99LatencyNs).c_str(), summary.conflicts, summary.retries);
            result->details.push_back(row);
        }
    }
    m_workload.reset();
    result->status = 200;
    result->outcome = "throughput and latency (virtual time) per strategy and client count";
}

std::vector<CheckResult> ScenarioRunner::runChecks() const
{
    std::vector<CheckResult> results;
    if (!m_context.journal)
        return results;
    const history::History &history = m_context.journal->history();
    for (const ScenarioCheck &check : m_scenario.checks) {
        CheckResult result;
        result.check = check;
        if (check.checker == "lost-update")
            result.verdict = history::LostUpdateChecker(check.path).check(history, check.key);
        else if (check.checker == "linearizability")
            result.verdict = history::LinearizabilityChecker().check(history);
        else
            result.verdict = history::WatchGuaranteesChecker().check(history);
        results.push_back(std::move(result));
    }
    return results;
}

void ScenarioRunner::stop()
{
    if (m_workload)
        m_workload->stop();
    for (const auto &watch : m_watches)
        watch->stream->close();
    m_watches.clear();
}

} // namespace rvscope::sim
