#pragma once
// A VectorSurface's items as an SVG document, written the way cairo's SVG
// surface writes them (MapServer's CAIRO/SVG driver): one <path> per fill,
// stroke or fill-and-stroke with cairo's style attribute, coordinates on
// cairo's 1/256-pixel grid with its path rules (collinear segments merged,
// a closed subpath followed by a move back to its start), numbers as cairo
// prints them. Images become <image> elements holding a PNG.

#include "encode/vector_surface.h"

#include <QByteArray>
#include <QColor>

#include <optional>

namespace maptune {

// The surface's background is painted first as a full-size rectangle.
QByteArray writeSvg(const VectorSurface& surface);

// cairo's number format (_cairo_dtostr): "%f" without trailing zeros, more
// digits below 0.1 so that six significant ones remain.
QByteArray cairoNumber(double d);

}  // namespace maptune
