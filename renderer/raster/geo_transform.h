#pragma once
// GDAL-style affine geotransform (pixel/line -> georeferenced x/y) and the
// way MapServer finds one for a raster layer.

#include <QString>

#include <array>
#include <optional>

typedef void* GDALDatasetH;

namespace maptune {

struct MapView;

struct LayerDef;
class ProcessingOptions;

struct GeoTransform {
    // x = c[0] + px*c[1] + py*c[2];  y = c[3] + px*c[4] + py*c[5]
    std::array<double, 6> c{0, 1, 0, 0, 0, -1};

    double x(double px, double py) const { return c[0] + px * c[1] + py * c[2]; }
    double y(double px, double py) const { return c[3] + px * c[4] + py * c[5]; }
    bool isNorthUp() const { return c[2] == 0 && c[4] == 0 && c[1] > 0 && c[5] < 0; }
    std::optional<GeoTransform> inverted() const;

    // MapServer's map->gt.geotransform for an unrotated view
    // (msMapComputeGeotransform): the pixel-centre extent over width - 1 pixels.
    static GeoTransform forMapView(const MapView& view);

    // MapServer's msGetGDALGeoTransform(): PROCESSING EXTENT_PRIORITY=WORLD
    // (with WORLDFILE) first, then the dataset's own georeferencing (a
    // south-up raw raster at origin 0 is flipped), then <file>.wld, then
    // the layer EXTENT, then pixel coordinates (0, height) north-up.
    static GeoTransform forRaster(GDALDatasetH ds, const LayerDef& layer, const ProcessingOptions& options,
                                  const QString& mapDir);
};

}  // namespace maptune
