// SPDX-License-Identifier: MIT
#pragma once

#include <QtGui/QColor>
#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

namespace rvscope::ui {

// The red of what went wrong (a failed request, a watch that lost events, a stopped server),
// readable on a light and on a dark palette.
inline QColor alarmColour(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0xFF, 0x6B, 0x6B) : QColor(0xC6, 0x28, 0x28);
}

// The same on the application's palette, for item models (which have no widget).
inline QColor alarmColour()
{
    return alarmColour(QGuiApplication::palette());
}

} // namespace rvscope::ui
