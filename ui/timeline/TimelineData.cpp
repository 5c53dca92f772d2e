// SPDX-License-Identifier: MIT
#include "timeline/TimelineData.h"

#include <algorithm>

#include "timeline/SortedIndices.h"

namespace rvscope::ui {
namespace {

// "configmaps/default/foo" for both the storage key and the HTTP client's key, as history does.
QString normalizedKey(const QString &key)
{
    QString result = key;
    if (result.startsWith(QLatin1String("/registry/")))
        result.remove(0, 10);
    while (result.startsWith(QLatin1Char('/')))
        result.remove(0, 1);
    return result;
}

TimelineVerb verbOf(const QString &verb)
{
    static const std::pair<QLatin1String, TimelineVerb> table[] = {
        {QLatin1String("get"), TimelineVerb::Get},         {QLatin1String("list"), TimelineVerb::List},
        {QLatin1String("create"), TimelineVerb::Create},   {QLatin1String("update"), TimelineVerb::Update},
        {QLatin1String("patch"), TimelineVerb::Patch},     {QLatin1String("delete"), TimelineVerb::Delete},
        {QLatin1String("watch"), TimelineVerb::Watch},
    };
    for (const auto &[name, value] : table)
        if (verb == name)
            return value;
    return TimelineVerb::Other;
}

TimelineOutcome outcomeOf(const engine::OperationSummary &op)
{
    if (op.pending())
        return TimelineOutcome::Pending;
    if (op.statusCode >= 200 && op.statusCode < 300)
        return op.noop ? TimelineOutcome::Noop : TimelineOutcome::Success;
    if (op.conflict() && op.reason == QLatin1String("FieldManagerConflict"))
        return TimelineOutcome::OwnershipConflict;
    // AlreadyExists is a 409 too, but no resourceVersion was stale.
    if (op.conflict() && op.reason != QLatin1String("AlreadyExists"))
        return TimelineOutcome::Conflict;
    return TimelineOutcome::Error;
}

// "default/foo" for "configmaps/default/foo", "fast" for the cluster-scoped
// "storageclasses/fast": the Objects panel's way of naming an object (its resource goes
// under it, as the lane's detail).
QString laneLabelOf(const QString &key)
{
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    return slash > 0 && slash + 1 < key.size() ? key.mid(slash + 1) : key;
}

bool isUnder(const QString &key, const QString &prefix)
{
    if (prefix.isEmpty())
        return true;
    if (!key.startsWith(prefix))
        return false;
    return key.size() == prefix.size() || prefix.endsWith(QLatin1Char('/')) || key.at(prefix.size()) == QLatin1Char('/');
}
} // namespace

void TimelineData::append(const engine::OperationBatch &batch)
{
    m_operations.reserve(m_operations.size() + std::size_t(batch.size()));
    for (const engine::OperationSummary &summary : batch) {
        TimelineOperation op;
        op.id = summary.id;
        op.rvSent = summary.rvSent;
        op.rvProduced = summary.rvProduced;
        op.startNs = summary.startNs;
        op.endNs = summary.endNs;
        op.statusCode = summary.statusCode;
        op.casRetries = summary.casRetries;
        op.verb = verbOf(summary.verb);
        op.apply = summary.apply;
        op.outcome = outcomeOf(summary);
        const QString key = normalizedKey(summary.key);
        op.keyText = intern(key);
        op.clientText = intern(summary.clientId);
        if (summary.remote) {
            appendRemote(op, key);
            continue;
        }
        op.strategyText = summary.strategy.isEmpty() ? -1 : intern(summary.strategy);
        if (!summary.injected.isEmpty()) {
            op.injectedText = intern(summary.injected);
            ++m_injected;
        }
        op.reasonText = summary.reason.isEmpty() ? -1 : intern(summary.reason);
        op.clientLane = laneOf(m_clientLanes, m_clientLaneIndex, summary.clientId, summary.clientId);
        if (m_listedByClient.size() < m_clientLanes.size()) {
            m_listedByClient.resize(m_clientLanes.size());
            m_marksAtRv.resize(m_clientLanes.size());
        }
        const bool prefixKey = op.verb == TimelineVerb::List || op.verb == TimelineVerb::Watch;
        TimelineLane &clientLane = m_clientLanes[std::size_t(op.clientLane)];
        if (clientLane.detail.isEmpty())
            clientLane.detail = summary.strategy;
        if (!prefixKey && !key.isEmpty())
            op.objectLane = objectLaneOf(key);

        const qint64 seen = op.objectLane >= 0 ? lastSeen(op.clientLane, op.objectLane, op.keyText) : 0;
        if (op.objectLane >= 0 && !m_objectLanes[std::size_t(op.objectLane)].revisions.empty())
            op.rvCurrent = m_objectLanes[std::size_t(op.objectLane)].revisions.back().rv;
        op.rvRead = op.rvSent > 0 ? op.rvSent : (op.isWrite() ? seen : 0);

        const bool succeeded = op.outcome == TimelineOutcome::Success || op.outcome == TimelineOutcome::Noop;
        const qint64 fallback = op.rvCurrent > 0 ? op.rvCurrent : m_latestRv;
        if (succeeded && op.rvProduced > 0)
            op.rvPosition = op.rvProduced;
        else
            op.rvPosition = op.rvSent > 0 ? op.rvSent : fallback;

        quint16 &marksHere = m_marksAtRv[std::size_t(op.clientLane)][op.rvPosition];
        op.stackSlot = marksHere;
        marksHere = quint16(std::min<int>(marksHere + 1, 0xFFFF));

        const int index = static_cast<int>(m_operations.size());
        const qint64 endNs = op.endNs >= 0 ? op.endNs : op.startNs;
        if (op.outcome == TimelineOutcome::Success && op.isWrite() && op.rvProduced > 0 && op.objectLane >= 0)
            detectLostUpdate(op);
        m_operations.push_back(op);
        m_indexById[op.id] = index;

        if (succeeded && op.rvProduced > 0) {
            if (op.objectLane >= 0) {
                // A write's revision is a commit; a read's (or a no-op's) is a revision seen.
                const bool commits = op.outcome == TimelineOutcome::Success && op.isWrite();
                addRevision(op.objectLane, op.rvProduced, endNs, commits ? index : -1);
                qint64 &known = m_seenByClientKey[SeenKey{op.clientLane, op.objectLane}];
                known = std::max(known, op.rvProduced);
            } else if (op.verb == TimelineVerb::List) {
                auto &listed = m_listedByClient[std::size_t(op.clientLane)];
                auto it = std::find_if(listed.begin(), listed.end(),
                                       [&op](const auto &entry) { return entry.first == op.keyText; });
                if (it == listed.end())
                    listed.emplace_back(op.keyText, op.rvProduced);
                else
                    it->second = std::max(it->second, op.rvProduced);
            }
            m_latestRv = std::max(m_latestRv, op.rvProduced);
        }
        if (op.outcome == TimelineOutcome::Conflict)
            ++m_conflicts;
        else if (op.outcome == TimelineOutcome::OwnershipConflict)
            ++m_ownershipConflicts;
        if (op.lostUpdate())
            ++m_lostUpdates;
        extend(op.rvLow(), op.rvHigh(), op.startNs, endNs);
        placeInClientLane(index);
    }
}

int TimelineData::objectLaneOf(const QString &key)
{
    const int lane = laneOf(m_objectLanes, m_objectLaneIndex, key, laneLabelOf(key));
    TimelineLane &objectLane = m_objectLanes[std::size_t(lane)];
    if (objectLane.detail.isEmpty() && objectLane.label != key)
        objectLane.detail = key.left(key.indexOf(QLatin1Char('/')));
    return lane;
}

void TimelineData::appendRemote(TimelineOperation &op, const QString &key)
{
    // Known by its commit only: a revision on the object's lane, no client lane, no arrow.
    if (key.isEmpty() || op.rvProduced <= 0)
        return;
    op.remote = true;
    ++m_remote;
    op.objectLane = objectLaneOf(key);
    op.rvPosition = op.rvProduced;
    const auto &revisions = m_objectLanes[std::size_t(op.objectLane)].revisions;
    if (!revisions.empty())
        op.rvCurrent = revisions.back().rv;
    const int index = static_cast<int>(m_operations.size());
    m_operations.push_back(op);
    m_indexById[op.id] = index;
    addRevision(op.objectLane, op.rvProduced, op.endNs >= 0 ? op.endNs : op.startNs, index);
    m_latestRv = std::max(m_latestRv, op.rvProduced);
    // Only its arrival is known (its start is "some time before"): that is where it sits.
    const qint64 arrival = op.endNs >= 0 ? op.endNs : op.startNs;
    extend(op.rvProduced, op.rvProduced, arrival, arrival);
}

void TimelineData::clear()
{
    *this = TimelineData();
}

int TimelineData::indexOf(quint64 id) const
{
    auto it = m_indexById.find(id);
    return it == m_indexById.end() ? -1 : it->second;
}

const QString &TimelineData::text(int index) const
{
    static const QString none;
    return index >= 0 && index < m_texts.size() ? m_texts.at(index) : none;
}

int TimelineData::intern(const QString &text)
{
    auto it = m_textIndex.constFind(text);
    if (it != m_textIndex.constEnd())
        return it.value();
    m_texts.append(text);
    const int index = int(m_texts.size() - 1);
    m_textIndex.insert(text, index);
    return index;
}

int TimelineData::laneOf(std::vector<TimelineLane> &lanes, QHash<QString, int> &index, const QString &name,
                         const QString &label)
{
    auto it = index.constFind(name);
    if (it != index.constEnd())
        return it.value();
    TimelineLane lane;
    lane.name = name;
    const bool labelTaken = std::any_of(lanes.begin(), lanes.end(), [&label](const TimelineLane &other) {
        return other.label == label;
    });
    lane.label = labelTaken ? name : label;
    lanes.push_back(std::move(lane));
    const int laneIndex = int(lanes.size() - 1);
    index.insert(name, laneIndex);
    return laneIndex;
}

void TimelineData::addRevision(int lane, qint64 rv, qint64 timeNs, int operation)
{
    auto &revisions = m_objectLanes[std::size_t(lane)].revisions;
    if (revisions.empty() || revisions.back().rv < rv) {
        revisions.push_back(TimelineRevision{rv, timeNs, operation, false});
        extend(rv, rv, timeNs, timeNs);
        return;
    }
    auto it = std::lower_bound(revisions.begin(), revisions.end(), rv,
                               [](const TimelineRevision &r, qint64 value) { return r.rv < value; });
    if (it != revisions.end() && it->rv == rv) {
        // A revision first seen by a read, and then its commit arriving late: the commit wins.
        if (operation >= 0 && it->operation < 0) {
            it->operation = operation;
            it->timeNs = timeNs;
        }
        return;
    }
    revisions.insert(it, TimelineRevision{rv, timeNs, operation, false});
    extend(rv, rv, timeNs, timeNs);
}

qint64 TimelineData::lastSeen(int client, int objectLane, int keyText) const
{
    qint64 seen = 0;
    auto it = m_seenByClientKey.find(SeenKey{client, objectLane});
    if (it != m_seenByClientKey.end())
        seen = it->second;
    if (std::size_t(client) < m_listedByClient.size()) {
        const QString &key = text(keyText);
        for (const auto &[prefix, rv] : m_listedByClient[std::size_t(client)])
            if (rv > seen && isUnder(key, text(prefix)))
                seen = rv;
    }
    return seen;
}

void TimelineData::detectLostUpdate(TimelineOperation &op)
{
    // A server-side apply overwrites nothing unseen: it changes only fields its manager owns,
    // and another manager's field only after a 409 told it, with force.
    if (op.rvSent != 0 || op.apply || (op.verb != TimelineVerb::Update && op.verb != TimelineVerb::Patch))
        return;
    auto &revisions = m_objectLanes[std::size_t(op.objectLane)].revisions;
    auto it = std::lower_bound(revisions.begin(), revisions.end(), op.rvProduced,
                               [](const TimelineRevision &r, qint64 value) { return r.rv < value; });
    // Walk back over the revisions between what the client saw and what it produced; the
    // newest one another client committed is the one this write overwrote unseen.
    while (it != revisions.begin()) {
        --it;
        if (it->rv <= op.rvRead)
            return;
        if (it->operation < 0 || m_operations[std::size_t(it->operation)].clientLane == op.clientLane)
            continue;
        op.rvLost = it->rv;
        op.lostClientText = m_operations[std::size_t(it->operation)].clientText;
        it->overwrittenUnseen = true;
        return;
    }
}

void TimelineData::placeInClientLane(int index)
{
    const TimelineOperation &op = m_operations[std::size_t(index)];
    TimelineLane &lane = m_clientLanes[std::size_t(op.clientLane)];
    insertSorted(lane.byRv, index, [this](int i) { return m_operations[std::size_t(i)].rvHigh(); });
    insertSorted(lane.byTime, index, [this](int i) {
        const TimelineOperation &other = m_operations[std::size_t(i)];
        return other.endNs >= 0 ? other.endNs : other.startNs;
    });
    lane.maxRvSpan = std::max(lane.maxRvSpan, op.rvHigh() - op.rvLow());
    if (op.endNs >= 0)
        lane.maxDurationNs = std::max(lane.maxDurationNs, op.endNs - op.startNs);
}

void TimelineData::extend(qint64 rvLow, qint64 rvHigh, qint64 startNs, qint64 endNs)
{
    if (rvLow > 0 || rvHigh > 0) {
        const qint64 low = rvLow > 0 ? rvLow : rvHigh;
        m_minRv = m_minRv == 0 ? low : std::min(m_minRv, low);
        m_maxRv = std::max(m_maxRv, rvHigh);
    }
    m_minNs = m_hasTime ? std::min(m_minNs, startNs) : startNs;
    m_maxNs = m_hasTime ? std::max(m_maxNs, endNs) : endNs;
    m_hasTime = true;
}

} // namespace rvscope::ui
