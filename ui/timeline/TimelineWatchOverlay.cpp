// SPDX-License-Identifier: MIT
#include "timeline/TimelineWatchOverlay.h"

#include <algorithm>
#include <cmath>

#include "timeline/SortedIndices.h"
#include "timeline/TimelineData.h"
#include "timeline/TimelineGeometry.h"

namespace rvscope::ui {
namespace {
const QString BOOKMARK = QStringLiteral("BOOKMARK");
const QString ERROR_TYPE = QStringLiteral("ERROR");
const QString ADDED = QStringLiteral("ADDED");
} // namespace

bool TimelineDeliveryGroup::delivered(qint64 rv) const
{
    return std::binary_search(rvs.begin(), rvs.end(), rv);
}

TimelineWatchOverlay::TimelineWatchOverlay()
{
    reset();
}

void TimelineWatchOverlay::reset(const QString &watcherId)
{
    m_watcherId = watcherId;
    m_operationId = 0;
    m_deliveries.clear();
    m_groups.clear();
    m_groups.emplace_back(); // group 0: BOOKMARK and ERROR events
    m_groupByKey.clear();
    m_texts.clear();
    m_lastRv = 0;
    m_hasLastRv = false;
    m_initialState = true;
    m_firstRv = 0;
    m_initialRv = 0;
    m_maxRv = 0;
    m_flagged = 0;
    m_latestNs = 0;
}

int TimelineWatchOverlay::intern(const QString &text)
{
    const int found = int(m_texts.indexOf(text)); // a handful: event types and ERROR messages
    if (found >= 0)
        return found;
    m_texts.append(text);
    return int(m_texts.size()) - 1;
}

int TimelineWatchOverlay::groupFor(const engine::WatchEventSummary &event, bool keyed)
{
    if (!keyed)
        return 0;
    const auto found = m_groupByKey.constFind(event.key);
    if (found != m_groupByKey.constEnd())
        return *found;
    TimelineDeliveryGroup group;
    group.key = event.key;
    m_groups.push_back(std::move(group));
    const int index = int(m_groups.size()) - 1;
    m_groupByKey.insert(event.key, index);
    return index;
}

int TimelineWatchOverlay::append(const engine::WatchEventBatch &batch, const TimelineData &data)
{
    if (!active())
        return 0;
    int taken = 0;
    for (const engine::WatchEventSummary &event : batch) {
        if (event.watcherId != m_watcherId)
            continue;
        ++taken;
        if (m_operationId == 0)
            m_operationId = event.operationId;
        const bool error = event.type == ERROR_TYPE;
        const bool keyed = !error && event.type != BOOKMARK && !event.key.isEmpty();
        TimelineDelivery delivery;
        delivery.rv = event.resourceVersion;
        delivery.rvPosition = event.resourceVersion;
        delivery.timeNs = event.timeNs;
        delivery.previousRv = m_lastRv;
        delivery.typeText = intern(event.type);
        delivery.group = groupFor(event, keyed);
        if (error) {
            if (!event.message.isEmpty())
                delivery.messageText = intern(event.message);
            // An ERROR carries no revision: it sits where the stream stopped, or where the
            // watch asked to start (a 410 for a too old resourceVersion).
            if (delivery.rvPosition <= 0)
                delivery.rvPosition = m_maxRv;
            if (delivery.rvPosition <= 0) {
                const int watch = m_operationId != 0 ? data.indexOf(m_operationId) : -1;
                delivery.rvPosition = watch >= 0 ? std::max(data.operation(watch).rvSent, data.operation(watch).rvPosition)
                                                 : data.maxRv();
            }
        }
        TimelineDeliveryGroup &group = m_groups[std::size_t(delivery.group)];
        flag(delivery, group, keyed, event.type == ADDED);
        m_latestNs = std::max(m_latestNs, delivery.timeNs);
        const int index = int(m_deliveries.size());
        m_deliveries.push_back(delivery);
        const auto byRv = [this](int i) { return m_deliveries[std::size_t(i)].rvPosition; };
        const auto byTime = [this](int i) { return m_deliveries[std::size_t(i)].timeNs; };
        insertSorted(group.byRv, index, byRv);
        insertSorted(group.byTime, index, byTime);
        if (keyed) {
            group.rvs.insert(std::upper_bound(group.rvs.begin(), group.rvs.end(), delivery.rv), delivery.rv);
            if (m_firstRv == 0)
                m_firstRv = delivery.rv;
            m_maxRv = std::max(m_maxRv, delivery.rv);
        }
    }
    return taken;
}

void TimelineWatchOverlay::flag(TimelineDelivery &delivery, const TimelineDeliveryGroup &group, bool keyed,
                                bool initialAdd)
{
    // The same rules as the Streams panel's WatchEventModel, so both count the same anomalies.
    if (m_initialState && initialAdd) {
        m_lastRv = std::max(m_lastRv, delivery.rv);
        m_initialRv = m_lastRv;
        m_hasLastRv = true;
        return;
    }
    if (!keyed) {
        if (m_texts[delivery.typeText] == ERROR_TYPE) {
            m_initialState = false;
            delivery.flag = DeliveryFlag::Error;
            ++m_flagged;
        }
        return;
    }
    m_initialState = false;
    if (m_hasLastRv && delivery.rv <= m_lastRv) {
        delivery.flag = group.delivered(delivery.rv) ? DeliveryFlag::Duplicate : DeliveryFlag::Backwards;
        ++m_flagged;
    }
    m_lastRv = delivery.rv;
    m_hasLastRv = true;
}

const TimelineDeliveryGroup *TimelineWatchOverlay::groupOf(const QString &key) const
{
    const auto found = m_groupByKey.constFind(key);
    return found == m_groupByKey.constEnd() ? nullptr : &m_groups[std::size_t(*found)];
}

WatchGapRange TimelineWatchOverlay::gapRange(const TimelineData &data) const
{
    WatchGapRange range;
    const int watch = m_operationId != 0 ? data.indexOf(m_operationId) : -1;
    if (watch < 0 || m_maxRv <= 0)
        return range;
    const TimelineOperation &op = data.operation(watch);
    if (op.verb != TimelineVerb::Watch || op.keyText < 0)
        return range;
    range.prefix = data.text(op.keyText);
    if (!range.prefix.endsWith(QLatin1Char('/')))
        range.prefix += QLatin1Char('/');
    // From the resourceVersion it resumed from; else after the first state it was sent (a
    // leading run of ADDED events) or its first event: what came before is not owed.
    range.floor = op.rvSent > 0 ? op.rvSent : (m_initialRv > 0 ? m_initialRv : m_firstRv);
    range.ceiling = m_maxRv;
    return range;
}

bool TimelineWatchOverlay::isGap(const TimelineData &data, const WatchGapRange &range, int objectLane, int revision) const
{
    const TimelineLane &lane = data.objectLanes()[std::size_t(objectLane)];
    const TimelineRevision &committed = lane.revisions[std::size_t(revision)];
    if (committed.operation < 0 || !range.covers(lane.name, committed.rv))
        return false;
    const TimelineDeliveryGroup *group = groupOf(lane.name);
    return !group || !group->delivered(committed.rv);
}

std::optional<QPointF> TimelineWatchOverlay::position(const TimelineData &data, const TimelineGeometry &geometry,
                                                      int index) const
{
    const TimelineDelivery &delivery = m_deliveries[std::size_t(index)];
    const double x = geometry.xOf(geometry.axis == TimelineAxis::ResourceVersion ? delivery.rvPosition : delivery.timeNs);
    if (delivery.group == 0)
        return QPointF(x, geometry.keylessDeliveryY());
    const auto &lanes = data.objectLanes();
    const QString &key = m_groups[std::size_t(delivery.group)].key;
    for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
        if (lanes[lane].name == key)
            return QPointF(x, geometry.deliveryY(int(lane)));
    }
    return std::nullopt;
}

WatchOverlayHit TimelineWatchOverlay::hitTest(const TimelineData &data, const TimelineGeometry &geometry,
                                              const QPointF &point) const
{
    WatchOverlayHit hit;
    if (!active() || !geometry.plot().contains(point))
        return hit;
    const double tolerance = std::max(geometry.markerRadius + 2, 6.0);
    const bool rvAxis = geometry.axis == TimelineAxis::ResourceVersion;
    const TimelineDeliveryGroup *group = nullptr;
    int lane = -1;
    if (std::abs(point.y() - geometry.keylessDeliveryY()) <= std::min(tolerance, geometry.headerHeight / 2)) {
        group = &keylessGroup();
    } else {
        const double offset = point.y() - geometry.objectHeaderTop() - geometry.headerHeight;
        lane = offset >= 0 ? int(offset / geometry.laneHeight) : -1;
        if (lane < 0 || lane >= geometry.objectLanes || std::abs(point.y() - geometry.deliveryY(lane)) > tolerance)
            return hit;
        group = groupOf(data.objectLanes()[std::size_t(lane)].name);
    }
    // Within the plot the raw values are bounded: no overflow to guard against.
    const auto low = qint64(std::floor(geometry.rawAt(point.x() - tolerance)));
    const auto high = qint64(std::ceil(geometry.rawAt(point.x() + tolerance)));
    double best = tolerance;
    if (group) {
        const std::vector<int> &ordered = rvAxis ? group->byRv : group->byTime;
        const auto position = [this, rvAxis](int index) {
            const TimelineDelivery &delivery = m_deliveries[std::size_t(index)];
            return rvAxis ? delivery.rvPosition : delivery.timeNs;
        };
        auto it = std::lower_bound(ordered.begin(), ordered.end(), low,
                                   [&position](int index, qint64 value) { return position(index) < value; });
        for (; it != ordered.end() && position(*it) <= high; ++it) {
            const double distance = std::abs(geometry.xOf(position(*it)) - point.x());
            if (distance <= best) { // the last of equals: the newest delivery at that place
                best = distance;
                hit.delivery = *it;
            }
        }
        if (hit.delivery >= 0)
            return hit;
    }
    const WatchGapRange range = gapRange(data);
    if (lane < 0 || !range.valid() || !data.objectLanes()[std::size_t(lane)].name.startsWith(range.prefix))
        return hit;
    const auto &revisions = data.objectLanes()[std::size_t(lane)].revisions;
    for (std::size_t i = 0; i < revisions.size(); ++i) {
        const qint64 at = rvAxis ? revisions[i].rv : revisions[i].timeNs;
        if (at < low || at > high || !isGap(data, range, lane, int(i)))
            continue;
        const double distance = std::abs(geometry.revisionX(revisions[i]) - point.x());
        if (distance <= best) {
            best = distance;
            hit.objectLane = lane;
            hit.revision = int(i);
        }
    }
    return hit;
}

} // namespace rvscope::ui
