#pragma once
// Where the view lands on the raster when no resampling is needed
// (msDrawRasterLayerGDAL's own window): MapServer's integer source window
// read into an integer destination rectangle.

#include "geo/map_view.h"
#include "raster/geo_transform.h"
#include "raster/raster_composer.h"

#include <optional>

namespace maptune {

struct DirectWindow {
    RasterWindow window;
    int dstX = 0, dstY = 0;
};

// nullopt when the view and the raster (xsize x ysize pixels) do not overlap.
std::optional<DirectWindow> directWindow(const GeoTransform& gt, int xsize, int ysize, const MapView& view);

}  // namespace maptune
