// SPDX-License-Identifier: MIT
#pragma once

#include <unordered_map>
#include <utility>
#include <vector>

#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include "engine/EngineTypes.h"
#include "timeline/TimelineTypes.h"

namespace rvscope::ui {

// The operations the timeline paints, with what it derives from them: one lane per object key
// (first seen first) and one per client, each object's revisions, and per operation its
// outcome, the revision it was based on, a 409's live revision and lost updates.
//
// append() expects operations in completion order, as the engine batches them, and derives
// facts from the operations appended before: a 409's rvCurrent is the key's latest revision
// known when it is appended; a client's "last seen" revision of a key is the rvProduced of its
// latest successful get or write of the key, or of a list whose key is a prefix of it.
//
// A write another instance made (OperationSummary::remote) has no client lane (clientLane -1):
// it is a revision on its object's lane, and counts as another client's revision.
//
// A lost update is a successful unconditional update or patch (rvSent == 0) by client C on
// key K such that the latest revision of K committed by another client before the write's
// own revision is newer than the revision C last saw of K: C overwrote it unseen.
//
// Storage is flat (vectors and indices, strings interned), so 100k+ operations cost a few
// megabytes and append() is O(batch) amortized. GUI thread only; no signals.
class TimelineData final {
public:
    void append(const engine::OperationBatch &batch);
    void clear();

    int operationCount() const { return static_cast<int>(m_operations.size()); }
    const TimelineOperation &operation(int index) const { return m_operations[std::size_t(index)]; }
    // The index of the operation with this id, -1 if none.
    int indexOf(quint64 id) const;
    const QString &text(int index) const;

    const std::vector<TimelineLane> &objectLanes() const { return m_objectLanes; }
    const std::vector<TimelineLane> &clientLanes() const { return m_clientLanes; }

    // The extent of all marks on each axis (rv positions and ns); empty() when no operation.
    bool empty() const { return m_operations.empty(); }
    qint64 minRv() const { return m_minRv; }
    qint64 maxRv() const { return m_maxRv; }
    qint64 minNs() const { return m_minNs; }
    qint64 maxNs() const { return m_maxNs; }

    int conflictCount() const { return m_conflicts; }
    int lostUpdateCount() const { return m_lostUpdates; }
    int remoteCount() const { return m_remote; }
    // Operations a fault rule acted on (their outcome is injected, not the server's own).
    int injectedCount() const { return m_injected; }
    int ownershipConflictCount() const { return m_ownershipConflicts; }

private:
    struct SeenKey final {
        int client = -1;
        int key = -1;
        bool operator==(const SeenKey &) const = default;
    };
    struct SeenKeyHash final {
        std::size_t operator()(const SeenKey &k) const { return std::size_t(k.client) * 1000003u ^ std::size_t(k.key); }
    };

    int intern(const QString &text);
    int laneOf(std::vector<TimelineLane> &lanes, QHash<QString, int> &index, const QString &name, const QString &label);
    int objectLaneOf(const QString &key);
    // A write by another instance (summary.remote): its revision on the object's lane only.
    void appendRemote(TimelineOperation &op, const QString &key);
    void addRevision(int lane, qint64 rv, qint64 timeNs, int operation);
    qint64 lastSeen(int client, int objectLane, int keyText) const;
    void detectLostUpdate(TimelineOperation &op);
    void placeInClientLane(int index);
    void extend(qint64 rvLow, qint64 rvHigh, qint64 startNs, qint64 endNs);

    std::vector<TimelineOperation> m_operations;
    std::unordered_map<quint64, int> m_indexById;
    QStringList m_texts;
    QHash<QString, int> m_textIndex;
    std::vector<TimelineLane> m_objectLanes;
    std::vector<TimelineLane> m_clientLanes;
    QHash<QString, int> m_objectLaneIndex;
    QHash<QString, int> m_clientLaneIndex;
    std::unordered_map<SeenKey, qint64, SeenKeyHash> m_seenByClientKey; // client × object lane
    // Per client lane: the key prefixes it listed (text index) and the latest list revision.
    std::vector<std::vector<std::pair<int, qint64>>> m_listedByClient;
    // Per client lane: how many operations sit at each rvPosition (for stackSlot).
    std::vector<std::unordered_map<qint64, quint16>> m_marksAtRv;
    qint64 m_latestRv = 0; // the largest revision known so far, on any key
    qint64 m_minRv = 0;
    qint64 m_maxRv = 0;
    qint64 m_minNs = 0;
    qint64 m_maxNs = 0;
    bool m_hasTime = false;
    int m_conflicts = 0;
    int m_lostUpdates = 0;
    int m_remote = 0;
    int m_injected = 0;
    int m_ownershipConflicts = 0;
};

} // namespace rvscope::ui
