// SPDX-License-Identifier: MIT
#include "clients/ClientsPanel.h"

#include <algorithm>
#include <array>
#include <climits>

#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

#include "clients/ClientTableModel.h"
#include "engine/Engine.h"

namespace rvscope::ui {
namespace {

struct StrategyText final {
    const char *name;
    const char *description;
};

// The names are the core's (sim::strategyName); the sentences say what each shows.
constexpr std::array STRATEGIES = {
    StrategyText{"raw-put", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then PUT with the resourceVersion read. A 409 Conflict is reported, never retried: "
        "shows how often optimistic locking refuses a stale write.")},
    StrategyText{"retry-default", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "client-go RetryOnConflict with DefaultRetry (5 steps, 10 ms, factor 1.0, jitter 0.1) around GET+PUT: "
        "409s are retried from a fresh read.")},
    StrategyText{"retry-backoff", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "client-go RetryOnConflict with DefaultBackoff (4 steps, 10 ms, factor 5.0, jitter 0.1) around GET+PUT: "
        "fewer, longer-spaced retries.")},
    StrategyText{"blind-put", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then PUT without resourceVersion: an unconditional update that overwrites whatever landed "
        "in between. Never 409; loses updates.")},
    StrategyText{"merge-patch", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then a merge PATCH of the new value without resourceVersion: never 409, loses updates "
        "(the server retries its own read-modify-write internally).")},
    StrategyText{"json-patch-test", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then a JSON PATCH that tests the old value before replacing it. A failed test (422) "
        "is retried: a field-level precondition instead of a version one.")},
    StrategyText{"merge-patch-rv", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "Merge PATCH carrying metadata.resourceVersion (controller-runtime's optimistic-lock patch), "
        "retried on 409.")},
    StrategyText{"lease", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "Pessimistic locking: take a coordination.k8s.io Lease (create or CAS), GET+PUT, release. "
        "Waiters poll the Lease.")},
    StrategyText{"apply", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then server-side apply of the new value as its own field manager, without force. Once another "
        "manager owns data.counter, every apply is a 409 FieldManagerConflict naming it; retrying cannot help.")},
    StrategyText{"apply-force", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "GET, then server-side apply with force=true: takes data.counter from whoever owns it. Never 409; "
        "like a merge patch, it loses updates.")},
    StrategyText{"apply-rv", QT_TRANSLATE_NOOP("rvscope::ui::ClientsPanel",
        "Forced server-side apply carrying metadata.resourceVersion, retried on 409: the optimistic lock "
        "on apply, so no update is lost.")},
};

QLabel *buddyLabel(const QString &text, QWidget *buddy)
{
    auto *label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

QString describe(const engine::WorkloadReport &report)
{
    const QString where = report.processes ? ClientsPanel::tr("processes") : ClientsPanel::tr("in-process");
    if (report.clients == 0 && !report.error.isEmpty())
        return ClientsPanel::tr("Launch failed: %1").arg(report.error);
    QString text = ClientsPanel::tr("%1 × %2 (%3): %4 landed, %5 failed")
                       .arg(report.clients)
                       .arg(report.strategy.isEmpty() ? QStringLiteral("?") : report.strategy, where)
                       .arg(report.succeeded)
                       .arg(report.failed);
    text += ClientsPanel::tr(" · %1 attempts, %2 conflicts, %3 retries, %4 errors")
                .arg(report.attempts)
                .arg(report.conflicts)
                .arg(report.retries)
                .arg(report.errors);
    text += ClientsPanel::tr(" · %1 increments/s").arg(report.throughput, 0, 'f', report.throughput < 10 ? 1 : 0);
    if (report.p50Ns > 0) {
        text += ClientsPanel::tr(" · p50 %1, p99 %2")
                    .arg(ClientTableModel::formatLatency(report.p50Ns), ClientTableModel::formatLatency(report.p99Ns));
    }
    if (!report.error.isEmpty())
        text += ClientsPanel::tr(" · %1").arg(report.error);
    return text;
}

} // namespace

ClientsPanel::ClientsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_model(new ClientTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("clientsPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ClientTableModel::SortRole);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("clientTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // first-seen order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("workloadStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showStatus(tr("No clients launched. Clients of the embedded server (kubectl, Python) appear here too."), false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(createForm());
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);

    connect(m_launch, &QPushButton::clicked, this, &ClientsPanel::launch);
    connect(m_stop, &QPushButton::clicked, &m_engine, &engine::Engine::stopClients);
    connect(m_strategy, &QComboBox::currentIndexChanged, this, &ClientsPanel::updateStrategyToolTip);
    connect(&m_engine, &engine::Engine::operationsRecorded, this, &ClientsPanel::handleOperations);
    connect(&m_engine, &engine::Engine::workloadFinished, this, &ClientsPanel::handleWorkloadFinished);
    connect(&m_engine, &engine::Engine::historyReset, this, &ClientsPanel::handleHistoryReset);
    setLaunchSpec(engine::ClientLaunch{});
}

ClientsPanel::~ClientsPanel() = default;

QWidget *ClientsPanel::createForm()
{
    m_clients = new QSpinBox;
    m_clients->setObjectName(QStringLiteral("clientCount"));
    m_clients->setRange(1, 512);
    m_clients->setToolTip(tr("How many clients compete"));

    m_strategy = new QComboBox;
    m_strategy->setObjectName(QStringLiteral("strategyCombo"));
    for (const QString &name : strategyNames()) {
        m_strategy->addItem(name);
        m_strategy->setItemData(m_strategy->count() - 1, strategyDescription(name), Qt::ToolTipRole);
    }

    m_objects = new QSpinBox;
    m_objects->setObjectName(QStringLiteral("objectCount"));
    m_objects->setRange(1, 10000);
    m_objects->setToolTip(tr("ConfigMaps the clients spread over (1: one hot key)"));

    m_operations = new QSpinBox;
    m_operations->setObjectName(QStringLiteral("operationCount"));
    m_operations->setRange(1, 1'000'000);
    m_operations->setToolTip(tr("Increments each client makes"));

    m_thinkTime = new QLineEdit;
    m_thinkTime->setObjectName(QStringLiteral("thinkTime"));
    m_thinkTime->setToolTip(tr("Pause between a client's operations: \"5ms\", \"1-5ms\" (uniform), "
                               "\"exp:5ms\" (exponential mean); units us, ms, s"));

    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, INT_MAX);
    m_seed->setToolTip(tr("Seeds think times and backoff jitter: the same seed gives the same plan"));

    m_processes = new QCheckBox(tr("as &processes"));
    m_processes->setObjectName(QStringLiteral("asProcesses"));
    m_processes->setToolTip(tr("Run the clients as `rvscope client` processes talking HTTP to the embedded "
                               "server (started if needed), genuinely in parallel; otherwise they run "
                               "in-process in the core thread"));

    m_launch = new QPushButton(tr("&Launch"));
    m_launch->setObjectName(QStringLiteral("launchButton"));
    m_launch->setDefault(true);
    m_stop = new QPushButton(tr("S&top"));
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("Stop every running client group"));

    auto *form = new QWidget;
    auto *grid = new QGridLayout(form);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    grid->addWidget(buddyLabel(tr("&Clients"), m_clients), 0, 0);
    grid->addWidget(m_clients, 0, 1);
    grid->addWidget(buddyLabel(tr("St&rategy"), m_strategy), 0, 2);
    grid->addWidget(m_strategy, 0, 3);
    grid->addWidget(buddyLabel(tr("O&bjects"), m_objects), 1, 0);
    grid->addWidget(m_objects, 1, 1);
    grid->addWidget(buddyLabel(tr("Op&erations"), m_operations), 1, 2);
    grid->addWidget(m_operations, 1, 3);
    grid->addWidget(buddyLabel(tr("T&hink"), m_thinkTime), 2, 0);
    grid->addWidget(m_thinkTime, 2, 1);
    grid->addWidget(buddyLabel(tr("Se&ed"), m_seed), 2, 2);
    grid->addWidget(m_seed, 2, 3);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_processes);
    buttons->addStretch(1);
    buttons->addWidget(m_launch);
    buttons->addWidget(m_stop);
    grid->addLayout(buttons, 3, 0, 1, 4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 2);
    return form;
}

engine::ClientLaunch ClientsPanel::launchSpec() const
{
    engine::ClientLaunch launch;
    launch.clients = m_clients->value();
    launch.strategy = m_strategy->currentText();
    launch.objects = m_objects->value();
    launch.operations = m_operations->value();
    launch.thinkTime = m_thinkTime->text().trimmed();
    launch.seed = quint64(m_seed->value());
    launch.processes = m_processes->isChecked();
    return launch;
}

void ClientsPanel::setLaunchSpec(const engine::ClientLaunch &launch)
{
    m_clients->setValue(launch.clients);
    const int strategy = m_strategy->findText(launch.strategy);
    if (strategy >= 0)
        m_strategy->setCurrentIndex(strategy);
    m_objects->setValue(launch.objects);
    m_operations->setValue(launch.operations);
    m_thinkTime->setText(launch.thinkTime);
    m_seed->setValue(int(std::min<quint64>(launch.seed, INT_MAX)));
    m_processes->setChecked(launch.processes);
    updateStrategyToolTip();
}

void ClientsPanel::launch()
{
    const engine::ClientLaunch spec = launchSpec();
    // The core validates the spec (think time grammar included) and answers with a
    // WorkloadReport carrying the error, so the form does not duplicate its rules.
    m_engine.launchClients(spec);
    showStatus(tr("Launched %1 × %2 (%3), %4 operations each…")
                   .arg(spec.clients)
                   .arg(spec.strategy, spec.processes ? tr("processes") : tr("in-process"))
                   .arg(spec.operations),
               false);
}

QString ClientsPanel::statusText() const
{
    return m_status->text();
}

QStringList ClientsPanel::strategyNames()
{
    QStringList names;
    for (const StrategyText &strategy : STRATEGIES)
        names.append(QLatin1String(strategy.name));
    return names;
}

QString ClientsPanel::strategyDescription(const QString &name)
{
    for (const StrategyText &strategy : STRATEGIES) {
        if (name == QLatin1String(strategy.name))
            return tr(strategy.description);
    }
    return {};
}

void ClientsPanel::handleOperations(const engine::OperationBatch &batch)
{
    m_model->appendOperations(batch);
}

void ClientsPanel::handleWorkloadFinished(const engine::WorkloadReport &report)
{
    const QString text = describe(report);
    m_reports.prepend(text);
    while (m_reports.size() > 10)
        m_reports.removeLast();
    showStatus(text, !report.error.isEmpty());
}

void ClientsPanel::handleHistoryReset()
{
    m_model->clear();
}

void ClientsPanel::updateStrategyToolTip()
{
    m_strategy->setToolTip(strategyDescription(m_strategy->currentText()));
}

void ClientsPanel::showStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setToolTip(m_reports.isEmpty() ? QString() : m_reports.join(QLatin1Char('\n')));
    QPalette palette = this->palette();
    if (error)
        palette.setColor(QPalette::WindowText, QColor(0xD5, 0x5E, 0x00));
    m_status->setPalette(palette);
}

} // namespace rvscope::ui
