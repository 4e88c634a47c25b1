#pragma once
// How much two images of one size differ, for tests that compare a drawing
// with another made another way (an SVG rasterised against the PNG).

#include <QImage>

#include <cstdlib>

namespace maptune::test {

// The share of pixels whose colour differs by more than `tolerance` in a channel.
inline double differingPixels(const QImage& a, const QImage& b, int tolerance)
{
    if (a.size() != b.size() || a.isNull()) return 1;
    qsizetype differ = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            differ += std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance
                   || std::abs(qBlue(p) - qBlue(q)) > tolerance;
        }
    return double(differ) / (qsizetype(a.width()) * a.height());
}

}  // namespace maptune::test
