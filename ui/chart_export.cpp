#include "chart_export.h"

#include <qcustomplot.h>

#include <QDir>
#include <QPainter>

#include <cmath>

namespace maptune {

namespace {

// RFC 4180: quote fields holding separators, quotes or line breaks.
QByteArray csvField(const QString& text)
{
    QByteArray f = text.toUtf8();
    if (!f.contains(',') && !f.contains('"') && !f.contains('\n') && !f.contains('\r')) return f;
    f.replace("\"", "\"\"");
    return '"' + f + '"';
}

QByteArray number(double v)
{
    return std::isfinite(v) ? QByteArray::number(v, 'g', 10) : QByteArray();
}

void appendRow(QByteArray& out, const QString& chart, const QString& series, double x, const QString& label, double v)
{
    out += csvField(chart) + ',' + csvField(series) + ',' + number(x) + ',' + csvField(label) + ',' + number(v) + '\n';
}

}  // namespace

Status savePlotsPng(const QList<QCustomPlot*>& plots, const QString& path)
{
    if (plots.size() == 1) {
        QCustomPlot* plot = plots.first();
        if (plot->savePng(path, plot->width(), plot->height())) return {};
        return Error(QObject::tr("cannot write %1").arg(QDir::toNativeSeparators(path)));
    }
    QList<QPixmap> parts;
    int width = 0, height = 0;
    for (QCustomPlot* plot : plots) {
        parts << plot->toPixmap(plot->width(), plot->height());
        width = std::max(width, parts.last().width());
        height += parts.last().height();
    }
    QImage image(std::max(1, width), std::max(1, height), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    int y = 0;
    for (const QPixmap& part : std::as_const(parts)) {
        painter.drawPixmap(0, y, part);
        y += part.height();
    }
    painter.end();
    if (image.save(path, "PNG")) return {};
    return Error(QObject::tr("cannot write %1").arg(QDir::toNativeSeparators(path)));
}

QByteArray plotsCsv(const QList<NamedPlot>& plots)
{
    QByteArray out("chart,series,x,label,value\n");
    for (const NamedPlot& named : plots) {
        QCustomPlot* plot = named.plot;
        QMap<double, QString> labels;
        if (auto text = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>()) labels = text->ticks();
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* p = plot->plottable(i);
            if (auto* graph = qobject_cast<QCPGraph*>(p)) {
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                    appendRow(out, named.name, graph->name(), it->key, QString(), it->value);
            } else if (auto* bars = qobject_cast<QCPBars*>(p)) {
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    appendRow(out, named.name, bars->name(), it->key, labels.value(it->key), it->value);
            }
        }
    }
    return out;
}

}  // namespace maptune
