// SPDX-License-Identifier: MIT
#include "history/LinearizabilityChecker.h"

#include <algorithm>
#include <functional>
#include <map>

#include "history/RegisterSearch_p.h"
#include "model/JsonWrite.h"
#include "model/Object.h"

namespace rvscope::history {

namespace {

using detail::RegisterOp;
using detail::RegisterOpKind;

// A digest of the object without the fields the server sets on its own, so that the body a
// client wrote compares equal to what a later read returns. 0 means unknown.
std::uint64_t valueDigest(const nlohmann::json &object)
{
    if (!object.is_object())
        return 0;
    nlohmann::json copy = object;
    if (auto it = copy.find("metadata"); it != copy.end() && it->is_object()) {
        for (const char *field : {"resourceVersion", "managedFields", "generation", "creationTimestamp", "uid", "selfLink"})
            it->erase(field);
    }
    const std::uint64_t digest = std::hash<std::string>{}(model::dumpJson(copy));
    return digest == 0 ? 1 : digest;
}

bool unknownOutcome(const OperationRecord &op)
{
    return op.pending() || op.statusCode >= 500 || op.statusCode == 0;
}

// Translates a record into the register model; nullopt for operations without effect.
std::optional<RegisterOp> classify(const OperationRecord &record)
{
    // An injected fault answered in the handler's place: nothing ran, nothing was observed
    // (an injected 409 says nothing about the resourceVersion sent).
    if (record.refusedByFault())
        return std::nullopt;
    RegisterOp op;
    op.record = &record;
    op.start = record.startNs;
    op.end = record.endNs.value_or(std::numeric_limits<std::int64_t>::max());
    op.conditional = record.isConditional();
    if (op.conditional)
        op.sent = model::parseResourceVersion(record.resourceVersionSent).value_or(-2);
    const auto produced = model::parseResourceVersion(record.resourceVersionProduced);
    const std::string &verb = record.verb;
    const bool write = record.isWrite();
    if (verb != "get" && !write)
        return std::nullopt;
    if (write && (unknownOutcome(record) || (record.succeeded() && !produced))) {
        op.pending = true;
        op.kind = verb == "create" ? RegisterOpKind::PendingCreate
                  : verb == "delete" ? RegisterOpKind::PendingDelete
                                     : RegisterOpKind::PendingWrite;
        return op;
    }
    if (record.pending())
        return std::nullopt; // a read without an answer constrains nothing
    if (record.statusCode == 404) {
        op.kind = RegisterOpKind::ReadAbsent;
        return op;
    }
    if (record.statusCode == 409) {
        // An apply refused for a field another manager owns changed nothing and says nothing
        // about the resourceVersion it carried.
        if (record.reason == "FieldManagerConflict")
            return std::nullopt;
        if (verb == "create")
            op.kind = RegisterOpKind::CreateConflict;
        else if (write && op.conditional)
            op.kind = RegisterOpKind::WriteConflict;
        else
            return std::nullopt;
        return op;
    }
    if (!record.succeeded() || !produced)
        return std::nullopt;
    op.rv = *produced;
    if (record.noop && (verb == "update" || verb == "patch")) {
        // A write that changed nothing committed nothing: it observed the state at rv.
        op.value = valueDigest(record.objectJson());
        op.kind = RegisterOpKind::Read;
        return op;
    }
    op.value = verb == "patch" || verb == "delete" ? 0 : valueDigest(record.objectJson());
    op.kind = verb == "get" ? RegisterOpKind::Read
              : verb == "create" ? RegisterOpKind::Create
              : verb == "delete" ? RegisterOpKind::Delete
                                 : RegisterOpKind::Write;
    return op;
}

} // namespace

LinearizabilityChecker::LinearizabilityChecker() = default;

LinearizabilityChecker::LinearizabilityChecker(Options options) : m_options(options) {}

Verdict LinearizabilityChecker::check(const History &history) const
{
    return check(std::vector<OperationRecord>(history.operations().begin(), history.operations().end()),
                 HistoryWindow::of(history));
}

Verdict LinearizabilityChecker::check(const std::vector<OperationRecord> &operations, const HistoryWindow &window) const
{
    const auto deadline = std::chrono::steady_clock::now() + m_options.timeBudget;
    std::map<std::string, std::vector<RegisterOp>> byKey;
    std::map<std::string, std::int64_t> horizons;
    std::size_t beforeHorizon = 0;
    for (const OperationRecord &record : operations) {
        auto op = classify(record);
        if (!op)
            continue;
        const std::string key = normalizedKey(record.key);
        const std::int64_t horizon = horizons.try_emplace(key, window.horizonOf(key)).first->second;
        // A write at or below the horizon may follow writes the journal dropped: its key is
        // checked from the first write above it.
        const bool chainLink = op->kind == RegisterOpKind::Create || op->kind == RegisterOpKind::Write
                               || op->kind == RegisterOpKind::Delete;
        if (chainLink && op->rv <= horizon) {
            ++beforeHorizon;
            continue;
        }
        byKey[key].push_back(*op);
    }
    if (byKey.empty())
        return Verdict::noHistory("no completed read or write was recorded");

    Verdict verdict;
    std::size_t failed = 0, unknown = 0, checkedOps = 0;
    for (auto &[key, ops] : byKey) {
        checkedOps += ops.size();
        // The chain of successful writes, ordered by the revision each one produced.
        std::vector<RegisterOp *> chain;
        for (RegisterOp &op : ops)
            if (op.kind == RegisterOpKind::Create || op.kind == RegisterOpKind::Write || op.kind == RegisterOpKind::Delete)
                chain.push_back(&op);
        std::sort(chain.begin(), chain.end(), [](const RegisterOp *a, const RegisterOp *b) { return a->rv < b->rv; });
        std::vector<std::int64_t> produced;
        std::string duplicate;
        for (std::size_t i = 0; i < chain.size(); ++i) {
            chain[i]->chainIndex = static_cast<int>(i);
            if (!produced.empty() && produced.back() == chain[i]->rv)
                duplicate = "rv " + std::to_string(chain[i]->rv) + " produced by two writes (op "
                            + std::to_string(chain[i - 1]->record->id) + " and op " + std::to_string(chain[i]->record->id) + ")";
            produced.push_back(chain[i]->rv);
        }
        if (!duplicate.empty()) {
            ++failed;
            verdict.findings.push_back(key + ": not linearizable: " + duplicate);
            continue;
        }
        const bool initialExists = !chain.empty() ? chain.front()->kind != RegisterOpKind::Create
                                                  : std::none_of(ops.begin(), ops.end(), [](const RegisterOp &o) {
                                                        return o.kind == RegisterOpKind::ReadAbsent || o.kind == RegisterOpKind::PendingCreate;
                                                    });
        const detail::SearchResult result =
            detail::searchLinearization(std::move(ops), produced, initialExists, horizons[key], deadline);
        if (result.outcome == detail::SearchResult::Outcome::NotLinearizable) {
            ++failed;
            verdict.findings.push_back(key + ": " + result.explanation);
        } else if (result.outcome == detail::SearchResult::Outcome::OutOfTime) {
            ++unknown;
            verdict.findings.push_back(key + ": unknown: " + result.explanation + " (budget "
                                       + std::to_string(m_options.timeBudget.count()) + " ms)");
        }
    }
    const std::string counts = std::to_string(byKey.size()) + " keys, " + std::to_string(checkedOps) + " operations";
    if (failed > 0) {
        verdict.outcome = Verdict::Outcome::Fail;
        verdict.summary = "not linearizable: " + std::to_string(failed) + " of " + counts;
    } else if (unknown > 0) {
        verdict.outcome = Verdict::Outcome::Unknown;
        verdict.summary = "unknown: the time budget of " + std::to_string(m_options.timeBudget.count())
                          + " ms ran out on " + std::to_string(unknown) + " of " + counts;
    } else {
        verdict.summary = "linearizable: " + counts;
    }
    if (window.droppedOperations > 0)
        verdict.summary += " (" + window.note() + ": each key checked from its first write made after all of them, "
                           + std::to_string(beforeHorizon) + " earlier writes skipped; before it, reads of older "
                           + "revisions, 404s and 409s only had to come first)";
    return verdict;
}

} // namespace rvscope::history
