// SPDX-License-Identifier: MIT
#include "history/RegisterSearch_p.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace rvscope::history::detail {

namespace {

struct State final {
    std::int64_t rv = 0;
    std::uint64_t value = 0;
    std::int32_t chain = 0; // how many chain links are linearized
    bool exists = false;
    bool unbound = false; // a pending write took effect; its rv is unknown but > rv
    // Before the key's first write that a truncated journal kept in full (rv > the horizon,
    // held in rv): what happened then is partly unknown, so reads of older revisions, 404s
    // and 409s are accepted; the first write (or pending write) ends it.
    bool preWindow = false;

    bool operator==(const State &) const = default;
};

struct CacheKey final {
    std::int32_t frontier = 0;
    std::vector<std::int32_t> extras;
    State state;

    bool operator==(const CacheKey &) const = default;
};

struct CacheKeyHash final {
    std::size_t operator()(const CacheKey &key) const noexcept
    {
        std::uint64_t h = 1469598103934665603ULL;
        auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; h ^= h >> 29; };
        mix(static_cast<std::uint64_t>(key.frontier));
        for (std::int32_t e : key.extras)
            mix(static_cast<std::uint64_t>(e));
        mix(static_cast<std::uint64_t>(key.state.rv));
        mix(key.state.value);
        mix(static_cast<std::uint64_t>(key.state.chain) << 3 | (key.state.preWindow ? 4U : 0U) | (key.state.exists ? 2U : 0U)
            | (key.state.unbound ? 1U : 0U));
        return static_cast<std::size_t>(h);
    }
};

std::string describe(const RegisterOp &op)
{
    const OperationRecord &r = *op.record;
    std::string text = "op " + std::to_string(r.id) + " (" + r.clientId + " " + r.verb;
    if (!r.resourceVersionSent.empty())
        text += " rvSent " + r.resourceVersionSent;
    text += r.pending() ? std::string(" pending") : " -> " + std::to_string(r.statusCode);
    if (!r.resourceVersionProduced.empty())
        text += " rv " + r.resourceVersionProduced;
    return text + ", " + std::to_string(r.startNs) + ".." + (r.endNs ? std::to_string(*r.endNs) : std::string("?")) + " ns)";
}

std::string describe(const State &s)
{
    if (s.preWindow)
        return "unknown, before the first write above rv " + std::to_string(s.rv) + " (the journal dropped what came before)";
    if (!s.exists)
        return s.unbound ? "absent (deleted by a pending operation)" : "absent";
    return s.unbound ? "present at an unknown rv > " + std::to_string(s.rv) : "present at rv " + std::to_string(s.rv);
}

class Search final {
public:
    Search(std::vector<RegisterOp> ops, const std::vector<std::int64_t> &produced, bool initialExists,
           std::int64_t horizon)
        : m_ops(std::move(ops)), m_produced(produced)
    {
        // Completed operations first (indices 0..m_required-1, by start), then pending ones.
        std::stable_sort(m_ops.begin(), m_ops.end(), [](const RegisterOp &a, const RegisterOp &b) {
            return a.pending != b.pending ? !a.pending : a.start < b.start;
        });
        m_required = static_cast<std::int32_t>(std::count_if(m_ops.begin(), m_ops.end(), [](const RegisterOp &o) { return !o.pending; }));
        for (const RegisterOp &op : m_ops) {
            if (op.kind == RegisterOpKind::Read) {
                ++m_unlinearizedReads[op.rv];
                if (!isProduced(op.rv))
                    m_orphans.push_back(op.rv);
            }
            if (op.kind == RegisterOpKind::WriteConflict)
                ++m_unlinearizedConflicts[op.sent];
            if (op.conditional && !isProduced(op.sent) && op.sent >= 0)
                m_orphans.push_back(op.sent);
        }
        std::sort(m_orphans.begin(), m_orphans.end());
        m_chainSent.assign(m_produced.size(), -1);
        for (const RegisterOp &op : m_ops)
            if (op.chainIndex >= 0 && op.conditional)
                m_chainSent[static_cast<std::size_t>(op.chainIndex)] = op.sent;
        m_state.exists = initialExists;
        m_state.unbound = initialExists; // present at an unknown resourceVersion
        if (horizon > 0)
            m_state = State{horizon, 0, 0, true, true, true};
        buildEntries();
    }

    SearchResult run(std::chrono::steady_clock::time_point deadline);

private:
    bool isProduced(std::int64_t rv) const { return std::binary_search(m_produced.begin(), m_produced.end(), rv); }
    bool orphanBetween(std::int64_t low, std::int64_t high) const // some orphan in (low, high)
    {
        auto it = std::upper_bound(m_orphans.begin(), m_orphans.end(), low);
        return it != m_orphans.end() && *it < high;
    }
    std::int64_t nextChainRv(const State &s) const
    {
        return s.chain < static_cast<std::int32_t>(m_produced.size()) ? m_produced[static_cast<std::size_t>(s.chain)]
                                                                      : std::numeric_limits<std::int64_t>::max();
    }
    // The precondition `sent` holds in state s (binding an unknown rv if need be).
    bool preconditionHolds(const RegisterOp &op, State &s) const
    {
        if (!op.conditional)
            return true;
        if (s.preWindow) // the state then may have been at any revision up to the horizon
            return op.sent <= s.rv;
        if (!s.unbound)
            return op.sent == s.rv;
        if (op.sent <= s.rv || isProduced(op.sent) || op.sent >= nextChainRv(s))
            return false;
        s.rv = op.sent;
        s.unbound = false;
        return true;
    }
    bool waitingConflict(const State &s) const
    {
        if (s.unbound)
            return false;
        auto it = m_unlinearizedConflicts.find(s.rv);
        return it != m_unlinearizedConflicts.end() && it->second > 0;
    }
    // True when a waiting read of the current rv or the next chain link's precondition needs
    // the state to stay at its current (known) rv: rvs only grow, so leaving it is fatal.
    bool mustStayAtCurrentRv(const State &s) const
    {
        if (s.unbound || !s.exists)
            return false;
        auto it = m_unlinearizedReads.find(s.rv);
        if (it != m_unlinearizedReads.end() && it->second > 0)
            return true;
        return s.chain < static_cast<std::int32_t>(m_chainSent.size()) && m_chainSent[static_cast<std::size_t>(s.chain)] == s.rv;
    }
    std::optional<State> step(const RegisterOp &op, State s) const;
    std::optional<State> stepBeforeWindow(const RegisterOp &op, State s) const;
    std::optional<State> pendingEffect(const RegisterOp &op, State s) const;
    void buildEntries();
    void lift(std::int32_t op);
    void unlift(std::int32_t op);
    void setLinearized(std::int32_t op);
    void clearLinearized(std::int32_t op);
    CacheKey cacheKey() const;
    std::string staleReadBlocking(std::int32_t culprit, const State &state) const;

    std::vector<RegisterOp> m_ops;
    const std::vector<std::int64_t> &m_produced;
    std::vector<std::int64_t> m_orphans;
    std::vector<std::int64_t> m_chainSent; // the precondition of each chain link (-1: none)
    std::unordered_map<std::int64_t, std::int32_t> m_unlinearizedReads;     // by rv
    std::unordered_map<std::int64_t, std::int32_t> m_unlinearizedConflicts; // by rv sent
    std::int32_t m_required = 0;
    State m_state;
    // Entries: 2*i is the call of op i, 2*i+1 its return; kHead is the list head.
    static constexpr std::int32_t kNone = -1;
    std::int32_t m_head = 0;
    std::vector<std::int32_t> m_next, m_prev;
    std::vector<char> m_linearized;
    std::int32_t m_frontier = 0; // first unlinearized completed op
    std::int32_t m_highest = -1; // highest linearized completed op
};

std::optional<State> Search::step(const RegisterOp &op, State s) const
{
    if (s.preWindow)
        return stepBeforeWindow(op, s);
    switch (op.kind) {
    case RegisterOpKind::Read:
        if (!s.exists)
            return std::nullopt;
        if (s.unbound) {
            if (op.rv <= s.rv || isProduced(op.rv) || op.rv >= nextChainRv(s))
                return std::nullopt;
            s.rv = op.rv;
            s.unbound = false;
            s.value = op.value;
            return s;
        }
        if (op.rv != s.rv || (op.value != 0 && s.value != 0 && op.value != s.value))
            return std::nullopt;
        return s;
    case RegisterOpKind::ReadAbsent:
        return s.exists ? std::nullopt : std::optional<State>(s);
    case RegisterOpKind::CreateConflict:
        return s.exists ? std::optional<State>(s) : std::nullopt;
    case RegisterOpKind::WriteConflict:
        if (!s.exists || (!s.unbound && s.rv == op.sent))
            return std::nullopt;
        return s;
    case RegisterOpKind::Create:
    case RegisterOpKind::Write:
    case RegisterOpKind::Delete: {
        if (op.chainIndex != s.chain || s.exists != (op.kind != RegisterOpKind::Create))
            return std::nullopt;
        // A read of the current resourceVersion still waiting could never be placed later.
        if (!s.unbound && s.exists) {
            auto it = m_unlinearizedReads.find(s.rv);
            if (it != m_unlinearizedReads.end() && it->second > 0)
                return std::nullopt;
        }
        if (!preconditionHolds(op, s))
            return std::nullopt;
        s = State{op.rv, op.kind == RegisterOpKind::Delete ? 0 : op.value, s.chain + 1, op.kind != RegisterOpKind::Delete, false};
        return s;
    }
    case RegisterOpKind::PendingCreate:
    case RegisterOpKind::PendingWrite:
    case RegisterOpKind::PendingDelete:
        if (s.exists != (op.kind != RegisterOpKind::PendingCreate) || mustStayAtCurrentRv(s))
            return std::nullopt;
        return pendingEffect(op, s);
    }
    return std::nullopt;
}

// A write whose outcome is unknown taking effect: the state it leaves is unbound (its
// resourceVersion is not known).
std::optional<State> Search::pendingEffect(const RegisterOp &op, State s) const
{
    if (!preconditionHolds(op, s))
        return std::nullopt;
    // Taking effect is only worth trying when something could observe it: an orphan rv
    // or a waiting 409 on the current rv for a write, absence or a create for the others.
    if (op.kind == RegisterOpKind::PendingWrite && !orphanBetween(s.rv, nextChainRv(s)) && !waitingConflict(s))
        return std::nullopt;
    s.exists = op.kind != RegisterOpKind::PendingDelete;
    s.unbound = true;
    s.value = 0;
    return s;
}

std::optional<State> Search::stepBeforeWindow(const RegisterOp &op, State s) const
{
    switch (op.kind) {
    case RegisterOpKind::Read:
        // A revision above the horizon is some write's, which must come first.
        return op.rv <= s.rv ? std::optional<State>(s) : std::nullopt;
    case RegisterOpKind::ReadAbsent:
    case RegisterOpKind::CreateConflict:
    case RegisterOpKind::WriteConflict:
        return s;
    case RegisterOpKind::Create:
    case RegisterOpKind::Write:
    case RegisterOpKind::Delete:
        if (op.chainIndex != 0 || !preconditionHolds(op, s))
            return std::nullopt;
        return State{op.rv, op.kind == RegisterOpKind::Delete ? 0 : op.value, 1, op.kind != RegisterOpKind::Delete, false};
    case RegisterOpKind::PendingCreate:
    case RegisterOpKind::PendingWrite:
    case RegisterOpKind::PendingDelete: {
        std::optional<State> next = pendingEffect(op, s);
        if (next)
            next->preWindow = false;
        return next;
    }
    }
    return std::nullopt;
}

void Search::buildEntries()
{
    struct Entry final {
        std::int64_t time;
        bool isReturn;
        std::int32_t id;
    };
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < m_ops.size(); ++i) {
        auto id = static_cast<std::int32_t>(i);
        entries.push_back({m_ops[i].start, false, 2 * id});
        if (!m_ops[i].pending)
            entries.push_back({m_ops[i].end, true, 2 * id + 1});
    }
    // Calls before returns at equal times: touching intervals count as concurrent.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return a.time != b.time ? a.time < b.time : (!a.isReturn && b.isReturn);
    });
    m_head = static_cast<std::int32_t>(2 * m_ops.size());
    m_next.assign(m_ops.size() * 2 + 1, kNone);
    m_prev.assign(m_ops.size() * 2 + 1, kNone);
    std::int32_t last = m_head;
    for (const Entry &e : entries) {
        m_next[static_cast<std::size_t>(last)] = e.id;
        m_prev[static_cast<std::size_t>(e.id)] = last;
        last = e.id;
    }
    m_linearized.assign(m_ops.size(), 0);
}

void Search::lift(std::int32_t op)
{
    for (std::int32_t e : {2 * op, 2 * op + 1}) {
        if (e % 2 == 1 && m_ops[static_cast<std::size_t>(op)].pending)
            continue;
        auto p = m_prev[static_cast<std::size_t>(e)], n = m_next[static_cast<std::size_t>(e)];
        m_next[static_cast<std::size_t>(p)] = n;
        if (n != kNone)
            m_prev[static_cast<std::size_t>(n)] = p;
    }
}

void Search::unlift(std::int32_t op)
{
    for (std::int32_t e : {2 * op + 1, 2 * op}) {
        if (e % 2 == 1 && m_ops[static_cast<std::size_t>(op)].pending)
            continue;
        auto p = m_prev[static_cast<std::size_t>(e)], n = m_next[static_cast<std::size_t>(e)];
        m_next[static_cast<std::size_t>(p)] = e;
        if (n != kNone)
            m_prev[static_cast<std::size_t>(n)] = e;
    }
}

void Search::setLinearized(std::int32_t op)
{
    m_linearized[static_cast<std::size_t>(op)] = 1;
    const RegisterOp &o = m_ops[static_cast<std::size_t>(op)];
    if (o.kind == RegisterOpKind::Read)
        --m_unlinearizedReads[o.rv];
    else if (o.kind == RegisterOpKind::WriteConflict)
        --m_unlinearizedConflicts[o.sent];
    if (op >= m_required)
        return;
    m_highest = std::max(m_highest, op);
    while (m_frontier < m_required && m_linearized[static_cast<std::size_t>(m_frontier)])
        ++m_frontier;
}

void Search::clearLinearized(std::int32_t op)
{
    m_linearized[static_cast<std::size_t>(op)] = 0;
    const RegisterOp &o = m_ops[static_cast<std::size_t>(op)];
    if (o.kind == RegisterOpKind::Read)
        ++m_unlinearizedReads[o.rv];
    else if (o.kind == RegisterOpKind::WriteConflict)
        ++m_unlinearizedConflicts[o.sent];
    if (op >= m_required)
        return;
    m_frontier = std::min(m_frontier, op);
    while (m_highest >= 0 && !m_linearized[static_cast<std::size_t>(m_highest)])
        --m_highest;
}

CacheKey Search::cacheKey() const
{
    CacheKey key{m_frontier, {}, m_state};
    for (std::int32_t i = m_frontier + 1; i <= m_highest; ++i)
        if (m_linearized[static_cast<std::size_t>(i)])
            key.extras.push_back(i);
    for (auto i = static_cast<std::size_t>(m_required); i < m_ops.size(); ++i)
        if (m_linearized[i])
            key.extras.push_back(static_cast<std::int32_t>(i));
    return key;
}

// The chain cannot move past a resourceVersion while a read of it waits, so a stale read
// shows up as some other operation failing; name the read as the likely cause.
std::string Search::staleReadBlocking(std::int32_t culprit, const State &state) const
{
    if (state.unbound || !state.exists)
        return {};
    const RegisterOp &blocked = m_ops[static_cast<std::size_t>(culprit)];
    const RegisterOp *stale = nullptr;
    for (const RegisterOp &op : m_ops)
        if (op.kind == RegisterOpKind::Read && op.rv == state.rv && op.start > blocked.end && (!stale || op.start < stale->start))
            stale = &op;
    if (!stale)
        return {};
    return "; likely cause, a stale read: " + describe(*stale) + " returned rv " + std::to_string(state.rv)
           + " although it started after that operation ended";
}

SearchResult Search::run(std::chrono::steady_clock::time_point deadline)
{
    struct Frame final {
        std::int32_t op;
        State before;
        bool stateless; // the op left the state unchanged
    };
    std::vector<Frame> stack;
    std::unordered_set<CacheKey, CacheKeyHash> cache;
    std::int32_t remaining = m_required;
    std::size_t deepest = 0;
    std::int32_t culprit = kNone;
    State culpritState;
    std::uint64_t iterations = 0;
    std::int32_t entry = m_next[static_cast<std::size_t>(m_head)];
    while (remaining > 0) {
        if ((++iterations & 0xfff) == 0 && std::chrono::steady_clock::now() > deadline)
            return {SearchResult::Outcome::OutOfTime,
                    "time budget exhausted after linearizing " + std::to_string(deepest) + " of "
                        + std::to_string(m_required) + " completed operations"};
        if (entry == kNone)
            break; // only pending calls are left yet completed ops remain: cannot happen
        const std::int32_t op = entry / 2;
        if (entry % 2 == 0) {
            if (auto next = step(m_ops[static_cast<std::size_t>(op)], m_state)) {
                const State before = m_state;
                setLinearized(op);
                m_state = *next;
                if (cache.insert(cacheKey()).second) {
                    stack.push_back({op, before, before == m_state});
                    lift(op);
                    remaining -= op < m_required ? 1 : 0;
                    entry = m_next[static_cast<std::size_t>(m_head)];
                    continue;
                }
                m_state = before;
                clearLinearized(op);
            }
            entry = m_next[static_cast<std::size_t>(entry)];
            continue;
        }
        if (stack.size() >= deepest) {
            deepest = stack.size();
            culprit = op;
            culpritState = m_state;
        }
        // Backtrack. An operation that left the state unchanged was linearized as early as it
        // could be, which never hurts (it can be moved to the front of any linearization of
        // the rest), so not linearizing it there cannot succeed either: keep popping.
        bool resumed = false;
        while (!stack.empty() && !resumed) {
            const Frame top = stack.back();
            stack.pop_back();
            m_state = top.before;
            clearLinearized(top.op);
            unlift(top.op);
            remaining += top.op < m_required ? 1 : 0;
            entry = m_next[static_cast<std::size_t>(2 * top.op)];
            resumed = !top.stateless;
        }
        if (!resumed)
            break;
    }
    if (remaining == 0)
        return {SearchResult::Outcome::Linearizable, {}};
    std::string why = "no linearization";
    if (culprit != kNone)
        why += ": " + describe(m_ops[static_cast<std::size_t>(culprit)]) + " cannot be linearized after "
               + std::to_string(deepest) + " operations (state there: " + describe(culpritState) + ")"
               + staleReadBlocking(culprit, culpritState);
    return {SearchResult::Outcome::NotLinearizable, why};
}

} // namespace

SearchResult searchLinearization(std::vector<RegisterOp> ops, const std::vector<std::int64_t> &produced,
                                 bool initialExists, std::int64_t horizon, std::chrono::steady_clock::time_point deadline)
{
    Search search(std::move(ops), produced, initialExists, horizon);
    return search.run(deadline);
}

} // namespace rvscope::history::detail
