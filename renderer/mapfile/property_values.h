#pragma once
// Property values shared by STYLE, LABEL and the rest: attribute-bound numbers
// and colours, and keywords kept verbatim.

#include "core/color.h"

#include <QString>
#include <QStringList>

namespace maptune {

// Keywords we accept and keep for round-trip but do not model yet.
// Each entry is the keyword and its raw argument tokens as written.
struct ExtraProperty {
    QString keyword;
    QStringList args;
    bool operator==(const ExtraProperty&) const = default;
};

// A numeric style property that may instead be bound to an attribute: SIZE [size].
struct NumberOrAttr {
    NumberOrAttr() = default;
    NumberOrAttr(double v) : value(v) {}  // NOLINT: implicit on purpose, `width = 2`
    NumberOrAttr(double v, const QString& attr) : value(v), attribute(attr) {}
    double value = 0;
    QString attribute;  // non-empty: take the value from this feature attribute
    bool isBound() const { return !attribute.isEmpty(); }
    bool operator==(const NumberOrAttr&) const = default;
};

struct ColorOrAttr {
    ColorOrAttr() = default;
    ColorOrAttr(const Color& c) : color(c) {}  // NOLINT: implicit on purpose
    ColorOrAttr(const Color& c, const QString& attr) : color(c), attribute(attr) {}
    Color color;
    QString attribute;
    bool isBound() const { return !attribute.isEmpty(); }
    bool isSet() const { return color.isSet() || isBound(); }
    bool operator==(const ColorOrAttr&) const = default;
};

}  // namespace maptune
