// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QString>

// The dotted field paths FieldOverlap and PrettyJson share: "data.counter", "spec.ports[0].port".
namespace rvscope::ui::jsonpath {

inline QString child(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

inline QString element(const QString &path, qsizetype index)
{
    return path + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

// `path` is `ancestor` or lies under it.
inline bool within(const QString &path, const QString &ancestor)
{
    if (!path.startsWith(ancestor))
        return false;
    return path.size() == ancestor.size() || path.at(ancestor.size()) == QLatin1Char('.')
        || path.at(ancestor.size()) == QLatin1Char('[');
}

} // namespace rvscope::ui::jsonpath
