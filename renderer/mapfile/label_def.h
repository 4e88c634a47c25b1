#pragma once
// A LABEL block.

#include "core/source_pos.h"
#include "mapfile/expression_def.h"
#include "mapfile/property_values.h"
#include "mapfile/style_def.h"

#include <QList>
#include <QString>

namespace maptune {

enum class LabelType { TrueType, Bitmap };
enum class LabelPosition { UL, UC, UR, CL, CC, CR, LL, LC, LR, Auto };

struct LabelDef {
    SourcePos pos;
    LabelType type = LabelType::Bitmap;
    QString font;                   // FONT name from the FONTSET (or [attr])
    NumberOrAttr size{-1};          // points for TrueType; -1 = MEDIUM bitmap
    QString bitmapSize;             // TINY SMALL MEDIUM LARGE GIANT when given by name
    double minSize = 4, maxSize = 256;
    ColorOrAttr color{Color::rgb(0, 0, 0)};
    ColorOrAttr outlineColor;
    double outlineWidth = 1;
    ColorOrAttr shadowColor;
    double shadowSizeX = 1, shadowSizeY = 1;
    LabelPosition position = LabelPosition::CC;
    double offsetX = 0, offsetY = 0;
    NumberOrAttr angle{0};
    QString angleMode;              // AUTO, AUTO2, FOLLOW when given
    double buffer = 0;
    bool partials = false;  // initLabel: labels stay inside the image unless PARTIALS TRUE
    double minDistance = -1;
    double minFeatureSize = -1;
    bool force = false;
    int repeatDistance = 0;
    QString align;                  // LEFT CENTER RIGHT
    QString wrap;
    int maxLength = 0;
    double minScaleDenom = -1;
    double maxScaleDenom = -1;
    int priority = 1;
    ExpressionDef text;             // TEXT inside LABEL
    ExpressionDef expression;       // EXPRESSION inside LABEL: drawn only for the features it matches
    QString encoding;
    QList<StyleDef> styles;         // label background styles
    QList<ExtraProperty> extras;
    bool operator==(const LabelDef&) const = default;
};

}  // namespace maptune
