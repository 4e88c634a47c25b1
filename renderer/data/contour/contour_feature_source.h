#pragma once
// CONNECTIONTYPE CONTOUR (MapServer RFC 85): contour lines generated on the
// fly from a raster's band with GDAL's contour generator, for the part of
// the raster a request shows, sampled no finer than the map's cell size.
// The lines carry an ID and the elevation as the CONTOUR_ITEM attribute, so
// that CLASS EXPRESSIONs and LABELs work on them as on any line layer.

#include "data/feature_source.h"
#include "mapfile/map_def.h"

#include <QString>

#include <memory>
#include <optional>

namespace maptune {

// The PROCESSING keys of a contour layer.
struct ContourSettings {
    int band = 1;                 // BANDS=n
    QString item;                 // CONTOUR_ITEM: the elevation attribute's name
    // CONTOUR_INTERVAL and CONTOUR_LEVELS, each either "value" or, repeated,
    // "minscale,maxscale:value" (the first range holding the scale wins).
    QStringList intervals;
    QStringList levels;

    static Result<ContourSettings> fromLayer(const LayerDef& layer);
    // The interval (> 0) or the fixed levels in force at this scale; neither: no contours.
    std::optional<double> intervalAt(double scaleDenom) const;
    QList<double> levelsAt(double scaleDenom) const;
};

class ContourFeatureSource : public FeatureSource {
public:
    // `rasterPath`: the resolved DATA. An error when it is no raster or the
    // settings are wrong (both naming what to fix).
    static Result<std::unique_ptr<ContourFeatureSource>> open(const QString& rasterPath, const LayerDef& layer);
    // A layer whose TILEINDEX gives the rasters: the tiles the view meets
    // (and the layer's FILTER, e.g. a WMS TIME, lets through) are mosaicked
    // for each query. `map` must outlive the source.
    static Result<std::unique_ptr<ContourFeatureSource>> openTiled(const MapDef& map, const LayerDef& layer);
    ~ContourFeatureSource() override;

    QStringList fields() const override { return m_fields; }
    std::optional<Crs> nativeCrs() const override { return m_crs; }
    std::optional<Rect> extent() const override { return m_extent; }
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    ContourFeatureSource() = default;
    // Contours of `dataset` (north-up) for the query.
    Result<std::unique_ptr<FeatureCursor>> contoursOf(void* dataset, const QString& name, const FeatureQuery& q) const;
    Result<std::unique_ptr<FeatureCursor>> queryTiles(const FeatureQuery& q) const;

    void* m_dataset = nullptr;  // GDALDatasetH
    QString m_path;
    ContourSettings m_settings;
    QStringList m_fields;
    std::optional<Crs> m_crs;
    std::optional<Rect> m_extent;
    double m_geoTransform[6] = {0, 1, 0, 0, 0, -1};
    const MapDef* m_map = nullptr;     // tiled: the map the tile paths resolve against
    const LayerDef* m_layer = nullptr; // tiled: TILEINDEX, TILEITEM, FILTER
};

}  // namespace maptune
