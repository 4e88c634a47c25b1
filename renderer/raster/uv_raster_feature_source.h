#pragma once
// CONNECTIONTYPE UVRASTER (MapServer's mapuvraster): a raster's u and v
// bands (PROCESSING BANDS=u,v) turned into one point per UV_SPACING map
// pixels, each with the vector's direction and length as attributes
// (uv_angle, uv_minus_angle, uv_length, uv_length_2 scaled by UV_SIZE_SCALE,
// u, v) for arrow symbols.
//
// As MapServer does it: the bands are resampled (AVERAGE unless PROCESSING
// RESAMPLE says otherwise) onto a grid of map width / spacing by height /
// spacing laid in the layer's CRS from the view's lower-left pixel centre;
// a grid cell with no data or a zero vector gives no point. A layer whose
// PROJECTION wraps longitudes at 180 (lon_wrap=180) over an EXTENT of 0..360
// is read with its two hemispheres swapped, so that a world map shows it
// whole.

#include "data/feature_source.h"
#include "mapfile/layer_def.h"
#include "raster/geo_transform.h"

#include <QString>

#include <memory>
#include <optional>

namespace maptune {

struct UvRasterSettings {
    int uBand = 1, vBand = 2;
    int spacing = 32;       // UV_SPACING: map pixels between points
    double sizeScale = 1;   // UV_SIZE_SCALE: uv_length = |(u,v)| x scale

    static Result<UvRasterSettings> fromLayer(const LayerDef& layer);
};

class UvRasterFeatureSource : public FeatureSource {
public:
    // `rasterPath`: the resolved DATA; `mapDir` resolves world files. An
    // error names what is wrong with the raster or the layer's settings.
    static Result<std::unique_ptr<UvRasterFeatureSource>> open(const QString& rasterPath, const LayerDef& layer,
                                                               const QString& mapDir);
    ~UvRasterFeatureSource() override;

    QStringList fields() const override;
    std::optional<Crs> nativeCrs() const override { return m_crs; }
    std::optional<Rect> extent() const override { return m_extent; }
    // Needs the query's view (the map's grid); without one, points on the
    // raster's own grid every UV_SPACING cells.
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    UvRasterFeatureSource() = default;
    Result<std::unique_ptr<FeatureCursor>> sampleView(const FeatureQuery::View& view, const CancelToken& cancel);
    Result<std::unique_ptr<FeatureCursor>> sampleRasterGrid(const CancelToken& cancel);
    Rect searchRect(const Rect& centres, const Crs& mapCrs) const;
    bool openSwappedHemispheres(const QString& rasterPath, const QString& mapDir);

    LayerDef m_layer;
    void* m_dataset = nullptr;   // GDALDatasetH
    void* m_swapped = nullptr;   // GDALDatasetH: the hemispheres swapped (lon_wrap=180 over 0..360), or null
    GeoTransform m_gt, m_swappedGt;
    UvRasterSettings m_settings;
    std::optional<Crs> m_crs;        // the layer's, lon_wrap included
    std::optional<Crs> m_plainCrs;   // the same without lon_wrap: the grid is laid there
    std::optional<double> m_lonWrap;
    std::optional<Rect> m_extent;
};

}  // namespace maptune
