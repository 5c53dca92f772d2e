// SPDX-License-Identifier: MIT
#include "verdicts/VerdictTreeModel.h"

#include <QtGui/QFont>
#include <QtGui/QGuiApplication>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QPalette>
#include <QtGui/QPixmap>

namespace rvscope::ui {
namespace {
using Column = VerdictTreeModel::Column;
using Outcome = VerdictTreeModel::Outcome;

constexpr int COLUMN_COUNT = int(Column::Count);
// internalId of a verdict (a top-level row); a finding's is its verdict's row + 1.
constexpr quintptr VERDICT_ROW = 0;

QString outcomeText(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Pass:
        return VerdictTreeModel::tr("PASS");
    case Outcome::Fail:
        return VerdictTreeModel::tr("FAIL");
    case Outcome::NoHistory:
        return VerdictTreeModel::tr("NO HISTORY");
    case Outcome::Unknown:
        break;
    }
    return VerdictTreeModel::tr("UNKNOWN");
}

// The timeline's grammar: success is a filled circle, a failure a square, the rest a triangle;
// a white mark inside names it once more (✓, ✕, ?).
QIcon drawIcon(Outcome outcome, const QColor &colour)
{
    constexpr int SIZE = 32;
    QPixmap pixmap(SIZE, SIZE);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    const QRectF box(3, 3, SIZE - 6, SIZE - 6);
    QPen mark(Qt::white, 3.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    switch (outcome) {
    case Outcome::Pass:
        painter.drawEllipse(box);
        painter.setPen(mark);
        painter.drawPolyline(QPolygonF({QPointF(10, 16.5), QPointF(14.5, 21), QPointF(22.5, 11.5)}));
        break;
    case Outcome::Fail:
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(mark);
        painter.drawLine(QPointF(11, 11), QPointF(21, 21));
        painter.drawLine(QPointF(21, 11), QPointF(11, 21));
        break;
    case Outcome::NoHistory:
        // Nothing was checked: an empty ring with a dash, no verdict's filled shape.
        painter.setPen(QPen(colour, 3.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(box.adjusted(2, 2, -2, -2));
        painter.drawLine(QPointF(11, 16), QPointF(21, 16));
        break;
    case Outcome::Unknown: {
        QPainterPath triangle;
        triangle.moveTo(SIZE / 2.0, 2);
        triangle.lineTo(SIZE - 2, SIZE - 4);
        triangle.lineTo(2, SIZE - 4);
        triangle.closeSubpath();
        painter.drawPath(triangle);
        painter.setPen(Qt::white);
        QFont font;
        font.setPixelSize(16);
        font.setBold(true);
        painter.setFont(font);
        painter.drawText(QRectF(0, 9, SIZE, SIZE - 12), Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    }
    return QIcon(pixmap);
}
} // namespace

VerdictTreeModel::VerdictTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
    const QColor base = QGuiApplication::palette().color(QPalette::Base);
    for (Outcome outcome : {Outcome::Pass, Outcome::Fail, Outcome::Unknown, Outcome::NoHistory})
        m_icons[int(outcome)] = drawIcon(outcome, colourOf(outcome, base));
}

VerdictTreeModel::~VerdictTreeModel() = default;

void VerdictTreeModel::setVerdicts(const engine::VerdictList &verdicts)
{
    beginResetModel();
    m_verdicts = verdicts;
    endResetModel();
}

void VerdictTreeModel::clear()
{
    setVerdicts({});
}

int VerdictTreeModel::rowOf(const QString &checker, const QString &key) const
{
    for (qsizetype row = 0; row < m_verdicts.size(); ++row) {
        if (m_verdicts[row].checker == checker && m_verdicts[row].key == key)
            return int(row);
    }
    return -1;
}

VerdictTreeModel::Outcome VerdictTreeModel::outcomeOf(const QString &outcome)
{
    if (outcome == QLatin1String("pass"))
        return Outcome::Pass;
    if (outcome == QLatin1String("fail"))
        return Outcome::Fail;
    if (outcome == QLatin1String("no-history"))
        return Outcome::NoHistory;
    return Outcome::Unknown;
}

QColor VerdictTreeModel::colourOf(Outcome outcome, const QColor &base)
{
    const bool dark = base.lightnessF() < 0.5;
    switch (outcome) {
    case Outcome::Pass:
        return dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
    case Outcome::Fail:
        return dark ? QColor(0xFF, 0x6A, 0x3D) : QColor(0xD5, 0x5E, 0x00);
    case Outcome::Unknown:
    case Outcome::NoHistory:
        break;
    }
    return dark ? QColor(0xA0, 0xA0, 0xA0) : QColor(0x80, 0x80, 0x80);
}

QModelIndex VerdictTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, VERDICT_ROW);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex VerdictTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == VERDICT_ROW)
        return {};
    return createIndex(int(child.internalId() - 1), 0, VERDICT_ROW);
}

int VerdictTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_verdicts.size());
    // Findings have no children; only a verdict's first column has its findings.
    if (parent.internalId() != VERDICT_ROW || parent.column() != 0)
        return 0;
    return int(m_verdicts[parent.row()].findings.size());
}

int VerdictTreeModel::columnCount(const QModelIndex &) const
{
    return COLUMN_COUNT;
}

QVariant VerdictTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto column = static_cast<Column>(index.column());
    if (index.internalId() == VERDICT_ROW)
        return verdictData(m_verdicts[index.row()], column, role);
    return findingData(m_verdicts[qsizetype(index.internalId() - 1)], index.row(), column, role);
}

QVariant VerdictTreeModel::verdictData(const engine::VerdictReport &verdict, Column column, int role) const
{
    const Outcome outcome = outcomeOf(verdict.outcome);
    switch (role) {
    case OutcomeRole:
        return int(outcome);
    case AsExpectedRole:
        return verdict.asExpected;
    case Qt::DisplayRole:
        switch (column) {
        case Column::Checker:
            return verdict.checker;
        case Column::Key:
            return verdict.key.isEmpty() ? tr("(whole history)") : verdict.key;
        case Column::Outcome:
            return outcomeText(outcome);
        case Column::Expected:
            return verdict.asExpected ? (verdict.expected ? tr("pass") : tr("fail"))
                                      : (verdict.expected ? tr("pass — not met") : tr("fail — not met"));
        case Column::Summary:
            return verdict.summary;
        case Column::Count:
            break;
        }
        return {};
    case Qt::DecorationRole:
        return column == Column::Outcome ? QVariant(iconOf(outcome)) : QVariant();
    case Qt::ForegroundRole:
        if (column == Column::Outcome)
            return colourOf(outcome, QGuiApplication::palette().color(QPalette::Base));
        if (column == Column::Expected && !verdict.asExpected)
            return colourOf(Outcome::Fail, QGuiApplication::palette().color(QPalette::Base));
        return {};
    case Qt::FontRole:
        if (column == Column::Outcome || (column == Column::Expected && !verdict.asExpected)) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("%1 on %2: %3").arg(verdict.checker, verdict.key.isEmpty() ? tr("the whole history") : verdict.key,
                                            verdict.summary);
        tip += QLatin1Char('\n')
            + (verdict.asExpected ? tr("As expected.")
                                  : tr("Expected %1, got %2.").arg(verdict.expected ? tr("pass") : tr("fail"),
                                                                   verdict.outcome));
        return tip;
    }
    default:
        return {};
    }
}

QVariant VerdictTreeModel::findingData(const engine::VerdictReport &verdict, int finding, Column column, int role) const
{
    if (column != Column::Checker)
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return verdict.findings[finding];
    return {};
}

QVariant VerdictTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= COLUMN_COUNT)
        return {};
    switch (static_cast<Column>(section)) {
    case Column::Checker:
        return tr("Checker");
    case Column::Key:
        return tr("Key");
    case Column::Outcome:
        return tr("Outcome");
    case Column::Expected:
        return tr("Expected");
    case Column::Summary:
        return tr("Summary");
    case Column::Count:
        break;
    }
    return {};
}

} // namespace rvscope::ui
