// SPDX-License-Identifier: MIT
#include "timeline/TimelineStyle.h"

#include <QtGui/QPalette>

namespace rvscope::ui {
namespace {
QFont scaledFont(const QFont &base, double scale, double relative, bool bold = false)
{
    QFont font = base;
    const double points = base.pointSizeF() > 0 ? base.pointSizeF() : 9.0;
    font.setPointSizeF(points * relative * scale);
    font.setBold(bold);
    return font;
}

QColor mixed(const QColor &a, const QColor &b, double weightOfB)
{
    return QColor::fromRgbF(float(a.redF() * (1 - weightOfB) + b.redF() * weightOfB),
                            float(a.greenF() * (1 - weightOfB) + b.greenF() * weightOfB),
                            float(a.blueF() * (1 - weightOfB) + b.blueF() * weightOfB));
}
} // namespace

TimelineStyle TimelineStyle::from(const QPalette &palette, const QFont &font, double presentationScale)
{
    TimelineStyle style;
    style.scale = presentationScale;
    style.background = palette.color(QPalette::Base);
    style.text = palette.color(QPalette::Text);
    style.dark = style.background.lightnessF() < 0.5;
    style.gutter = palette.color(QPalette::Window);
    if (style.gutter == style.background)
        style.gutter = mixed(style.background, style.text, 0.04);
    style.mutedText = mixed(style.background, style.text, 0.6);
    style.laneLine = mixed(style.background, style.text, 0.18);
    style.grid = mixed(style.background, style.text, 0.08);
    style.selection = palette.color(QPalette::Highlight);

    // Okabe–Ito: blue, vermillion, orange, reddish purple; brighter variants on dark backgrounds.
    style.success = style.dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
    style.conflict = style.dark ? QColor(0xFF, 0x6A, 0x3D) : QColor(0xD5, 0x5E, 0x00);
    style.error = style.dark ? QColor(0xA0, 0xA0, 0xA0) : QColor(0x80, 0x80, 0x80);
    style.casRetry = QColor(0xE6, 0x9F, 0x00);
    style.lost = style.dark ? QColor(0xFF, 0x4F, 0xE0) : QColor(0xC0, 0x10, 0xB0);
    style.revision = mixed(style.background, style.text, 0.85);
    style.arrow = mixed(style.background, style.success, style.dark ? 0.7 : 0.55);
    // Okabe–Ito bluish green for what a watcher received; alarms in the Streams panel's red.
    style.watch = style.dark ? QColor(0x2E, 0xC4, 0x8F) : QColor(0x00, 0x9E, 0x73);
    style.watchAlarm = style.dark ? QColor(0xFF, 0x6B, 0x6B) : QColor(0xC6, 0x28, 0x28);
    // Okabe–Ito sky blue (yellow on dark, where sky blue is the success colour): another instance.
    style.elsewhere = style.dark ? QColor(0xF0, 0xE4, 0x42) : QColor(0x56, 0xB4, 0xE9);

    style.labelFont = scaledFont(font, presentationScale, 1.0, true);
    style.detailFont = scaledFont(font, presentationScale, 0.85);
    style.markFont = scaledFont(font, presentationScale, 0.85);
    style.headerFont = scaledFont(font, presentationScale, 0.8, true);

    style.markerRadius = 4.5 * presentationScale;
    style.laneHeight = 36 * presentationScale;
    style.headerHeight = 20 * presentationScale;
    style.rulerHeight = 24 * presentationScale;
    style.gutterWidth = 150 * presentationScale;
    return style;
}

} // namespace rvscope::ui
