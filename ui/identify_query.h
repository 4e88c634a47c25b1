#pragma once
// The identify tool's query, runnable on any thread: the features of the given
// layers under a clicked map point (within a pixel tolerance), with all their
// attributes; for RASTER layers the nearest pixel's values. The vector test
// is msQueryByPoint's: inside a polygon, or within the tolerance of a line or
// point, measured in the map CRS after reprojecting the candidates.

#include "data/feature_source.h"
#include "mapfile/map_def.h"

#include <QPointF>
#include <QStringList>

namespace maptune {

struct IdentifyLayerResult {
    QString layer;
    QStringList fields;
    QList<Feature> features;
    QString error;             // the layer could not be queried
};

class IdentifyQuery {
public:
    static constexpr double kTolerancePx = 3;

    // point: in the map CRS; unitsPerPixel: of the view clicked.
    IdentifyQuery(MapDefPtr map, QStringList layers, QPointF point, double unitsPerPixel);
    void setMaxFeaturesPerLayer(int n) { m_maxPerLayer = n; }

    // In the order of `layers`; layers with nothing under the point are left out.
    QList<IdentifyLayerResult> run(const CancelToken& cancel = {}) const;

private:
    IdentifyLayerResult queryVector(const LayerDef& layer, const CancelToken& cancel) const;
    IdentifyLayerResult queryRaster(const LayerDef& layer) const;

    MapDefPtr m_map;
    QStringList m_layers;
    QPointF m_point;
    double m_unitsPerPixel;
    int m_maxPerLayer = 100;
};

}  // namespace maptune
