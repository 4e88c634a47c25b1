#pragma once
// CONNECTIONTYPE UVRASTER (MapServer's mapuvraster): a raster's u and v
// bands (PROCESSING BANDS=u,v) turned into one point per UV_SPACING map
// pixels, laid on the map's own grid from its lower-left corner, each with
// the vector's direction and length as attributes (uv_angle, uv_minus_angle,
// uv_length, uv_length_2 scaled by UV_SIZE_SCALE, u, v) for arrow symbols.
// A point takes the average of the raster cells under its block of map
// pixels (MapServer resamples with AVERAGE); blocks with no data or a zero
// vector give no point.

#include "data/feature_source.h"
#include "mapfile/layer_def.h"

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
    // `rasterPath`: the resolved DATA; an error names what is wrong with it.
    static Result<std::unique_ptr<UvRasterFeatureSource>> open(const QString& rasterPath, const LayerDef& layer);
    ~UvRasterFeatureSource() override;

    QStringList fields() const override;
    std::optional<Crs> nativeCrs() const override { return m_crs; }
    std::optional<Rect> extent() const override { return m_extent; }
    // Needs the query's view (the map's grid); without one, points on the
    // raster's own grid every UV_SPACING cells.
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    UvRasterFeatureSource() = default;

    void* m_dataset = nullptr;  // GDALDatasetH
    UvRasterSettings m_settings;
    std::optional<Crs> m_crs;
    std::optional<Rect> m_extent;
    double m_geoTransform[6] = {0, 1, 0, 0, 0, -1};
    int m_width = 0, m_height = 0;
};

}  // namespace maptune
