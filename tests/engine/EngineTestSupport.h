// SPDX-License-Identifier: MIT
#pragma once

#include <QtTest/QSignalSpy>

#include "engine/Engine.h"

namespace rvscope::engine::test {

// Every operation an Engine::operations spy received so far, across batches.
inline QList<OperationSummary> collected(const QSignalSpy &spy)
{
    QList<OperationSummary> all;
    for (const auto &arguments : spy)
        all.append(arguments.at(0).value<OperationBatch>());
    return all;
}

} // namespace rvscope::engine::test
