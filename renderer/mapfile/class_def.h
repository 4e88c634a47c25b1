#pragma once
// A CLASS block.

#include "core/source_pos.h"
#include "mapfile/expression_def.h"
#include "mapfile/key_values.h"
#include "mapfile/label_def.h"
#include "mapfile/property_values.h"
#include "mapfile/style_def.h"

#include <QList>
#include <QString>

namespace maptune {

struct ClassDef {
    SourcePos pos;
    QString name;
    QString title;
    QString group;
    int status = 1;                 // ON
    ExpressionDef expression;
    ExpressionDef text;
    double minScaleDenom = -1;
    double maxScaleDenom = -1;
    QString templ;                  // TEMPLATE
    QString keyImage;
    QList<StyleDef> styles;
    QList<LabelDef> labels;
    KeyValues metadata;
    KeyValues validation;            // runtime substitution patterns for EXPRESSION, TEXT, TITLE
    QList<ExtraProperty> extras;
    bool operator==(const ClassDef&) const = default;
};

}  // namespace maptune
