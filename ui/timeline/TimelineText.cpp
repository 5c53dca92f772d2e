// SPDX-License-Identifier: MIT
#include "timeline/TimelineText.h"

#include <algorithm>
#include <cmath>

#include <QtCore/QStringList>

#include "timeline/TimelineData.h"
#include "timeline/TimelineWatchOverlay.h"

namespace rvscope::ui::TimelineText {
namespace {
QString revisionText(qint64 rv)
{
    return rv > 0 ? QString::number(rv) : QStringLiteral("none");
}

QString statusText(const TimelineData &data, const TimelineOperation &op)
{
    if (op.outcome == TimelineOutcome::Pending)
        return QStringLiteral("pending (no response yet)");
    QString status = op.statusCode > 0 ? QString::number(op.statusCode) : QStringLiteral("no response");
    const QString &reason = data.text(op.reasonText);
    if (!reason.isEmpty())
        status += QLatin1Char(' ') + reason;
    else if (op.statusCode >= 200 && op.statusCode < 300)
        status += QStringLiteral(" OK");
    return status;
}
} // namespace

QLatin1String verbName(TimelineVerb verb)
{
    switch (verb) {
    case TimelineVerb::Get:
        return QLatin1String("get");
    case TimelineVerb::List:
        return QLatin1String("list");
    case TimelineVerb::Create:
        return QLatin1String("create");
    case TimelineVerb::Update:
        return QLatin1String("update");
    case TimelineVerb::Patch:
        return QLatin1String("patch");
    case TimelineVerb::Delete:
        return QLatin1String("delete");
    case TimelineVerb::Watch:
        return QLatin1String("watch");
    case TimelineVerb::Other:
        break;
    }
    return QLatin1String("other");
}

QString duration(qint64 ns)
{
    const double value = double(ns);
    if (std::abs(value) < 1e3)
        return QStringLiteral("%1 ns").arg(ns);
    if (std::abs(value) < 1e6)
        return QStringLiteral("%1 \u00b5s").arg(value / 1e3, 0, 'f', 1);
    if (std::abs(value) < 1e9)
        return QStringLiteral("%1 ms").arg(value / 1e6, 0, 'f', 2);
    return QStringLiteral("%1 s").arg(value / 1e9, 0, 'f', 2);
}

QString timeOffset(double ns, double stepNs)
{
    struct Unit {
        double ns;
        const char *name;
    };
    static const Unit units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "\u00b5s"}, {1, "ns"}};
    for (const Unit &unit : units) {
        if (stepNs >= unit.ns || unit.ns == 1) {
            const double steps = stepNs / unit.ns;
            const int decimals = steps >= 1 ? 0 : int(std::ceil(-std::log10(steps)));
            return QString::number(ns / unit.ns, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit.name);
        }
    }
    return QString::number(ns, 'f', 0);
}

QString describeOperation(const TimelineData &data, int operation)
{
    const TimelineOperation &op = data.operation(operation);
    QStringList lines;
    if (op.remote) {
        lines << QStringLiteral("written by another instance (arrived by watch)");
        lines << QStringLiteral("%1 %2  #%3").arg(verbName(op.verb), data.text(op.keyText)).arg(op.id);
        lines << QStringLiteral("rv %1").arg(revisionText(op.rvProduced));
        return lines.join(QLatin1Char('\n'));
    }
    QString client = data.text(op.clientText);
    if (op.strategyText >= 0)
        client += QStringLiteral(" (%1)").arg(data.text(op.strategyText));
    lines << QStringLiteral("client %1").arg(client);
    lines << QStringLiteral("%1 %2  #%3").arg(verbName(op.verb), data.text(op.keyText)).arg(op.id);
    lines << QStringLiteral("RV sent %1 \u2192 produced %2")
                 .arg(op.rvSent > 0 ? QString::number(op.rvSent) : QStringLiteral("none (unconditional)"),
                      revisionText(op.rvProduced));
    lines << QStringLiteral("status %1").arg(statusText(data, op));
    if (op.endNs >= 0)
        lines << QStringLiteral("latency %1").arg(duration(op.endNs - op.startNs));
    if (op.outcome == TimelineOutcome::Conflict)
        lines << QStringLiteral("conflict: sent stale rv %1, current rv %2")
                     .arg(revisionText(op.rvSent), revisionText(op.rvCurrent));
    if (op.outcome == TimelineOutcome::OwnershipConflict)
        lines << QStringLiteral("ownership conflict (server-side apply): another manager owns a field it changes");
    if (op.injectedText >= 0)
        lines << QStringLiteral("INJECTED by a fault rule (%1): not the server's own outcome").arg(data.text(op.injectedText));
    if (op.outcome == TimelineOutcome::Noop)
        lines << QStringLiteral("no-op write: nothing changed, no new revision");
    if (op.casRetries > 0)
        lines << QStringLiteral("server-side CAS retries: %1").arg(op.casRetries);
    if (op.lostUpdate())
        lines << QStringLiteral("LOST UPDATE: based on rv %1, overwrote rv %2 by %3 unseen")
                     .arg(revisionText(op.rvRead), QString::number(op.rvLost), data.text(op.lostClientText));
    return lines.join(QLatin1Char('\n'));
}

QString describeRevision(const TimelineData &data, int objectLane, int revision)
{
    const TimelineLane &lane = data.objectLanes()[std::size_t(objectLane)];
    const TimelineRevision &r = lane.revisions[std::size_t(revision)];
    QStringList lines;
    lines << QStringLiteral("%1 at rv %2").arg(lane.name).arg(r.rv);
    if (r.operation >= 0) {
        const TimelineOperation &op = data.operation(r.operation);
        if (op.remote)
            lines << QStringLiteral("committed by another instance (%1, arrived by watch)  #%2").arg(verbName(op.verb)).arg(op.id);
        else
            lines << QStringLiteral("committed by %1 %2  #%3").arg(data.text(op.clientText), verbName(op.verb)).arg(op.id);
    } else {
        lines << QStringLiteral("seen by a read (committed before the run, or by an unjournaled write)");
    }
    if (r.overwrittenUnseen)
        lines << QStringLiteral("LOST: overwritten by a write that never saw it");
    return lines.join(QLatin1Char('\n'));
}

QString describeDelivery(const TimelineData &data, const TimelineWatchOverlay &overlay, int delivery)
{
    const TimelineDelivery &d = overlay.delivery(delivery);
    const QString &key = overlay.groups()[std::size_t(d.group)].key;
    QStringList lines;
    lines << QStringLiteral("watcher %1").arg(overlay.watcherId());
    lines << (key.isEmpty() ? overlay.text(d.typeText) : QStringLiteral("%1 %2").arg(overlay.text(d.typeText), key));
    if (d.rv > 0)
        lines << QStringLiteral("rv %1").arg(d.rv);
    QString delivered = QStringLiteral("delivered at +%1").arg(duration(d.timeNs - data.minNs()));
    if (d.group > 0) {
        // How long after its write completed (the journaled commit of that revision).
        for (const TimelineLane &lane : data.objectLanes()) {
            if (lane.name != key)
                continue;
            const auto it = std::lower_bound(lane.revisions.begin(), lane.revisions.end(), d.rv,
                                             [](const TimelineRevision &r, qint64 rv) { return r.rv < rv; });
            if (it != lane.revisions.end() && it->rv == d.rv && it->operation >= 0)
                delivered += QStringLiteral(", %1 after its write completed").arg(duration(d.timeNs - it->timeNs));
            break;
        }
    }
    lines << delivered;
    switch (d.flag) {
    case DeliveryFlag::Duplicate:
        lines << QStringLiteral("DUPLICATE: rv %1 was already delivered").arg(d.rv);
        break;
    case DeliveryFlag::Backwards:
        lines << QStringLiteral("OUT OF ORDER: rv %1 after rv %2").arg(d.rv).arg(d.previousRv);
        break;
    case DeliveryFlag::Error:
        lines << QStringLiteral("the server closed the watch: %1")
                     .arg(d.messageText >= 0 ? overlay.text(d.messageText) : QStringLiteral("ERROR"));
        break;
    case DeliveryFlag::None:
        break;
    }
    return lines.join(QLatin1Char('\n'));
}

QString describeGap(const TimelineData &data, const TimelineWatchOverlay &overlay, int objectLane, int revision)
{
    const TimelineLane &lane = data.objectLanes()[std::size_t(objectLane)];
    const TimelineRevision &r = lane.revisions[std::size_t(revision)];
    QStringList lines;
    lines << QStringLiteral("GAP: watcher %1 never received rv %2").arg(overlay.watcherId()).arg(r.rv);
    lines << QStringLiteral("%1, committed by %2 %3  #%4")
                 .arg(lane.name, data.text(data.operation(r.operation).clientText),
                      verbName(data.operation(r.operation).verb))
                 .arg(data.operation(r.operation).id);
    return lines.join(QLatin1Char('\n'));
}

} // namespace rvscope::ui::TimelineText
