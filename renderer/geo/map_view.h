#pragma once
// What one render draws: the map extent in the map's CRS, the image size and
// the derived pixel geometry. Follows MapServer's convention that EXTENT gives
// the outer edges of the image (cellsize = width / (pixels - 1) in MapServer
// 8? no: MapServer adjusts the extent by half a pixel; see mapViewTransform()).

#include "core/rect.h"
#include "geo/crs.h"

namespace maptune {

struct MapDef;

struct MapView {
    Rect extent;            // edges of the image in map units (after MapServer's adjustment)
    // MapServer's own map extent, between the corner pixels' centres; invalid
    // when the view was made by hand (then derived from the edges).
    Rect centerExtent;
    int width = 0;          // pixels
    int height = 0;
    Crs crs;                // map CRS (may be invalid: no PROJECTION, no reprojection)
    double resolution = 72; // dpi (MAP RESOLUTION)
    double defResolution = 72;
    double scaleDenom = 0;  // computed for the extent and size
    double angle = 0;       // map rotation in degrees

    double cellSizeX() const { return extent.width() / width; }
    double cellSizeY() const { return extent.height() / height; }
    // Map coordinates to pixel coordinates (0,0 = top-left corner of the image).
    double toPixelX(double x) const { return (x - extent.minx) / cellSizeX(); }
    double toPixelY(double y) const { return (extent.maxy - y) / cellSizeY(); }
    double toMapX(double px) const { return extent.minx + px * cellSizeX(); }
    double toMapY(double py) const { return extent.maxy - py * cellSizeY(); }
};

}  // namespace maptune

namespace maptune {

// MapServer's inches per map unit (METERS, DD, FEET, INCHES, KILOMETERS,
// MILES, NAUTICALMILES, PIXELS); unknown names count as metres.
double inchesPerUnit(const QString& units);

// Units of a map: its UNITS keyword, else what its CRS says (DD for
// geographic), else METERS — as msLoadMap does.
QString effectiveUnits(const MapDef& map, const Crs& crs);

// msAdjustExtent: a centre-to-centre extent grown about its centre to square
// pixels of width x height; returns the cell size (0 when it cannot).
double adjustExtent(Rect& extent, int width, int height);

// MapServer's map extent for image edges (mapwms.c): moved in by half a
// pixel of each axis, so that it runs between the corner pixels' centres.
Rect pixelCentreExtent(const Rect& edges, int width, int height);

// A view from a mapfile-style centre-to-centre EXTENT: grown to square pixels
// (msAdjustExtent), then widened by half a pixel to the image edges.
MapView makeMapViewFromCenterExtent(const Rect& extent, int width, int height, const Crs& crs,
                                    const QString& units, double resolution);
// A view from image edges (a WMS BBOX); pixels may be non-square.
MapView makeMapViewFromEdges(const Rect& edges, int width, int height, const Crs& crs,
                             const QString& units, double resolution);

}  // namespace maptune
