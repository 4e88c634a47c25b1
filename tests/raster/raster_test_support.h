#pragma once
// Shared by the raster tests: MapServer's LUT ramp arithmetic, a raster layer
// for a DATA path and a blank canvas to draw into.

#include "mapfile/map_def.h"

#include <QImage>
#include <QStringList>

#include <cmath>

namespace maptune::rastertest {

// floor(v + 0.5) of the straight line from (x0,y0) to (x1,y1) at x: the
// value MapServer's ParseDefaultLUT() stores.
inline int ramp(int x, int x0, int y0, int x1, int y1)
{
    const double r = (x1 == x0) ? 1.0 : double(x - x0) / (x1 - x0);
    return int(std::floor((1.0 - r) * y0 + r * y1 + 0.5));
}

inline LayerDef rasterLayer(const QString& data, const QStringList& processing = {})
{
    LayerDef l;
    l.name = QStringLiteral("r");
    l.type = LayerType::Raster;
    l.status = LayerStatus::Default;
    l.data = data;
    l.processing = processing;
    return l;
}

inline QImage blankCanvas(int w, int h, QRgb color = qRgba(0, 0, 0, 0))
{
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    img.fill(qPremultiply(color));
    return img;
}

}  // namespace maptune::rastertest
