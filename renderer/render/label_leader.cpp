#include "render/label_leader.h"

#include "encode/vector_surface.h"
#include "mapfile/map_loader.h"
#include "render/stroke_painter.h"
#include "render/style_resolver.h"

#include <QImage>
#include <QPainter>

namespace maptune {

std::optional<LabelLeader> LabelLeader::fromClass(const ClassDef& c)
{
    const ExtraProperty* block = nullptr;
    for (const ExtraProperty& e : c.extras)
        if (e.keyword == QLatin1String("LEADER")) block = &e;
    if (!block) return std::nullopt;
    LabelLeader leader;
    // The block's raw tokens: numbers read here, each STYLE through the
    // mapfile parser itself so that it means what a class STYLE means.
    const QStringList& t = block->args;
    for (qsizetype i = 0; i < t.size(); ++i) {
        const QString word = t[i].toUpper();
        if ((word == QLatin1String("MAXDISTANCE") || word == QLatin1String("GRIDSTEP")) && i + 1 < t.size()) {
            bool ok = false;
            const int v = t[++i].toInt(&ok);
            if (!ok || v <= 0) return std::nullopt;
            (word == QLatin1String("GRIDSTEP") ? leader.gridStep : leader.maxDistance) = v;
        } else if (word == QLatin1String("STYLE")) {
            QStringList style;
            int depth = 0;
            for (; i < t.size(); ++i) {
                style << t[i];
                if (t[i].compare(QLatin1String("END"), Qt::CaseInsensitive) == 0 && --depth == 0) break;
                if (t[i].compare(QLatin1String("STYLE"), Qt::CaseInsensitive) == 0
                    || t[i].compare(QLatin1String("PATTERN"), Qt::CaseInsensitive) == 0)
                    ++depth;
            }
            const QByteArray text = "MAP LAYER CLASS " + style.join(QLatin1Char(' ')).toUtf8() + " END END END";
            const LoadResult parsed = parseMapText(text, QStringLiteral("LEADER"));
            if (!parsed.ok() || parsed.map->layers.isEmpty() || parsed.map->layers[0].classes.isEmpty()) return std::nullopt;
            leader.styles << parsed.map->layers[0].classes[0].styles;
        }
    }
    return leader;
}

QList<QPoint> LabelLeader::offsets() const
{
    QList<QPoint> out;
    if (gridStep <= 0) return out;
    const int steps = maxDistance / gridStep;
    const int g = gridStep;
    for (int i = 1; i <= steps; ++i) {
        // j stops short of i - 1 (the loop's bound in msDrawOffsettedLabels).
        for (int j = 1; j < i - 1; ++j)
            out << QPoint(i * g, j * g) << QPoint(i * g, -j * g) << QPoint(-i * g, j * g) << QPoint(-i * g, -j * g)
                << QPoint(j * g, -i * g) << QPoint(-j * g, -i * g) << QPoint(j * g, i * g) << QPoint(-j * g, i * g);
        out << QPoint(i * g, i * g) << QPoint(-i * g, -i * g) << QPoint(i * g, -i * g) << QPoint(-i * g, i * g);
        out << QPoint(i * g, 0) << QPoint(-i * g, 0) << QPoint(0, -i * g) << QPoint(0, i * g);
    }
    return out;
}

void LabelLeader::draw(QImage& canvas, const QLineF& line, double scaleFactor) const
{
    QPainter p(VectorSurface::deviceFor(canvas));
    p.setRenderHint(QPainter::Antialiasing);
    for (const StyleDef& s : styles) {
        const Color& c = s.color.color.isSet() ? s.color.color : s.outlineColor.color;
        if (!c.isSet()) continue;
        double width = (s.width.value > 0 ? s.width.value : 1) * scaleFactor;
        if (s.minWidth > 0) width = std::max(width, s.minWidth);
        if (s.maxWidth > 0) width = std::min(width, s.maxWidth);
        // As every line of a layer: AGG's hairline caps, the style's caps,
        // joins and PATTERN otherwise.
        const QPen pen = StyleResolver::linePen(QColor(c.r, c.g, c.b, c.a), width, s, scaleFactor);
        StrokePainter::stroke(p, {QPolygonF{line.p1(), line.p2()}}, pen, false, StrokePainter::coverageFor(s));
    }
}

}  // namespace maptune
