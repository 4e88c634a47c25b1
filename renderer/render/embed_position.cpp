#include "render/embed_position.h"

#include <cmath>

namespace maptune {

QPoint embedTopLeft(QSize canvas, QSize image, const QString& position, QPoint offset)
{
    const QString p = position.toUpper();
    const int halfW = int(std::lround(image.width() / 2.0)), halfH = int(std::lround(image.height() / 2.0));
    int cx = halfW + offset.x();
    if (p.endsWith(QLatin1Char('R'))) cx = canvas.width() - halfW - offset.x();
    else if (p.endsWith(QLatin1Char('C'))) cx = int(std::lround(canvas.width() / 2.0)) + offset.x();
    const int cy = p.startsWith(QLatin1Char('U')) ? halfH + offset.y() : canvas.height() - halfH - offset.y();
    // Drawn as a pixmap marker at that centre, on the nearest whole pixel;
    // a half pixel goes to the even side (an odd legend height sits a row
    // higher, as in MapServer's output).
    return {int(std::nearbyint(cx - image.width() / 2.0)), int(std::nearbyint(cy - image.height() / 2.0))};
}

}  // namespace maptune
