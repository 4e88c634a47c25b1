#pragma once
// A SYMBOL block (inline or from the SYMBOLSET).

#include "core/source_pos.h"
#include "mapfile/property_values.h"

#include <QList>
#include <QString>

#include <utility>

namespace maptune {

enum class SymbolType { Ellipse, Vector, Pixmap, TrueType, Hatch, SVG, Simple };

struct SymbolDef {
    SourcePos pos;
    QString name;
    SymbolType type = SymbolType::Simple;
    QList<std::pair<double, double>> points;   // -99 -99 separates parts
    bool filled = false;
    QString image;
    QString font;
    QString character;
    bool antialias = true;
    double anchorX = 0.5, anchorY = 0.5;
    bool anchorSet = false;
    bool fromSymbolSet = false;      // loaded from SYMBOLSET: the writer does not inline it
    QList<ExtraProperty> extras;
    bool operator==(const SymbolDef&) const = default;

    // The type MapServer draws: a SYMBOL without TYPE is a VECTOR symbol
    // (initSymbol), the built-in "simple" symbol only when it has no POINTS.
    SymbolType drawnType() const { return type == SymbolType::Simple && !points.isEmpty() ? SymbolType::Vector : type; }
};

}  // namespace maptune
