#pragma once
// The typed mapfile model: what a MapServer 8 mapfile says, nothing computed.
// Plain value types; a loaded MapDef is shared read-only between threads
// (std::shared_ptr<const MapDef>). Each block has its own header; code that
// needs only a LAYER, a Rect or an expression includes just that one.

#include "core/color.h"
#include "core/rect.h"
#include "core/source_pos.h"
#include "mapfile/class_def.h"
#include "mapfile/expression_def.h"
#include "mapfile/key_values.h"
#include "mapfile/label_def.h"
#include "mapfile/layer_def.h"
#include "mapfile/map_blocks.h"
#include "mapfile/output_format_def.h"
#include "mapfile/projection_def.h"
#include "mapfile/property_values.h"
#include "mapfile/style_def.h"
#include "mapfile/symbol_def.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace maptune {

struct MapDef {
    QString path;                    // absolute path of the main mapfile ("" when parsed from text)
    SourcePos pos;
    QString name = QStringLiteral("MS");
    LayerStatus status = LayerStatus::On;
    Rect extent;
    int width = -1, height = -1;     // SIZE
    int maxSize = 4096;
    QString units;                   // METERS DD FEET ...; empty = default (METERS)
    double resolution = 72;
    double defResolution = 72;
    double angle = 0;
    Color imageColor = Color::rgb(255, 255, 255);
    QString imageType;
    QString shapePath;
    QString fontSet;
    KeyValues fonts;                 // FONTSET entries: alias -> absolute file path (may not exist)
    QString symbolSet;
    QString templatePattern;         // TEMPLATEPATTERN (regex a CGI template must match)
    QString dataPattern;             // DATAPATTERN
    KeyValues config;
    int debug = 0;
    ProjectionDef projection;
    WebDef web;
    QList<OutputFormatDef> outputFormats;
    LegendDef legend;
    ScalebarDef scalebar;
    QueryMapDef queryMap;
    QList<SymbolDef> symbols;        // inline SYMBOLs followed by those of SYMBOLSET
    QList<LayerDef> layers;
    QList<ExtraProperty> extras;
    QStringList includedFiles;       // every file read through INCLUDE or SYMBOLSET/FONTSET
    bool operator==(const MapDef&) const = default;

    // The directory relative paths in the mapfile resolve against.
    QString baseDir() const;
    const LayerDef* layer(const QString& name) const;
    const SymbolDef* symbol(const QString& name) const;
};

using MapDefPtr = std::shared_ptr<const MapDef>;

// Resets every SourcePos in the model, so that maps parsed from different
// texts (e.g. a file and its canonical rewrite) compare equal with ==.
void clearPositions(MapDef& map);

}  // namespace maptune
