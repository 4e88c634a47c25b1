#include "raster/direct_window.h"

#include <algorithm>
#include <cmath>

namespace maptune {

std::optional<DirectWindow> directWindow(const GeoTransform& gt, int xsize, int ysize, const MapView& view)
{
    const Rect map = view.extent;
    const double csx = view.cellSizeX(), csy = view.cellSizeY();
    if (csx <= 0 || csy <= 0) return std::nullopt;
    Rect copy = map;
    copy.minx = std::max(copy.minx, gt.x(0, ysize));
    copy.maxx = std::min(copy.maxx, gt.x(xsize, 0));
    copy.miny = std::max(copy.miny, gt.y(0, ysize));
    copy.maxy = std::min(copy.maxy, gt.y(xsize, 0));
    if (copy.minx >= copy.maxx || copy.miny >= copy.maxy) return std::nullopt;
    const auto inv = gt.inverted();
    if (!inv) return std::nullopt;
    const double llx = inv->x(copy.minx, copy.miny), lly = inv->y(copy.minx, copy.miny);
    const double urx = inv->x(copy.maxx, copy.maxy), ury = inv->y(copy.maxx, copy.maxy);

    DirectWindow d;
    RasterWindow& w = d.window;
    w.srcX = std::max(0, int(std::floor(llx + 0.5)));
    w.srcY = std::max(0, int(std::floor(ury + 0.5)));
    w.srcWidth = std::min(std::max(0, int(urx - llx + 0.5)), xsize - w.srcX);
    w.srcHeight = std::min(std::max(0, int(lly - ury + 0.5)), ysize - w.srcY);
    // Very small windows still use one source pixel (MapServer #4172).
    if (w.srcWidth == 0 && urx - llx > 0) {
        w.srcWidth = 1;
        w.srcX = std::min(w.srcX, xsize - 1);
    }
    if (w.srcHeight == 0 && lly - ury > 0) {
        w.srcHeight = 1;
        w.srcY = std::min(w.srcY, ysize - 1);
    }
    if (w.srcWidth <= 0 || w.srcHeight <= 0) return std::nullopt;

    d.dstX = int((copy.minx - map.minx) / csx);
    d.dstY = int((map.maxy - copy.maxy) / csy);
    const int lrx = std::clamp(int((copy.maxx - map.minx) / csx + 0.5), 0, view.width);
    const int lry = std::clamp(int((map.maxy - copy.miny) / csy + 0.5), 0, view.height);
    w.dstWidth = std::max(0, std::min(view.width, lrx - d.dstX));
    w.dstHeight = std::max(0, std::min(view.height, lry - d.dstY));
    if (w.dstWidth == 0 || w.dstHeight == 0) return std::nullopt;
    return d;
}

}  // namespace maptune
