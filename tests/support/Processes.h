// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QProcess>

namespace rvscope::testing {

// True once `process` has exited, waiting up to `timeoutMs`. QProcess::waitForFinished
// answers false for a process that has already finished, and any earlier wait on it
// (waitForReadyRead, as a test reads the last line the process printed) may have seen it go.
inline bool finishes(QProcess &process, int timeoutMs)
{
    return process.state() == QProcess::NotRunning || process.waitForFinished(timeoutMs);
}

} // namespace rvscope::testing
