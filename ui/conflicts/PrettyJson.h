// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QString>

namespace rvscope::ui {

// Indented JSON (keys sorted, two spaces) that remembers which lines each field occupies, so
// a view can highlight the fields a diff names. Paths use FieldOverlap's dotted form.
struct PrettyJson final {
    struct Lines final {
        int first = 0; // 0-based, inclusive
        int last = 0;
    };

    bool valid = false; // false: empty or not JSON (text then holds the raw bytes)
    QString text;
    QHash<QString, Lines> linesOfPath;

    static PrettyJson format(const QByteArray &json);
};

} // namespace rvscope::ui
