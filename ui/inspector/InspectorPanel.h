// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "engine/EngineTypes.h"

class QLabel;
class QPlainTextEdit;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

// The selected operation in full: who sent what, with which resourceVersion, what the server
// answered (status, reason, revision produced, CAS retries) and the bodies both ways.
class InspectorPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InspectorPanel)

public:
    explicit InspectorPanel(engine::Engine &engine, QWidget *parent = nullptr);

    // Asks the engine for the operation; shows it when the detail arrives.
    void showOperation(quint64 id);
    quint64 shownOperation() const { return m_shown; }
    QString summaryText() const;

private:
    void handleDetail(const engine::OperationDetail &detail);

    engine::Engine &m_engine;
    quint64 m_requested = 0;
    quint64 m_shown = 0;
    QLabel *m_summary = nullptr;
    QPlainTextEdit *m_request = nullptr;
    QPlainTextEdit *m_response = nullptr;
};

} // namespace rvscope::ui
