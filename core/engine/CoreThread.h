// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QThread>

namespace rvscope::engine {

// The core thread: runs its event loop, then destroys the worker in the thread it lives
// in and lets go of what libraries keep per thread, all before the thread counts as
// finished (see run()).
class CoreThread final : public QThread {
public:
    using QThread::QThread;
    // Takes the worker, already moved to this thread, for destruction at the end of run().
    void setWorker(QObject *worker) { m_worker = worker; }

protected:
    void run() override;

private:
    QObject *m_worker = nullptr;
};

} // namespace rvscope::engine
