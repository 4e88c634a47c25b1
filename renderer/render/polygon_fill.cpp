#include "render/polygon_fill.h"

#include "encode/vector_surface.h"

#include <QImage>

#include <array>
#include <cmath>

namespace maptune {

void PolygonFill::fill(QPainter& p, const QPainterPath& path, const QColor& color, double gamma)
{
    if (!color.isValid() || color.alpha() == 0 || path.isEmpty()) return;
    if (VectorSurface* surface = VectorSurface::of(p)) return surface->fillPolygon(p, path, color);
    if (gamma <= 0 || gamma >= 1) gamma = DefaultGamma;
    const QPainterPath dev = p.transform().map(path);
    QRect box = dev.boundingRect().toAlignedRect().adjusted(-1, -1, 1, 1);
    if (p.device()) box &= QRect(0, 0, p.device()->width(), p.device()->height());
    if (box.isEmpty()) return;

    // Coverage mask of the polygon, then remapped through gamma_linear(0, gamma).
    QImage mask(box.size(), QImage::Format_Alpha8);
    mask.fill(0);
    {
        QPainter mp(&mask);
        mp.setRenderHint(QPainter::Antialiasing);
        mp.translate(-box.topLeft());
        mp.fillPath(dev, Qt::black);
    }
    std::array<uchar, 256> lut{};
    for (int a = 0; a < 256; ++a) lut[a] = uchar(std::min(255.0, std::floor(a / gamma + 0.5)));

    const QRgb base = color.rgba();
    const int ca = qAlpha(base);
    QImage tile(box.size(), QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < box.height(); ++y) {
        const uchar* m = mask.constScanLine(y);
        auto* out = reinterpret_cast<QRgb*>(tile.scanLine(y));
        for (int x = 0; x < box.width(); ++x) {
            const int a = lut[m[x]] * ca / 255;
            out[x] = qPremultiply(qRgba(qRed(base), qGreen(base), qBlue(base), a));
        }
    }
    p.save();
    p.resetTransform();
    p.drawImage(box.topLeft(), tile);
    p.restore();
}

}  // namespace maptune
