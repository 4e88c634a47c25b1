#pragma once
// The workbench's Identify, runnable on any thread: the features of the given
// layers under a clicked map point, with all their attributes -- the same
// point query as WMS GetFeatureInfo (PreparedLayer::queryPoint: the layer's
// TOLERANCE and TOLERANCEUNITS, msQueryByPoint's test, ascending ids), and
// for RASTER layers the pixel's values.

#include "data/feature_source.h"
#include "render/prepared_map.h"
#include "trace/cancel_token.h"

#include <QPointF>
#include <QStringList>

#include <optional>

namespace maptune {

struct IdentifyLayerResult {
    QString layer;
    QStringList fields;
    QList<Feature> features;
    QString error;             // the layer could not be queried
};

class IdentifyQuery {
public:
    // point: in the map CRS; unitsPerPixel and scaleDenom: of the view clicked.
    IdentifyQuery(PreparedMapPtr map, QStringList layers, QPointF point, double unitsPerPixel, double scaleDenom = 0);
    void setMaxFeaturesPerLayer(int n) { m_maxPerLayer = n; }
    // A click tolerance in pixels for every layer (mapserv's RADIUS); unset:
    // each layer's TOLERANCE and TOLERANCEUNITS, as GetFeatureInfo.
    void setTolerancePixels(std::optional<double> pixels) { m_tolerancePixels = pixels; }

    // In the order of `layers`; layers with nothing under the point are left out.
    QList<IdentifyLayerResult> run(const CancelToken& cancel = {}) const;

private:
    PreparedMapPtr m_map;
    QStringList m_layers;
    QPointF m_point;
    double m_unitsPerPixel;
    double m_scaleDenom;
    int m_maxPerLayer = 100;
    std::optional<double> m_tolerancePixels;
};

}  // namespace maptune
