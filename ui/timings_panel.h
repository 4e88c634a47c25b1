#pragma once
// Live timing charts (QCustomPlot): the last render's per-layer times stacked
// by phase (open, read, lut, draw, label) and a rolling line of total render
// time. Fed with finished Traces on the GUI thread (see TraceRelay).

#include "trace/trace.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCheckBox;

namespace maptune {

class TimingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingsPanel(QWidget* parent = nullptr);

    int historySize() const { return int(m_totals.size()); }
    QCustomPlot* layerPlot() const { return m_layers; }
    QCustomPlot* totalPlot() const { return m_total; }

public Q_SLOTS:
    void addTrace(const maptune::Trace& trace);
    void clear();

private:
    void replotLayers(const Trace& trace);
    void replotTotals();

    QCustomPlot* m_layers;
    QCustomPlot* m_total;
    QList<QCPBars*> m_phases;  // stacked, bottom first
    QCPGraph* m_totalGraph = nullptr;
    QCheckBox* m_pause;
    QList<double> m_totals;
    qint64 m_count = 0;
};

}  // namespace maptune
