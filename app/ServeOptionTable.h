// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QString>

#include "OptionTable.h"
#include "engine/EngineOptions.h"

namespace rvscope::app {

// The options of `serve`, also taken by the window for its embedded server: every flag with
// its help, parser and default, over the one EngineOptions (docs/CONTRIBUTING.md "a flag").
const OptionTable<engine::EngineOptions> &serveOptions();
// The bounds on connections, requests and watches (LimitOptionTable.cpp), part of serveOptions().
const OptionTable<engine::EngineOptions> &limitOptions();

// A count as the help prints it.
QString number(std::size_t n);
// A period flag's value ("1s", "1.5s", "250ms") in milliseconds; -1 when it is none or lies
// outside [minMs, maxMs].
int periodMs(const QString &value, int minMs, int maxMs);
// A period as the help prints it: "32s", "250ms".
QString periodText(int ms);

} // namespace rvscope::app
