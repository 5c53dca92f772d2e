// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>

class QSocketNotifier;

namespace rvscope::app {

// Turns SIGINT/SIGTERM into a Qt signal on the thread that created it (self-pipe trick:
// the handler only writes a byte, which is async-signal-safe).
class SignalWatcher final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignalWatcher)

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    void handleReadable();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace rvscope::app
