// SPDX-License-Identifier: MIT
#include "conflicts/ConflictDiffView.h"

#include <algorithm>

#include <QtGui/QFontDatabase>
#include <QtGui/QTextBlock>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QVBoxLayout>

#include "conflicts/PrettyJson.h"

namespace rvscope::ui {
namespace {
// Okabe–Ito: orange (the client), blue (the intervening writes), vermillion (both), green.
const QColor CLIENT_COLOUR(0xE6, 0x9F, 0x00);
const QColor INTERVENING_COLOUR(0x56, 0xB4, 0xE9);
const QColor OVERLAP_COLOUR(0xD5, 0x5E, 0x00);
const QColor FALSE_CONFLICT_COLOUR(0x00, 0x9E, 0x73);

QColor tint(const QColor &base, const QColor &colour)
{
    const double weight = base.lightnessF() < 0.5 ? 0.40 : 0.28;
    return QColor::fromRgbF(float(base.redF() * (1 - weight) + colour.redF() * weight),
                            float(base.greenF() * (1 - weight) + colour.greenF() * weight),
                            float(base.blueF() * (1 - weight) + colour.blueF() * weight));
}

QString httpMethod(const QString &verb)
{
    if (verb == QLatin1String("update"))
        return QStringLiteral("PUT");
    if (verb == QLatin1String("create"))
        return QStringLiteral("POST");
    return verb.toUpper();
}

QString swatch(const QColor &colour, const QString &text)
{
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;%2&nbsp;</span>")
        .arg(colour.name(), text.toHtmlEscaped());
}
} // namespace

ConflictDiffView::ConflictDiffView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("conflictDiffView"));
    m_header = new QLabel;
    m_header->setObjectName(QStringLiteral("detailHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::PlainText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);

    m_overlapLabel = new QLabel;
    m_overlapLabel->setObjectName(QStringLiteral("overlapLabel"));
    m_overlapLabel->setTextFormat(Qt::PlainText);
    m_overlapLabel->setWordWrap(true);
    m_overlapLabel->setMargin(4);
    m_overlapLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const QColor base = palette().color(QPalette::Base);
    auto *legend = new QLabel(tr("%1 %2 %3")
                                  .arg(swatch(tint(base, CLIENT_COLOUR), tr("changed by the client")),
                                       swatch(tint(base, INTERVENING_COLOUR), tr("changed since the read")),
                                       swatch(tint(base, OVERLAP_COLOUR), tr("changed by both"))));
    legend->setObjectName(QStringLiteral("diffLegend"));
    legend->setTextFormat(Qt::RichText);

    m_read = createPane(QStringLiteral("readPane"));
    m_live = createPane(QStringLiteral("livePane"));
    m_tried = createPane(QStringLiteral("triedPane"));
    auto *panes = new QSplitter(Qt::Horizontal);
    panes->setChildrenCollapsible(false);
    for (const Pane *pane : {&m_read, &m_live, &m_tried}) {
        auto *column = new QWidget;
        auto *layout = new QVBoxLayout(column);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        layout->addWidget(pane->title);
        layout->addWidget(pane->text, 1);
        panes->addWidget(column);
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_header);
    layout->addWidget(m_overlapLabel);
    layout->addWidget(panes, 1);
    layout->addWidget(legend);
    linkScrolling();
    clear();
}

ConflictDiffView::~ConflictDiffView() = default;

ConflictDiffView::Pane ConflictDiffView::createPane(const QString &objectName)
{
    Pane pane;
    pane.title = new QLabel;
    pane.title->setObjectName(objectName + QStringLiteral("Title"));
    pane.title->setTextFormat(Qt::RichText);
    pane.text = new QPlainTextEdit;
    pane.text->setObjectName(objectName);
    pane.text->setReadOnly(true);
    pane.text->setLineWrapMode(QPlainTextEdit::NoWrap);
    pane.text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    pane.text->setMinimumWidth(120);
    return pane;
}

void ConflictDiffView::linkScrolling()
{
    // The panes show versions of one object: keep them at the same line as the user scrolls.
    const QList<QPlainTextEdit *> texts = {m_read.text, m_live.text, m_tried.text};
    for (QPlainTextEdit *source : texts) {
        for (QPlainTextEdit *target : texts) {
            if (source != target)
                connect(source->verticalScrollBar(), &QScrollBar::valueChanged, target->verticalScrollBar(),
                        &QScrollBar::setValue);
        }
    }
}

void ConflictDiffView::showDetail(const engine::OperationDetail &detail)
{
    const engine::OperationSummary &op = detail.summary;
    m_operationId = op.id;
    m_overlap = FieldOverlap::compute(detail);

    m_header->setText(tr("#%1 %2 %3 by %4 (%5): %6 %7 · sent rv %8, live rv %9")
                          .arg(op.id)
                          .arg(httpMethod(op.verb), op.key, op.clientId,
                               op.strategy.isEmpty() ? tr("HTTP client") : op.strategy)
                          .arg(op.statusCode)
                          .arg(op.reason.isEmpty() ? tr("OK") : op.reason)
                          .arg(op.rvSent > 0 ? QString::number(op.rvSent) : tr("none"))
                          .arg(detail.liveResourceVersion > 0 ? QString::number(detail.liveResourceVersion) : tr("?")));

    m_overlapLabel->setText(m_overlap.sentence());
    QPalette palette = this->palette();
    if (m_overlap.known) {
        palette.setColor(QPalette::Window, tint(palette.color(QPalette::Base),
                                                m_overlap.falseConflict() ? FALSE_CONFLICT_COLOUR : OVERLAP_COLOUR));
    }
    m_overlapLabel->setPalette(palette);
    m_overlapLabel->setAutoFillBackground(m_overlap.known);
    // A long sentence wraps: make room for all its lines (the panes below give way).
    m_overlapLabel->setMinimumHeight(m_overlapLabel->heightForWidth(std::max(m_overlapLabel->width(), 200)));

    const QColor base = this->palette().color(QPalette::Base);
    const Highlight overlapping{m_overlap.overlapping, tint(base, OVERLAP_COLOUR)};
    if (op.rvSent > 0)
        fill(m_read, tr("<b>Read</b> · rv %1 · what the client read").arg(op.rvSent), detail.readObject,
             tr("(the object at rv %1 is not in the journal)").arg(op.rvSent), {overlapping});
    else
        fill(m_read, tr("<b>Read</b> · no rv sent"), {},
             tr("(no resourceVersion sent)"), {overlapping});
    fill(m_live, tr("<b>Live</b> · rv %1 · what is live").arg(detail.liveResourceVersion), detail.liveObject, tr("(no committed version of this key in the journal)"),
         {Highlight{m_overlap.interveningFields, tint(base, INTERVENING_COLOUR)}, overlapping});
    fill(m_tried, tr("<b>Tried</b> · %1 · what it sent").arg(httpMethod(op.verb)), detail.request, tr("(the request body was not journaled)"),
         {Highlight{m_overlap.clientFields, tint(base, CLIENT_COLOUR)}, overlapping});
}

void ConflictDiffView::fill(Pane &pane, const QString &title, const QByteArray &json, const QString &missing,
                            const QList<Highlight> &highlights)
{
    pane.title->setText(title);
    const PrettyJson pretty = PrettyJson::format(json);
    pane.text->setPlainText(json.isEmpty() ? missing : pretty.text);
    QList<QTextEdit::ExtraSelection> selections;
    if (pretty.valid) {
        QTextDocument *document = pane.text->document();
        for (const Highlight &highlight : highlights) {
            for (const QString &path : highlight.paths) {
                const auto lines = pretty.linesOfPath.constFind(path);
                if (lines == pretty.linesOfPath.cend())
                    continue;
                QTextEdit::ExtraSelection selection;
                selection.format.setBackground(highlight.colour);
                selection.format.setProperty(QTextFormat::FullWidthSelection, true);
                // One selection per line: a full-width selection only paints its block's line.
                for (int line = lines->first; line <= lines->last; ++line) {
                    selection.cursor = QTextCursor(document->findBlockByNumber(line));
                    selections.append(selection);
                }
            }
        }
    }
    pane.text->setExtraSelections(selections);
}

void ConflictDiffView::showMessage(const QString &message)
{
    m_operationId = 0;
    m_overlap = FieldOverlap{};
    m_header->setText(message);
    m_overlapLabel->clear();
    m_overlapLabel->setMinimumHeight(0);
    m_overlapLabel->setAutoFillBackground(false);
    for (Pane *pane : {&m_read, &m_live, &m_tried}) {
        pane->text->clear();
        pane->text->setExtraSelections({});
    }
    m_read.title->setText(tr("<b>Read</b> · what the client read"));
    m_live.title->setText(tr("<b>Live</b> · what is live"));
    m_tried.title->setText(tr("<b>Tried</b> · what it sent"));
}

void ConflictDiffView::clear()
{
    showMessage(tr("Select a conflict to compare what the client read, what is live and what it tried to write."));
}

QString ConflictDiffView::overlapText() const
{
    return m_overlapLabel->text();
}

} // namespace rvscope::ui
