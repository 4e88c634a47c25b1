#pragma once
// Where a LINE layer's feature is clipped before its labels are placed on it,
// as msDrawShape clips: the map extent grown by a buffer as large as the
// class's biggest style (SIZE, WIDTH or the symbol's own size, scaled, plus a
// pixel). The extent runs between the corner pixels' centres, so the
// rectangle spans [-b, width - 1 + b] in pixels; a class with a style
// GEOMTRANSFORM is clipped after the transformation instead, to
// [-b, width + b]. (PROCESSING "LABEL_NO_CLIP=..." places labels on the
// whole line: the caller does not clip at all.)

#include "mapfile/map_def.h"

#include <QRectF>
#include <QStringList>

namespace maptune {

class StyleResolver;

QRectF labelLineClip(const ClassDef& c, const StyleResolver& resolver, const QStringList& values,
                     double scaleFactor, double resolutionFactor, int width, int height);

}  // namespace maptune
