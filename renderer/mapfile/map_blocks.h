#pragma once
// The map-level blocks MapTune keeps whole but interprets only partly.

#include "core/color.h"
#include "mapfile/key_values.h"
#include "mapfile/label_def.h"
#include "mapfile/property_values.h"

#include <QList>
#include <QString>

#include <optional>

namespace maptune {

// Blocks we keep whole but interpret only partly (LEGEND, SCALEBAR, QUERYMAP, WEB).
struct LegendDef {
    bool present = false;
    Color imageColor = Color::rgb(255, 255, 255);
    int keySizeX = 20, keySizeY = 10;
    int keySpacingX = 5, keySpacingY = 5;
    QString status;
    bool postLabelCache = false;
    std::optional<LabelDef> label;
    QString templ;
    Color outlineColor;              // OUTLINECOLOR around the key boxes
    QList<ExtraProperty> extras;
    bool operator==(const LegendDef&) const = default;
};

struct ScalebarDef {
    bool present = false;
    QString status;                  // OFF ON EMBED
    QString units;
    int intervals = 4;
    int sizeX = 200, sizeY = 3;
    int style = 0;
    Color color = Color::rgb(0, 0, 0);
    Color backgroundColor = Color::rgb(255, 255, 255);
    Color imageColor = Color::rgb(255, 255, 255);
    Color outlineColor;
    QString position;
    bool transparent = false;
    std::optional<LabelDef> label;
    QList<ExtraProperty> extras;
    bool operator==(const ScalebarDef&) const = default;
};

struct QueryMapDef {
    bool present = false;
    QString status;
    QString style;
    Color color;
    int sizeX = -1, sizeY = -1;
    bool operator==(const QueryMapDef&) const = default;
};

struct WebDef {
    bool present = false;
    KeyValues metadata;
    KeyValues validation;
    QString imagePath, imageUrl, templ, header, footer, empty, error;
    double minScaleDenom = -1;       // MINSCALEDENOM / MINSCALE: the root layer's scale range in capabilities
    double maxScaleDenom = -1;
    QList<ExtraProperty> extras;
    bool operator==(const WebDef&) const = default;
};

}  // namespace maptune
