#pragma once
// An OUTPUTFORMAT block.

#include "core/source_pos.h"
#include "mapfile/key_values.h"

#include <QString>

namespace maptune {

struct OutputFormatDef {
    SourcePos pos;
    QString name;
    QString driver;                  // AGG/PNG, AGG/PNG8, AGG/JPEG, GDAL/GTiff, ...
    QString mimeType;
    QString imageMode;               // RGB RGBA PC256 BYTE INT16 FLOAT32
    QString extension;
    bool transparent = false;
    bool transparentGiven = false;   // TRANSPARENT written (RGBA without it means ON)
    KeyValues formatOptions;         // FORMATOPTION "KEY=VALUE", in order
    bool operator==(const OutputFormatDef&) const = default;
};

}  // namespace maptune
