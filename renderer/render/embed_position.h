#pragma once
// Where MapServer puts an embedded legend or scale bar (msEmbedScalebar,
// msEmbedLegend): the image's centre at half its size (rounded) from the
// chosen corner or edge, moved inwards by the offset.

#include <QPoint>
#include <QSize>
#include <QString>

namespace maptune {

// `position` is UL UC UR LL LC LR (anything else counts as LL).
QPoint embedTopLeft(QSize canvas, QSize image, const QString& position, QPoint offset = {});

}  // namespace maptune
