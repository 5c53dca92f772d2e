// SPDX-License-Identifier: MIT
#pragma once

#include <QtGui/QColor>
#include <QtGui/QFont>

class QPalette;

namespace rvscope::ui {

// Colours, fonts and sizes of the timeline, derived from the widget's palette (light or dark)
// and the presentation scale (1: desk, 1.5–2.5: projector). The mark colours are the
// Okabe–Ito colour-blind safe set, and every kind of mark also has its own shape.
struct TimelineStyle final {
    static TimelineStyle from(const QPalette &palette, const QFont &font, double presentationScale);

    double scale = 1;
    bool dark = false;

    QColor background;
    QColor gutter;
    QColor text;
    QColor mutedText;
    QColor laneLine;
    QColor grid;
    QColor selection;

    QColor success;
    QColor conflict;
    QColor error;
    QColor casRetry;
    QColor lost;
    QColor revision;
    QColor arrow; // a healthy write's arrow: the success colour, lighter
    QColor watch;      // the watch overlay's deliveries
    QColor watchAlarm; // its gaps, duplicates, steps backwards and ERROR (the Streams panel's red)
    QColor elsewhere;  // writes another rvscope instance made (the ring around their revisions)

    QFont labelFont;
    QFont detailFont;
    QFont markFont; // revision labels and ruler
    QFont headerFont;

    double markerRadius = 5;
    double laneHeight = 34;
    double headerHeight = 20;
    double rulerHeight = 24;
    double gutterWidth = 150;
};

} // namespace rvscope::ui
