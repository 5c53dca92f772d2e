// SPDX-License-Identifier: MIT
#pragma once

#include <QtGui/QPen>

#include "timeline/TimelineTypes.h"

// Private to TimelinePainter*.cpp: small helpers the lane, mark and frame painters share.
namespace rvscope::ui::TimelinePainterPrivate {

// Arrow pen widths at presentation scale 1.
inline constexpr double ARROW_WIDTH = 1.3;
inline constexpr double LOST_ARROW_WIDTH = 2.2;

inline MarkerKind markerKindOf(const TimelineOperation &op)
{
    switch (op.outcome) {
    case TimelineOutcome::Success:
        return MarkerKind::Success;
    case TimelineOutcome::Conflict:
        return MarkerKind::Conflict;
    case TimelineOutcome::OwnershipConflict:
        return MarkerKind::OwnershipConflict;
    case TimelineOutcome::Error:
        return MarkerKind::Error;
    case TimelineOutcome::Noop:
        return MarkerKind::Noop;
    case TimelineOutcome::Pending:
        break;
    }
    return MarkerKind::Pending;
}

inline QPen pen(const QColor &colour, double width, Qt::PenStyle style = Qt::SolidLine)
{
    QPen result(colour, width, style);
    result.setCapStyle(Qt::FlatCap);
    return result;
}

} // namespace rvscope::ui::TimelinePainterPrivate
