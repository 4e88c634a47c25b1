#include "timings_panel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace maptune {

namespace {

constexpr int kRolling = 120;  // renders kept in the line chart

struct Phase {
    const char* name;
    QColor colour;
    double LayerTrace::*ms;
};

const Phase kPhases[] = {
    {"open", QColor(0x8d, 0xa0, 0xcb), &LayerTrace::openMs},
    {"read", QColor(0x66, 0xc2, 0xa5), &LayerTrace::readMs},
    {"lut", QColor(0xe7, 0x8a, 0xc3), &LayerTrace::lutMs},
    {"draw", QColor(0xfc, 0x8d, 0x62), &LayerTrace::drawMs},
    {"label", QColor(0xa6, 0xd8, 0x54), &LayerTrace::labelMs},
};

}  // namespace

TimingsPanel::TimingsPanel(QWidget* parent)
    : QWidget(parent), m_layers(new QCustomPlot), m_total(new QCustomPlot), m_pause(new QCheckBox(tr("Pause")))
{
    QCPBars* below = nullptr;
    for (const Phase& phase : kPhases) {
        auto* bars = new QCPBars(m_layers->xAxis, m_layers->yAxis);
        bars->setName(QString::fromLatin1(phase.name));
        bars->setBrush(phase.colour);
        bars->setPen(phase.colour.darker(130));
        bars->setWidth(0.6);
        if (below) bars->moveAbove(below);
        below = bars;
        m_phases << bars;
    }
    m_layers->yAxis->setLabel(tr("ms (last render)"));
    m_layers->legend->setVisible(true);
    m_layers->legend->setFont(font());
    m_layers->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_layers->setMinimumHeight(160);

    m_totalGraph = m_total->addGraph();
    m_totalGraph->setName(tr("total"));
    m_totalGraph->setPen(QPen(QColor(0x33, 0x66, 0xcc), 1.5));
    m_totalGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    m_total->xAxis->setLabel(tr("render #"));
    m_total->yAxis->setLabel(tr("total ms"));
    m_total->setMinimumHeight(120);

    auto* clearButton = new QPushButton(tr("Clear"));
    connect(clearButton, &QPushButton::clicked, this, &TimingsPanel::clear);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_pause);
    bar->addStretch(1);
    bar->addWidget(clearButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_layers, 3);
    layout->addWidget(m_total, 2);
}

void TimingsPanel::addTrace(const Trace& trace)
{
    if (m_pause->isChecked()) return;
    ++m_count;
    m_totals.append(trace.totalMs);
    if (m_totals.size() > kRolling) m_totals.removeFirst();
    replotLayers(trace);
    replotTotals();
}

void TimingsPanel::clear()
{
    m_totals.clear();
    m_count = 0;
    for (QCPBars* bars : std::as_const(m_phases)) bars->data()->clear();
    m_totalGraph->data()->clear();
    m_layers->replot();
    m_total->replot();
}

void TimingsPanel::replotLayers(const Trace& trace)
{
    QVector<double> ticks;
    QVector<QString> labels;
    QList<const LayerTrace*> drawn;
    for (const LayerTrace& lt : trace.layers) {
        if (lt.skipped) continue;
        drawn << &lt;
        ticks << double(ticks.size() + 1);
        labels << lt.layer;
    }
    double maxMs = 1;
    for (int p = 0; p < m_phases.size(); ++p) {
        QVector<double> values;
        for (const LayerTrace* lt : std::as_const(drawn)) values << lt->*(kPhases[p].ms);
        m_phases[p]->setData(ticks, values, true);
    }
    for (const LayerTrace* lt : std::as_const(drawn))
        maxMs = std::max({maxMs, lt->totalMs, lt->openMs + lt->readMs + lt->lutMs + lt->drawMs + lt->labelMs});
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    m_layers->xAxis->setTicker(ticker);
    m_layers->xAxis->setRange(0.4, std::max<double>(1, drawn.size()) + 0.6);
    m_layers->yAxis->setRange(0, maxMs * 1.15);
    m_layers->replot(QCustomPlot::rpQueuedReplot);
}

void TimingsPanel::replotTotals()
{
    QVector<double> keys, values;
    const qint64 first = m_count - m_totals.size() + 1;
    double maxMs = 1;
    for (int i = 0; i < m_totals.size(); ++i) {
        keys << double(first + i);
        values << m_totals[i];
        maxMs = std::max(maxMs, m_totals[i]);
    }
    m_totalGraph->setData(keys, values, true);
    m_total->xAxis->setRange(first - 0.5, std::max<double>(first + 9.5, m_count + 0.5));
    m_total->yAxis->setRange(0, maxMs * 1.15);
    m_total->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace maptune
