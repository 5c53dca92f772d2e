// SPDX-License-Identifier: MIT
#include "timeline/TimelineText.h"

#include <cmath>

#include <QtCore/QStringList>

#include "timeline/TimelineData.h"

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
        lines << QStringLiteral("committed by %1 %2  #%3").arg(data.text(op.clientText), verbName(op.verb)).arg(op.id);
    } else {
        lines << QStringLiteral("seen by a read (committed before the run, or by an unjournaled write)");
    }
    if (r.overwrittenUnseen)
        lines << QStringLiteral("LOST: overwritten by a write that never saw it");
    return lines.join(QLatin1Char('\n'));
}

} // namespace rvscope::ui::TimelineText
