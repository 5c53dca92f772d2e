// SPDX-License-Identifier: MIT
#include "history/LostUpdateChecker.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <map>
#include <optional>

#include "model/Object.h"

namespace rvscope::history {

namespace {

using nlohmann::json;

std::optional<std::int64_t> counterAt(const json &object, const std::vector<std::string> &path)
{
    const json *node = &object;
    for (const std::string &part : path) {
        if (!node->is_object())
            return std::nullopt;
        auto it = node->find(part);
        if (it == node->end())
            return std::nullopt;
        node = &*it;
    }
    if (node->is_number_integer())
        return node->get<std::int64_t>();
    if (node->is_string()) {
        const std::string &text = node->get_ref<const std::string &>();
        std::int64_t value = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc() && end == text.data() + text.size())
            return value;
    }
    return std::nullopt;
}

std::string describe(const OperationRecord &op)
{
    return "op " + std::to_string(op.id) + " (" + op.clientId + " " + op.verb + " rv " + op.resourceVersionProduced + ")";
}

struct CounterCommit final {
    const OperationRecord *op = nullptr;
    std::int64_t rv = 0;
    std::optional<std::int64_t> basis;
    std::optional<std::int64_t> value;
};

} // namespace

LostUpdateChecker::LostUpdateChecker(std::string counterPath)
{
    std::size_t begin = 0;
    while (begin <= counterPath.size()) {
        std::size_t dot = counterPath.find('.', begin);
        if (dot == std::string::npos)
            dot = counterPath.size();
        if (dot > begin)
            m_path.push_back(counterPath.substr(begin, dot - begin));
        begin = dot + 1;
    }
}

Verdict LostUpdateChecker::check(const History &history, const std::string &key) const
{
    return check(std::vector<OperationRecord>(history.operations().begin(), history.operations().end()), key,
                 HistoryWindow::of(history));
}

Verdict LostUpdateChecker::check(const std::vector<OperationRecord> &operations, const std::string &key,
                                 const HistoryWindow &window) const
{
    const std::int64_t horizon = window.horizonOf(key);
    Verdict verdict = checkKept(operations, key, horizon);
    // (Deliveries alone dropped leave every commit in place: the horizon is 0, nothing to say.)
    if (window.droppedOperations > 0 && horizon != HistoryWindow::NOTHING_COMPLETE)
        verdict.summary += " (" + window.note() + ": checked the commits above rv " + std::to_string(horizon)
                           + ", all of which it kept)";
    else if (window.truncated())
        verdict.summary += " (" + window.note() + ")";
    return verdict;
}

Verdict LostUpdateChecker::checkKept(const std::vector<OperationRecord> &operations, const std::string &key,
                                     std::int64_t horizon) const
{
    Verdict verdict;
    const std::string wanted = normalizedKey(key);
    std::vector<const OperationRecord *> ops;
    for (const OperationRecord &op : operations)
        // (An injected fault that answered instead of the handler did nothing: left out.)
        if (normalizedKey(op.key) == wanted && op.verb != "list" && op.verb != "watch" && !op.refusedByFault())
            ops.push_back(&op);

    std::vector<CounterCommit> commits;
    std::map<std::int64_t, std::int64_t> valueAtRevision;
    std::int64_t unknownOutcomes = 0;
    for (const OperationRecord *op : ops) {
        if (op->isWrite() && (op->pending() || op->statusCode >= 500))
            ++unknownOutcomes;
        if (!op->succeeded())
            continue;
        auto rv = model::parseResourceVersion(op->resourceVersionProduced);
        if (!rv)
            continue;
        auto value = counterAt(op->objectJson(), m_path);
        if (value && op->verb != "delete")
            valueAtRevision[*rv] = *value;
        if (op->isWrite() && *rv > horizon)
            commits.push_back(CounterCommit{op, *rv, std::nullopt, op->verb == "delete" ? std::nullopt : value});
    }
    if (commits.empty()) {
        if (ops.empty())
            return Verdict::noHistory("no operation on " + wanted + " was recorded");
        if (horizon > 0)
            return Verdict::noHistory("no successful write of " + wanted + " that the journal kept with all before it");
        return Verdict::noHistory("no successful write of " + wanted + " was recorded");
    }
    std::sort(commits.begin(), commits.end(), [](const CounterCommit &a, const CounterCommit &b) { return a.rv < b.rv; });

    // The revision each write was based on: its precondition, else what its client last saw
    // (the latest of its successful operations on the key that ended before the write began).
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> seenByClient; // end, rv
    for (const OperationRecord *op : ops)
        if (op->succeeded())
            if (auto rv = model::parseResourceVersion(op->resourceVersionProduced))
                seenByClient[op->clientId].emplace_back(*op->endNs, *rv);
    for (auto &[client, seen] : seenByClient)
        std::sort(seen.begin(), seen.end());
    for (CounterCommit &commit : commits) {
        const OperationRecord &op = *commit.op;
        if (op.isConditional()) {
            commit.basis = model::parseResourceVersion(op.resourceVersionSent);
            continue;
        }
        const auto &seen = seenByClient[op.clientId];
        auto after = std::upper_bound(seen.begin(), seen.end(), std::pair(op.startNs, std::numeric_limits<std::int64_t>::max()));
        if (after != seen.begin())
            commit.basis = std::prev(after)->second;
    }

    std::map<std::int64_t, std::vector<const OperationRecord *>> writesByBasis;
    std::int64_t increments = 0;
    std::int64_t baseline = 0;
    std::int64_t acceptedJumps = 0;
    // A plain pair rather than std::optional: GCC 13 warns maybe-uninitialized on the latter.
    std::int64_t lastValue = 0;
    bool hasLastValue = false;
    bool undecided = false;
    for (std::size_t i = 0; i < commits.size(); ++i) {
        const CounterCommit &commit = commits[i];
        const bool startsChain = i == 0 || commits[i - 1].op->verb == "delete";
        if (commit.op->verb == "delete") {
            hasLastValue = false;
            continue;
        }
        if (!commit.value) {
            verdict.findings.push_back(describe(*commit.op) + ": no integer counter in the written object");
            undecided = true;
            continue;
        }
        if (startsChain) {
            baseline = *commit.value;
            increments = 0;
            lastValue = *commit.value;
            hasLastValue = true;
            continue;
        }
        const CounterCommit &previous = commits[i - 1];
        if (commit.basis)
            writesByBasis[*commit.basis].push_back(commit.op);
        if (commit.basis && *commit.basis != previous.rv && *commit.basis < previous.rv) {
            std::string lost;
            for (std::size_t j = 0; j < i; ++j)
                if (commits[j].rv > *commit.basis)
                    lost += (lost.empty() ? "" : ", ") + describe(*commits[j].op);
            verdict.findings.push_back("lost update: " + describe(*commit.op) + " was based on rv "
                                       + std::to_string(*commit.basis) + " and overwrote " + lost);
        } else if (hasLastValue && *commit.value != lastValue + 1) {
            const std::int64_t jump = *commit.value - lastValue - 1;
            if (jump > 0 && acceptedJumps + jump <= unknownOutcomes) {
                acceptedJumps += jump;
                increments += jump;
            } else {
                std::string lost;
                for (std::size_t j = 0; j < i; ++j) {
                    auto seen = commits[j].value;
                    if (commits[j].op->verb != "delete" && seen && *seen >= *commit.value)
                        lost += (lost.empty() ? "" : ", ") + describe(*commits[j].op);
                }
                verdict.findings.push_back("lost update: " + describe(*commit.op) + " wrote " + std::to_string(*commit.value)
                                           + " after value " + std::to_string(lastValue)
                                           + (lost.empty() ? std::string() : ", overwriting " + lost));
            }
        }
        ++increments;
        lastValue = *commit.value;
        hasLastValue = true;
    }
    for (const auto &[basis, writes] : writesByBasis) {
        if (writes.size() < 2)
            continue;
        std::string names;
        for (const OperationRecord *op : writes)
            names += (names.empty() ? "" : ", ") + describe(*op);
        verdict.findings.push_back("lost update: " + std::to_string(writes.size()) + " successful writes based on rv "
                                   + std::to_string(basis) + ": " + names);
    }
    if (hasLastValue && lastValue != baseline + increments)
        verdict.findings.push_back("final value " + std::to_string(lastValue) + " != baseline " + std::to_string(baseline)
                                   + " + " + std::to_string(increments) + " successful increments");

    const std::string counts = std::to_string(commits.size()) + " successful writes, "
                               + std::to_string(increments) + " increments, final value "
                               + (hasLastValue ? std::to_string(lastValue) : std::string("(none)"));
    if (!verdict.findings.empty() && !undecided) {
        verdict.outcome = Verdict::Outcome::Fail;
        verdict.summary = "lost updates on " + wanted + ": " + counts;
    } else if (undecided) {
        verdict.outcome = verdict.findings.size() > 0 && std::any_of(verdict.findings.begin(), verdict.findings.end(),
                                                                     [](const std::string &f) { return f.rfind("lost update", 0) == 0; })
                              ? Verdict::Outcome::Fail
                              : Verdict::Outcome::Unknown;
        verdict.summary = "counter missing on some writes of " + wanted + ": " + counts;
    } else {
        verdict.summary = "no lost update on " + wanted + ": " + counts
                          + (acceptedJumps ? " (" + std::to_string(acceptedJumps) + " explained by unknown outcomes)" : "");
    }
    return verdict;
}

} // namespace rvscope::history
