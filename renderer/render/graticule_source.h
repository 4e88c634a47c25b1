#pragma once
// A LAYER with a GRID block (MapServer's graticule): meridians and parallels
// of the layer's CRS at an interval chosen for the view, each a line of
// MAXSUBDIVIDE segments so that it bends when drawn reprojected, plus --
// when the class has a LABEL -- a short segment at each map edge carrying
// the value (LABELFORMAT: DD, DDMM, DDMMSS or a printf-style number format)
// for the label cache to place where the line leaves the map.

#include "data/feature_source.h"
#include "mapfile/layer_def.h"

#include <QSizeF>

#include <functional>
#include <optional>

namespace maptune {

struct GraticuleSettings {
    QString labelFormat;  // as written; empty: MapServer's "%5.2g"
    double minInterval = 0, maxInterval = 0;
    int minSubdivide = 0, maxSubdivide = 0;
    int minArcs = 0, maxArcs = 0;

    // The layer's GRID block; none when it has no such block.
    static std::optional<GraticuleSettings> fromLayer(const LayerDef& layer);
    // A value as the label shows it; an unusable LABELFORMAT gives an error.
    Result<QString> format(double value) const;
};

// The first (ticks kept, interval in force) of MapServer's DefineAxis: the
// axis [min, max] widened to whole intervals and the interval, halved while
// fewer than `ticks` lines would show (when no interval is set).
struct GraticuleAxis {
    double min = 0, max = 0, interval = 0;
};
GraticuleAxis graticuleAxis(double min, double max, double interval, int ticks);

class GraticuleSource : public FeatureSource {
public:
    // `layerCrs`: the CRS the lines are in (none: the map's); `measure`: a
    // label text's size in pixels, for the edge segments' length.
    GraticuleSource(GraticuleSettings settings, std::optional<Crs> layerCrs, bool labelled,
                    std::function<QSizeF(const QString&)> measure);

    QStringList fields() const override { return {QStringLiteral("Graticule")}; }
    std::optional<Crs> nativeCrs() const override { return m_crs; }
    // Needs the query's view.
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    GraticuleSettings m_settings;
    std::optional<Crs> m_crs;
    bool m_labelled;
    std::function<QSizeF(const QString&)> m_measure;
};

}  // namespace maptune
