// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace rvscope::engine {
class Engine;
struct CoreStats;
struct ServerState;
}

namespace rvscope::ui {

class RequestLogModel;

// The Server panel: start and stop the embedded API server on an address and port
// (Engine::startServer/stopServer), its state (URL or error), a kubeconfig and a kubectl
// command line to copy, the number of open watches, and the live request log of every
// journaled operation.
//
// It connects itself to the engine; historyReset clears the log but not the server state.
// GUI thread only.
class ServerPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerPanel)

public:
    // `engine` must outlive the panel.
    explicit ServerPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~ServerPanel() override;

    RequestLogModel *requestLog() const { return m_log; }
    // The texts the Copy buttons put on the clipboard (empty while the server is off).
    QString kubeconfig() const;
    QString kubectlCommand() const;

    // Selects and reveals an operation chosen elsewhere (no signal); unknown ids clear it.
    void selectOperation(quint64 id);

Q_SIGNALS:
    // The user activated a row of the request log (double-click or Enter).
    void operationSelected(quint64 id);

private:
    void handleServerState(const engine::ServerState &state);
    void handleStats(const engine::CoreStats &stats);
    void handleRowsInserted();
    void toggleServer();

    engine::Engine &m_engine;
    RequestLogModel *m_log = nullptr;
    QLineEdit *m_address = nullptr;
    QSpinBox *m_port = nullptr;
    QPushButton *m_toggle = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_watches = nullptr;
    QLabel *m_storage = nullptr; // which storage serves which resource
    QPlainTextEdit *m_kubeconfig = nullptr;
    QPushButton *m_copyKubeconfig = nullptr;
    QLineEdit *m_kubectl = nullptr;
    QPushButton *m_copyKubectl = nullptr;
    QTableView *m_logView = nullptr;
    QCheckBox *m_followTail = nullptr;
    QLabel *m_logSummary = nullptr;
    QString m_url;
};

} // namespace rvscope::ui
