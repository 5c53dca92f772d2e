// SPDX-License-Identifier: MIT
#include "scenario/ExplanationPanel.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QVBoxLayout>

#include "engine/Engine.h"

namespace rvscope::ui {

ExplanationPanel::ExplanationPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
{
    m_title = new QLabel(tr("No scenario loaded: choose one in the toolbar."), this);
    m_title->setObjectName(QStringLiteral("scenarioTitle"));
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_steps = new QListWidget(this);
    m_steps->setObjectName(QStringLiteral("scenarioSteps"));
    m_steps->setMaximumWidth(340);
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("explanationText"));
    m_text->setOpenLinks(false);

    auto *body = new QHBoxLayout;
    body->addWidget(m_steps, 1);
    body->addWidget(m_text, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addLayout(body, 1);

    connect(&engine, &engine::Engine::scenarioLoaded, this, &ExplanationPanel::handleLoaded);
    connect(&engine, &engine::Engine::scenarioStepCompleted, this, &ExplanationPanel::handleStep);
    connect(&engine, &engine::Engine::scenarioStateChanged, this, &ExplanationPanel::handleState);
    connect(&engine, &engine::Engine::verdictsReady, this, &ExplanationPanel::handleVerdicts);
    // A replay (restart, step back) starts from step 0 again.
    connect(&engine, &engine::Engine::historyReset, this, [this] {
        m_done.clear();
        m_verdicts.clear();
        render();
    });
}

QString ExplanationPanel::currentText() const
{
    return m_text->toPlainText();
}

void ExplanationPanel::handleLoaded(const engine::ScenarioInfo &info)
{
    m_info = info;
    m_done.clear();
    m_verdicts.clear();
    render();
}

void ExplanationPanel::handleStep(const engine::StepReport &step)
{
    // Replays report steps again from 0: keep one report per step.
    while (!m_done.isEmpty() && m_done.last().index >= step.index)
        m_done.removeLast();
    m_done.append(step);
    render();
}

void ExplanationPanel::handleState(const engine::ScenarioState &state)
{
    m_state = state;
    render();
}

void ExplanationPanel::handleVerdicts(const engine::VerdictList &verdicts)
{
    if (!m_state.finished)
        return; // a check of a live history, not the scenario's end
    m_verdicts = verdicts;
    render();
}

void ExplanationPanel::render()
{
    m_title->setText(m_info.name.isEmpty() ? tr("No scenario loaded: choose one in the toolbar.")
                                           : m_info.title + QStringLiteral(" — ") + m_info.description);
    m_steps->clear();
    for (int i = 0; i < m_info.stepLabels.size(); ++i) {
        QString label = QStringLiteral("%1. %2").arg(i + 1).arg(m_info.stepLabels[i]);
        auto *item = new QListWidgetItem(label, m_steps);
        if (i < m_done.size()) {
            const engine::StepReport &done = m_done[i];
            item->setText(label + QStringLiteral("  → %1").arg(done.status));
            item->setToolTip(done.outcome);
            if (!done.expectationMet)
                item->setForeground(QColor(200, 30, 30));
            else if (done.status >= 400)
                item->setForeground(QColor(210, 110, 0));
        } else if (i == m_done.size()) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
            m_steps->setCurrentItem(item);
        } else {
            item->setForeground(m_steps->palette().color(QPalette::Disabled, QPalette::Text));
        }
    }

    QString html;
    if (!m_done.isEmpty()) {
        const engine::StepReport &last = m_done.last();
        html += QStringLiteral("<p><b>Step %1 — what happened.</b> %2</p>").arg(last.index + 1).arg(last.explain.toHtmlEscaped());
        html += QStringLiteral("<p><code>%1</code></p>").arg(last.outcome.toHtmlEscaped());
        if (!last.details.isEmpty()) {
            html += QStringLiteral("<pre>");
            for (const QString &line : last.details)
                html += line.toHtmlEscaped() + u'\n';
            html += QStringLiteral("</pre>");
        }
    }
    const int next = static_cast<int>(m_done.size());
    if (next < m_info.stepExplanations.size()) {
        html += QStringLiteral("<p><b>Next — step %1: %2.</b> %3</p>")
                    .arg(next + 1)
                    .arg(m_info.stepLabels[next].toHtmlEscaped(), m_info.stepExplanations[next].toHtmlEscaped());
    } else if (!m_info.name.isEmpty() && m_state.finished) {
        html += QStringLiteral("<p><b>The scenario is over.</b></p>");
        for (const engine::VerdictReport &verdict : m_verdicts)
            html += QStringLiteral("<p>%1%2: <b>%3</b> %4</p>")
                        .arg(verdict.checker, verdict.key.isEmpty() ? QString() : u' ' + verdict.key,
                             verdict.outcome.toUpper().replace(u'-', u' '), verdict.summary.toHtmlEscaped());
    }
    if (html.isEmpty() && !m_info.name.isEmpty())
        html = QStringLiteral("<p>%1</p>").arg(m_info.description.toHtmlEscaped());
    m_text->setHtml(html);
}

} // namespace rvscope::ui
