// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QStringList>

namespace rvscope::engine {

// Who manages which field of an object, for the Objects panel: one line per manager
// ("alice (Apply): .data.color, .data.owner  at 2026-11-26T10:00:00Z"), from the object's
// metadata.managedFields, field paths written as conflict messages write them. Empty when
// the object has none (or they do not decode). Any thread.
QStringList fieldOwnership(const QByteArray &objectJson);

} // namespace rvscope::engine
