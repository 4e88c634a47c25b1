#pragma once
// TYPE CHART layers (MapServer RFC 29, mapchart.c): for each feature a pie,
// a bar chart or a stacked bar, one slice or bar per class whose EXPRESSION
// holds, sized by that class's first STYLE SIZE (an attribute, usually) and
// filled with its COLOR. Placed at the point, the middle segment of a line
// or the label point of a polygon, and left out where it would not fit
// wholly inside the image.

#include "core/result.h"
#include "data/feature_source.h"
#include "geo/map_view.h"
#include "mapfile/map_def.h"

#include <QImage>
#include <QPointF>

#include <optional>

namespace maptune {

class StyleResolver;

// PROCESSING CHART_TYPE, CHART_SIZE, CHART_SIZE_RANGE, CHART_SCALE, CHART_BAR_MAXVAL/MINVAL.
struct ChartSettings {
    enum class Type { Pie, Bar, VBar };
    Type type = Type::Pie;
    double width = 20, height = 20;  // pie: the diameter; VBAR: the bar's width
    // Pie: the diameter from an attribute, mapped from [minValue, maxValue]
    // onto [minDiameter, maxDiameter] (minDiameter < 0: the value itself).
    struct SizeRange {
        QString attribute;
        double minDiameter = -1, maxDiameter = 0, minValue = 0, maxValue = 0, exponent = 0;
    };
    std::optional<SizeRange> sizeRange;
    double scale = 1;                 // VBAR: CHART_SCALE
    int classCount = 0;               // BAR: the width is shared by every class
    std::optional<double> barMax, barMin;

    // Errors name the key, as MapServer's do.
    static Result<ChartSettings> fromLayer(const LayerDef& layer);
    // The pie's diameter for a feature whose size attribute is `value`.
    double pieDiameter(double value) const;
};

class ChartPainter {
public:
    ChartPainter(const ChartSettings& settings, const MapView& view, QImage& canvas);

    // Where a chart of w x h pixels goes for `geometry` (in the view's
    // CRS), in pixels; nothing when it would not fit inside the image.
    std::optional<QPointF> placement(const Geometry& geometry, double w, double h) const;

    struct Slice {
        double value = 0;
        const StyleDef* style = nullptr;
    };
    // One feature's chart; `sizeValue` is CHART_SIZE_RANGE's attribute.
    // Errors: a pie of negative values.
    Status draw(const Geometry& geometry, const QList<Slice>& slices, double sizeValue, const StyleResolver& resolver,
                const QStringList& values);

private:
    void fill(const QPolygonF& ring, const StyleDef& style, const StyleResolver& resolver, const QStringList& values);

    const ChartSettings& m_settings;
    const MapView& m_view;
    QImage& m_canvas;
};

}  // namespace maptune
