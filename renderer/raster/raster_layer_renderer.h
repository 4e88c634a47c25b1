#pragma once
// Draws a RASTER layer the way MapServer 8's msDrawRasterLayerGDAL() does:
// window read through GDAL at output resolution (GDAL picks the overview),
// PROCESSING BANDS/SCALE/LUT/NODATA/RESAMPLE, OFFSITE, alpha and mask bands,
// raster classes, reprojection, TILEINDEX, then OPACITY on compositing.

#include "geo/crs.h"
#include "geo/map_view.h"
#include "mapfile/map_def.h"
#include "mapfile/processing.h"
#include "raster/raster_classifier.h"
#include "raster/raster_luts.h"
#include "raster/raw_band_resampler.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QImage>
#include <QStringList>

#include <memory>
#include <optional>

typedef void* GDALDatasetH;

namespace maptune {

// What every render of one raster layer shares, built once when the map is
// prepared: typed PROCESSING, LUT tables, raster classes, the PROJECTION.
struct RasterLayerSetup {
    RasterLayerSetup(const MapDef& map, const LayerDef& layer);

    ProcessingOptions options;
    QString mapDir;
    RasterLuts luts;
    std::shared_ptr<const RasterClassifier> classifier;  // null: the layer is not classified
    QString classifierError;                             // a class EXPRESSION that does not compile
    std::optional<Crs> crs;                              // unset: no PROJECTION, or AUTO (the file's own)
    QString crsError;                                    // a PROJECTION that does not resolve
};

// A raw-mode image (OUTPUTFORMAT IMAGEMODE BYTE, INT16, FLOAT32): one plane
// of width x height values per band, NULLVALUE (or 0) where nothing drew.
struct RawImage {
    int width = 0, height = 0;
    RawStorage storage = RawStorage::Float32;
    std::vector<std::vector<float>> bands;
};

class RasterLayerRenderer {
public:
    // Draws `layer` onto `canvas` (Format_ARGB32_Premultiplied, view.width x
    // view.height) with source-over compositing and the layer's OPACITY.
    // On failure returns false with trace.error naming the layer and the file
    // ("layer 'ortho': cannot open data/x.tif: ..."). Fills trace.openMs,
    // readMs, lutMs, drawMs, totalMs and pixels. GDALAllRegister() must have run.
    static bool render(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup, const MapView& view,
                       QImage& canvas, LayerTrace& trace, const CancelToken& cancel);
    // The same, preparing the layer's setup on the spot (one-off renders, tests).
    static bool render(const MapDef& map, const LayerDef& layer, const MapView& view, QImage& canvas,
                       LayerTrace& trace, const CancelToken& cancel);

    // Draws `dataset`, a surface computed on the view's own pixel grid and in
    // its CRS (KERNELDENSITY, IDW), with the layer's classes, OFFSITE and OPACITY.
    static bool renderDataset(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup,
                              const MapView& view, GDALDatasetH dataset, QImage& canvas, LayerTrace& trace);

    // Writes the layer's band values into `image` (raw mode): BANDS, or the
    // first bands; NODATA / OFFSITE pixels leave what is there.
    static bool renderRaw(const MapDef& map, const LayerDef& layer, const MapView& view, RawImage& image, LayerTrace& trace,
                          const CancelToken& cancel);

    // PROCESSING problems MapServer keeps silent about (unknown or repeated keys).
    static QStringList warnings(const LayerDef& layer);
};

}  // namespace maptune
