#pragma once
// The heart of MapServer's msDrawRasterLayerGDAL(): read one source window
// of a GDAL dataset at a given output size and turn it into RGBA pixels —
// band choice, colour tables, SCALE, LUT, NODATA, OFFSITE, alpha and mask
// bands, raster classes. Placement on the map is the caller's business.

#include "core/result.h"

#include <QImage>
#include <QString>

#include <optional>

typedef void* GDALDatasetH;
typedef void* GDALRasterBandH;

namespace maptune {

struct LayerDef;
class RasterLuts;
struct LayerTrace;
class ProcessingOptions;
class RasterClassifier;

// Source window (pixels of the dataset) read into an output of dstWidth x dstHeight.
struct RasterWindow {
    int srcX = 0, srcY = 0, srcWidth = 0, srcHeight = 0;
    int dstWidth = 0, dstHeight = 0;
};

struct RasterSource {
    GDALDatasetH dataset = nullptr;
    const LayerDef* layer = nullptr;
    const ProcessingOptions* options = nullptr;
    const RasterLuts* luts = nullptr;               // the layer's LUT tables, built once
    QString mapDir;                                 // relative files resolve against it
    const RasterClassifier* classifier = nullptr;   // null: the layer has no effective classes
};

// PROCESSING NODATA=value|OFF|AUTO, else the band's own nodata (msGetGDALNoDataValue).
std::optional<double> rasterNoDataValue(const ProcessingOptions& options, GDALRasterBandH band);

class RasterComposer {
public:
    // A dstWidth x dstHeight ARGB32_Premultiplied image, transparent where
    // the raster has no data. Adds to trace.readMs / lutMs.
    static Result<QImage> compose(const RasterSource& source, const RasterWindow& window, LayerTrace& trace);
};

}  // namespace maptune
