// SPDX-License-Identifier: MIT
#pragma once

#include "history/Verdict.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/History.h"
#include "history/OperationRecord.h"

// Hand-written and generated histories shared by the checker tests.
namespace rvscope::history::testing {

inline const std::string kHotKey = "/registry/configmaps/default/hot";

inline nlohmann::json counterObject(std::int64_t value, const std::string &name = "hot")
{
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"data", {{"counter", std::to_string(value)}}}};
}

// One finished operation; end < 0 makes it pending.
inline OperationRecord record(std::uint64_t id, std::string client, std::string verb, std::int64_t start, std::int64_t end,
                              int code, std::string rvSent, std::string rvProduced, nlohmann::json object = nullptr,
                              std::string key = kHotKey)
{
    OperationRecord op;
    op.id = id;
    op.clientId = std::move(client);
    op.verb = std::move(verb);
    op.key = std::move(key);
    op.startNs = start;
    if (end >= 0)
        op.endNs = end;
    op.statusCode = end >= 0 ? code : 0;
    op.reason = code == 409 ? "Conflict" : code == 404 ? "NotFound" : "";
    op.resourceVersionSent = std::move(rvSent);
    op.resourceVersionProduced = std::move(rvProduced);
    if (!object.is_null())
        op.object = std::make_shared<const rvscope::model::Object>(std::move(object));
    return op;
}

// A deterministic simulation of a correct compare-and-swap register: `clients` clients each
// run `opsPerClient` operations of read-modify-write counter increments with the read
// resourceVersion (get, then update; a 409 sends the client back to get). Every operation
// takes effect at a random point inside its own [start, end] interval, and points are
// applied in time order, so the history is linearizable by construction while intervals
// overlap heavily. The object is created first (op 1, rv 1, counter 0).
inline std::vector<OperationRecord> simulateCasCounter(int clients, int opsPerClient, std::uint64_t seed,
                                                       bool blindWrites = false)
{
    std::mt19937_64 random(seed);
    auto uniform = [&random](std::int64_t low, std::int64_t high) {
        return low + static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(high - low + 1));
    };
    std::vector<OperationRecord> history;
    history.push_back(record(1, "setup", "create", 0, 10, 201, "", "1", counterObject(0)));
    std::int64_t rv = 1, value = 0, nextRv = 2;
    std::uint64_t nextId = 2;

    struct Client final {
        int done = 0;
        bool haveRead = false;
        std::int64_t readRv = 0, readValue = 0;
        std::int64_t start = 0, point = 0;
    };
    std::vector<Client> state(static_cast<std::size_t>(clients));
    using Item = std::pair<std::int64_t, int>; // linearization point, client
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (int c = 0; c < clients; ++c) {
        auto &s = state[static_cast<std::size_t>(c)];
        s.start = 20 + uniform(0, 500);
        s.point = s.start + uniform(1, 2000);
        queue.push({s.point, c});
    }
    while (!queue.empty()) {
        const auto [point, c] = queue.top();
        queue.pop();
        auto &s = state[static_cast<std::size_t>(c)];
        const std::int64_t end = point + uniform(1, 2000);
        const std::string client = "client-" + std::to_string(c);
        if (!s.haveRead) {
            history.push_back(record(nextId++, client, "get", s.start, end, 200, "", std::to_string(rv), counterObject(value)));
            s.haveRead = true;
            s.readRv = rv;
            s.readValue = value;
        } else if (blindWrites || s.readRv == rv) {
            rv = nextRv++;
            value = s.readValue + 1;
            history.push_back(record(nextId++, client, "update", s.start, end, 200, blindWrites ? "" : std::to_string(s.readRv),
                                     std::to_string(rv), counterObject(value)));
            s.haveRead = false;
        } else {
            history.push_back(record(nextId++, client, "update", s.start, end, 409, std::to_string(s.readRv), "",
                                     counterObject(s.readValue + 1)));
            s.haveRead = false;
        }
        if (++s.done < opsPerClient) {
            s.start = end + uniform(0, 300);
            s.point = s.start + uniform(1, 2000);
            queue.push({s.point, c});
        }
    }
    return history;
}

// What a journal of `capacity` records per kind keeps of `ops` and `deliveries`: the core
// records operations in completion order (pending ones, which never completed, last) and
// deliveries in the order they were handed over, and drops the oldest when full.
inline History boundedJournal(std::vector<OperationRecord> ops, std::vector<WatchDelivery> deliveries, std::size_t capacity)
{
    std::stable_sort(ops.begin(), ops.end(), [](const OperationRecord &a, const OperationRecord &b) {
        return a.endNs.value_or(std::numeric_limits<std::int64_t>::max()) < b.endNs.value_or(std::numeric_limits<std::int64_t>::max());
    });
    std::stable_sort(deliveries.begin(), deliveries.end(),
                     [](const WatchDelivery &a, const WatchDelivery &b) { return a.timeNs < b.timeNs; });
    History history(capacity);
    for (OperationRecord &op : ops)
        history.append(std::move(op));
    for (WatchDelivery &delivery : deliveries)
        history.append(std::move(delivery));
    return history;
}

// The records a history kept, as the checkers' vector overloads take them (which know nothing
// of what was dropped).
inline std::vector<OperationRecord> keptOperations(const History &history)
{
    return {history.operations().begin(), history.operations().end()};
}

// A verdict as one readable string, for failure messages.
inline std::string joined(const Verdict &verdict)
{
    std::string text = verdict.summary;
    for (const std::string &finding : verdict.findings)
        text += "\n  " + finding;
    return text;
}

} // namespace rvscope::history::testing
