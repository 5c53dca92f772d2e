// SPDX-License-Identifier: MIT
#include "serverpanel/ServerPanel.h"

#include <iterator>

#include <QtCore/QSignalBlocker>

#include <QtGui/QClipboard>
#include <QtGui/QFontDatabase>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

#include "AlarmColour.h"
#include "engine/Engine.h"
#include "serverpanel/RequestLogModel.h"
#include "serverpanel/ServerConnectionText.h"
#include "serverpanel/StorageDescription.h"

namespace rvscope::ui {
namespace {
constexpr quint16 DEFAULT_PORT = 8001;
} // namespace

ServerPanel::ServerPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_log(new RequestLogModel(this))
{
    setObjectName(QStringLiteral("serverPanel"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_address = new QLineEdit(QStringLiteral("127.0.0.1"), this);
    m_address->setObjectName(QStringLiteral("serverAddressEdit"));
    m_address->setToolTip(tr("The address to listen on (0.0.0.0: every interface)"));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("serverPortSpin"));
    m_port->setRange(0, 65535);
    m_port->setValue(DEFAULT_PORT);
    m_port->setSpecialValueText(tr("any free"));
    m_port->setToolTip(tr("The TCP port (0: any free port)"));
    m_toggle = new QPushButton(tr("Start server"), this);
    m_toggle->setObjectName(QStringLiteral("serverToggleButton"));
    m_toggle->setCheckable(true);
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("serverStateLabel"));
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setWordWrap(true);
    m_state->setTextFormat(Qt::PlainText);
    m_watches = new QLabel(this);
    m_watches->setObjectName(QStringLiteral("openWatchesLabel"));
    // Which storage serves which resource (the status bar says it in short).
    m_storage = new QLabel(storageDetails(engine.options()), this);
    m_storage->setObjectName(QStringLiteral("serverStorageLabel"));
    m_storage->setWordWrap(true);
    m_storage->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_kubeconfig = new QPlainTextEdit(this);
    m_kubeconfig->setObjectName(QStringLiteral("kubeconfigText"));
    m_kubeconfig->setReadOnly(true);
    m_kubeconfig->setFont(fixed);
    m_kubeconfig->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_kubeconfig->setPlaceholderText(tr("Start the server to get a kubeconfig for kubectl and client libraries"));
    m_copyKubeconfig = new QPushButton(tr("Copy"), this);
    m_copyKubeconfig->setObjectName(QStringLiteral("copyKubeconfigButton"));
    m_copyKubeconfig->setToolTip(tr("Copy the kubeconfig; save it and use kubectl --kubeconfig <file>"));
    m_kubectl = new QLineEdit(this);
    m_kubectl->setObjectName(QStringLiteral("kubectlCommandEdit"));
    m_kubectl->setReadOnly(true);
    m_kubectl->setFont(fixed);
    m_copyKubectl = new QPushButton(tr("Copy"), this);
    m_copyKubectl->setObjectName(QStringLiteral("copyKubectlButton"));

    auto *listen = new QHBoxLayout;
    listen->addWidget(m_address, 1);
    listen->addWidget(new QLabel(tr("port"), this));
    listen->addWidget(m_port);
    listen->addWidget(m_toggle);
    auto *kubeconfigHeader = new QHBoxLayout;
    kubeconfigHeader->addWidget(new QLabel(tr("kubeconfig"), this), 1);
    kubeconfigHeader->addWidget(m_copyKubeconfig);
    auto *kubectlRow = new QHBoxLayout;
    kubectlRow->addWidget(m_kubectl, 1);
    kubectlRow->addWidget(m_copyKubectl);

    auto *controls = new QWidget(this);
    auto *controlsLayout = new QVBoxLayout(controls);
    controlsLayout->setContentsMargins(0, 0, 0, 0);
    controlsLayout->addLayout(listen);
    controlsLayout->addWidget(m_state);
    controlsLayout->addWidget(m_watches);
    controlsLayout->addWidget(m_storage);
    controlsLayout->addLayout(kubeconfigHeader);
    controlsLayout->addWidget(m_kubeconfig, 1);
    controlsLayout->addLayout(kubectlRow);

    m_logView = new QTableView(this);
    m_logView->setObjectName(QStringLiteral("requestLogView"));
    m_logView->setModel(m_log);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_logView->setWordWrap(false);
    m_logView->verticalHeader()->hide();
    // Fixed row heights: the view never measures thousands of new rows.
    m_logView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_logView->verticalHeader()->setDefaultSectionSize(m_logView->fontMetrics().height() + 6);
    m_logView->horizontalHeader()->setHighlightSections(false);
    // The key takes what the other columns leave.
    m_logView->horizontalHeader()->setSectionResizeMode(RequestLogModel::KeyColumn, QHeaderView::Stretch);
    const int columnWidths[] = {80, 110, 55, 0, 50, 80, 85};
    for (int column = 0; column < int(std::size(columnWidths)); ++column) {
        if (columnWidths[column] > 0)
            m_logView->setColumnWidth(column, columnWidths[column]);
    }
    m_followTail = new QCheckBox(tr("Follow &tail"), this);
    m_followTail->setObjectName(QStringLiteral("followTailCheck"));
    m_followTail->setChecked(true);
    m_logSummary = new QLabel(this);
    m_logSummary->setObjectName(QStringLiteral("requestLogSummary"));

    auto *logPane = new QWidget(this);
    auto *logLayout = new QVBoxLayout(logPane);
    logLayout->setContentsMargins(0, 0, 0, 0);
    auto *logHeader = new QHBoxLayout;
    logHeader->addWidget(m_logSummary, 1);
    logHeader->addWidget(m_followTail);
    logLayout->addLayout(logHeader);
    logLayout->addWidget(m_logView, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(controls);
    splitter->addWidget(logPane);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 5);
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_toggle, &QPushButton::clicked, this, &ServerPanel::toggleServer);
    connect(m_copyKubeconfig, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(kubeconfig()); });
    connect(m_copyKubectl, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(kubectlCommand()); });
    connect(m_followTail, &QCheckBox::toggled, this, [this](bool follow) {
        if (follow)
            m_logView->scrollToBottom();
    });
    connect(m_log, &QAbstractItemModel::rowsInserted, this, &ServerPanel::handleRowsInserted);
    connect(m_log, &QAbstractItemModel::modelReset, this, &ServerPanel::handleRowsInserted);
    connect(m_logView, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT operationSelected(m_log->data(index, RequestLogModel::OperationIdRole).value<quint64>());
    });

    connect(&m_engine, &engine::Engine::serverStateChanged, this, &ServerPanel::handleServerState);
    connect(&m_engine, &engine::Engine::statsUpdated, this, &ServerPanel::handleStats);
    connect(&m_engine, &engine::Engine::operationsRecorded, m_log, &RequestLogModel::append);
    connect(&m_engine, &engine::Engine::historyReset, m_log, &RequestLogModel::clear);
    connect(&m_engine, &engine::Engine::historyReset, m_storage,
            [this] { m_storage->setText(scenarioStorageText() + tr(": every resource, one revision series")); });

    handleServerState(m_engine.serverState());
    handleStats(m_engine.stats());
    handleRowsInserted();
}

ServerPanel::~ServerPanel() = default;

QString ServerPanel::kubeconfig() const
{
    return m_url.isEmpty() ? QString() : ServerConnectionText::kubeconfig(m_url);
}

QString ServerPanel::kubectlCommand() const
{
    return m_url.isEmpty() ? QString() : ServerConnectionText::kubectlCommand(m_url);
}

void ServerPanel::selectOperation(quint64 id)
{
    const int row = m_log->rowOf(id);
    if (row < 0) {
        m_logView->clearSelection();
        return;
    }
    m_logView->selectRow(row);
    m_logView->scrollTo(m_log->index(row, 0));
}

void ServerPanel::toggleServer()
{
    if (m_engine.serverState().running) {
        m_engine.stopServer();
        return;
    }
    const QHostAddress address(m_address->text().trimmed());
    if (address.isNull()) {
        QSignalBlocker blocker(m_toggle);
        m_toggle->setChecked(false);
        QPalette palette = this->palette();
        palette.setColor(QPalette::WindowText, alarmColour(palette));
        m_state->setPalette(palette);
        m_state->setText(tr("“%1” is not an IP address").arg(m_address->text()));
        return;
    }
    m_state->setPalette(palette());
    m_state->setText(tr("Starting on %1…").arg(address.toString()));
    m_engine.startServer(address, quint16(m_port->value()));
}

void ServerPanel::handleServerState(const engine::ServerState &state)
{
    m_url = ServerConnectionText::clientUrl(state);
    {
        QSignalBlocker blocker(m_toggle);
        m_toggle->setChecked(state.running);
    }
    m_toggle->setText(state.running ? tr("Stop server") : tr("Start server"));
    m_address->setEnabled(!state.running);
    m_port->setEnabled(!state.running);
    if (state.running) {
        // Show the port the server got (port 0 asks for any free one).
        m_address->setText(state.address.toString());
        m_port->setValue(state.port);
    }
    QPalette palette = this->palette();
    if (!state.running && !state.error.isEmpty())
        palette.setColor(QPalette::WindowText, alarmColour(palette));
    m_state->setPalette(palette);
    if (state.running)
        m_state->setText(tr("Serving the Kubernetes API at %1").arg(m_url));
    else if (!state.error.isEmpty())
        m_state->setText(tr("Server off: %1").arg(state.error));
    else
        m_state->setText(tr("Server off"));
    m_kubeconfig->setPlainText(kubeconfig());
    m_kubectl->setText(kubectlCommand());
    m_kubectl->setCursorPosition(0);
    m_copyKubeconfig->setEnabled(state.running);
    m_copyKubectl->setEnabled(state.running);
}

void ServerPanel::handleStats(const engine::CoreStats &stats)
{
    // How many storage watches the fan-out hub needs for them (one per watched type).
    QString watches = tr("Open watches: %1").arg(qulonglong(stats.openWatches));
    if (stats.openWatches > 0)
        watches += stats.storageWatches == 1 ? tr(" (fed by 1 storage watch)")
                                             : tr(" (fed by %1 storage watches)").arg(qulonglong(stats.storageWatches));
    m_watches->setText(tr("%1 · bulk watch sessions: %2 · objects: %3 · %4")
                           .arg(watches)
                           .arg(qulonglong(stats.bulkSessions))
                           .arg(qulonglong(stats.objects))
                           .arg(stats.revisionText()));
}

void ServerPanel::handleRowsInserted()
{
    if (m_followTail->isChecked())
        m_logView->scrollToBottom();
    const quint64 total = m_log->totalOperations();
    QString text = total == 0 ? tr("No requests yet") : tr("%1 operations").arg(total);
    if (total > quint64(m_log->rowCount()))
        text += tr(" (the last %1 shown)").arg(m_log->rowCount());
    m_logSummary->setText(text);
}

} // namespace rvscope::ui
