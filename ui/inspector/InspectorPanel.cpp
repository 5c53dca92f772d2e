// SPDX-License-Identifier: MIT
#include "inspector/InspectorPanel.h"

#include <QtCore/QJsonDocument>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QVBoxLayout>

#include "engine/Engine.h"

namespace rvscope::ui {
namespace {

QString pretty(const QByteArray &json)
{
    if (json.isEmpty())
        return {};
    const QJsonDocument document = QJsonDocument::fromJson(json);
    return document.isNull() ? QString::fromUtf8(json) : QString::fromUtf8(document.toJson(QJsonDocument::Indented));
}

QPlainTextEdit *jsonView(const QString &objectName, const QString &placeholder, QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setObjectName(objectName);
    view->setReadOnly(true);
    view->setPlaceholderText(placeholder);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    return view;
}

} // namespace

InspectorPanel::InspectorPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
{
    m_summary = new QLabel(tr("Click an operation on the timeline or in a table to inspect it."), this);
    m_summary->setObjectName(QStringLiteral("inspectorSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_request = jsonView(QStringLiteral("inspectorRequest"), tr("request body (writes)"), this);
    m_response = jsonView(QStringLiteral("inspectorResponse"), tr("object returned"), this);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_request);
    splitter->addWidget(m_response);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    connect(&m_engine, &engine::Engine::operationDetailReady, this, &InspectorPanel::handleDetail);
    connect(&m_engine, &engine::Engine::historyReset, this, [this] {
        m_shown = m_requested = 0;
        m_summary->setText(tr("Click an operation on the timeline or in a table to inspect it."));
        m_request->clear();
        m_response->clear();
    });
}

void InspectorPanel::showOperation(quint64 id)
{
    m_requested = id;
    m_engine.fetchOperation(id);
}

QString InspectorPanel::summaryText() const
{
    return m_summary->text();
}

void InspectorPanel::handleDetail(const engine::OperationDetail &detail)
{
    // Other panels ask for details too; show only what this panel asked for.
    if (detail.summary.id != m_requested || m_requested == 0)
        return;
    const engine::OperationSummary &op = detail.summary;
    m_shown = op.id;
    QString text = tr("<b>#%1</b> %2 <b>%3</b> %4").arg(op.id).arg(op.clientId.toHtmlEscaped(), op.verb, op.key.toHtmlEscaped());
    if (op.apply)
        text += tr(" (server-side apply)");
    if (!op.strategy.isEmpty())
        text += tr(" <i>(%1)</i>").arg(op.strategy.toHtmlEscaped());
    text += QStringLiteral("<br>");
    text += op.rvSent > 0 ? tr("resourceVersion sent %1").arg(op.rvSent) : tr("no resourceVersion sent");
    text += tr(" → <b>%1 %2</b>").arg(op.statusCode).arg(op.reason.toHtmlEscaped());
    if (op.rvProduced > 0)
        text += tr(", resourceVersion %1").arg(op.rvProduced);
    if (!detail.revisionSeries.isEmpty())
        text += tr(" <i>(series %1)</i>").arg(detail.revisionSeries.toHtmlEscaped());
    if (op.noop)
        text += tr(" (no-op: nothing changed)");
    if (op.casRetries > 0)
        text += tr("<br>%n compare-and-swap retries inside storage", nullptr, op.casRetries);
    if (op.endNs >= 0)
        text += tr("<br>latency %1 ms").arg(double(op.endNs - op.startNs) / 1e6, 0, 'f', 3);
    if (op.reason == QLatin1String("FieldManagerConflict"))
        text += tr("<br>field ownership, not a stale resourceVersion: %1").arg(op.message.toHtmlEscaped());
    else if (op.conflict() && detail.liveResourceVersion > 0)
        text += tr("<br>stale: the live object was at resourceVersion %1").arg(detail.liveResourceVersion);
    m_summary->setText(text);
    m_request->setPlainText(pretty(detail.request));
    m_response->setPlainText(pretty(detail.object));
}

} // namespace rvscope::ui
