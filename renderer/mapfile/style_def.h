#pragma once
// A STYLE block.

#include "core/color.h"
#include "core/source_pos.h"
#include "mapfile/property_values.h"

#include <QList>
#include <QString>

namespace maptune {

enum class LineCap { Round, Butt, Square };
enum class LineJoin { Round, Miter, Bevel, None };

struct StyleDef {
    SourcePos pos;
    ColorOrAttr color;
    ColorOrAttr outlineColor;
    ColorOrAttr backgroundColor;
    NumberOrAttr width{1};
    NumberOrAttr outlineWidth{0};
    NumberOrAttr size{-1};          // -1: symbol's default size
    double minSize = 0;
    double maxSize = 500;
    double minWidth = 0;
    double maxWidth = 32;
    QString symbolName;             // SYMBOL "name" or SYMBOL [attr] (then symbolAttr)
    int symbolIndex = 0;            // SYMBOL n (0 = default: solid fill / pixel)
    QString symbolAttr;
    NumberOrAttr opacity{100};      // 0..100
    NumberOrAttr angle{0};          // degrees, counter-clockwise; AUTO -> angleAuto
    bool angleAuto = false;
    double gap = 0;
    double initialGap = -1;
    QList<double> pattern;
    LineCap lineCap = LineCap::Round;
    LineJoin lineJoin = LineJoin::Round;
    double lineJoinMaxSize = 3;
    bool antialias = true;          // ANTIALIAS FALSE: pixels at least half covered, in full
    NumberOrAttr offsetX{0};
    NumberOrAttr offsetY{0};
    NumberOrAttr polarOffsetRadius{0};
    NumberOrAttr polarOffsetAngle{0};
    QString geomTransform;
    double minScaleDenom = -1;
    double maxScaleDenom = -1;
    // Raster/continuous colour ramps: DATARANGE + COLORRANGE + RANGEITEM.
    bool hasRange = false;
    double dataRangeMin = 0, dataRangeMax = 0;
    Color colorRangeMin, colorRangeMax;
    QString rangeItem;
    QList<ExtraProperty> extras;
    bool operator==(const StyleDef&) const = default;

    // Whether a colour, size, width, angle, offset or opacity comes from an attribute.
    bool bindsAttributes() const
    {
        for (const NumberOrAttr* n : {&opacity, &width, &outlineWidth, &size, &angle, &offsetX, &offsetY,
                                      &polarOffsetRadius, &polarOffsetAngle})
            if (n->isBound()) return true;
        return color.isBound() || outlineColor.isBound() || backgroundColor.isBound();
    }
};

}  // namespace maptune
