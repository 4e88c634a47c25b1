#pragma once
// The two ways MapServer tests a scale against MINSCALEDENOM and
// MAXSCALEDENOM (0 or less: no bound; a scale of 0 or less: always in).

namespace maptune {

// Drawing and labels (msScaleInBounds): in when min <= scale < max.
inline bool inDrawScaleRange(double minScale, double maxScale, double scale)
{
    if (scale <= 0) return true;
    return !(maxScale > 0 && scale >= maxScale) && !(minScale > 0 && scale < minScale);
}

// Legend keys and queries (msDrawLegendIcon, msQueryBy*): in when min < scale <= max.
inline bool inQueryScaleRange(double minScale, double maxScale, double scale)
{
    if (scale <= 0) return true;
    return !(maxScale > 0 && scale > maxScale) && !(minScale > 0 && scale <= minScale);
}

}  // namespace maptune
