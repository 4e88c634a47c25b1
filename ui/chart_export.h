#pragma once
// Exports of QCustomPlot charts: several plots stacked into one PNG (each
// drawn by QCustomPlot itself at its on-screen size), and the data behind
// them as CSV, one row per point -- what the charts show, no more.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

class QCustomPlot;

namespace maptune {

struct NamedPlot {
    QString name;       // the chart column of the CSV
    QCustomPlot* plot;
};

// PNG of the plots one above the other, or an error naming the file.
Status savePlotsPng(const QList<QCustomPlot*>& plots, const QString& path);

// "chart,series,x,label,value" rows: graphs give their (key, value) points,
// bars their (tick, value) with the tick's label from a text ticker.
QByteArray plotsCsv(const QList<NamedPlot>& plots);

}  // namespace maptune
