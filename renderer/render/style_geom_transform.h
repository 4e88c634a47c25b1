#pragma once
// A STYLE's GEOMTRANSFORM (RFC 48), which draws the style on a shape made
// from the feature's, in pixels: markers on the START, END or inner
// VERTICES (turned along the line with ANGLE AUTO), on the CENTROID, the
// BBOX filled, or an expression's result ((buffer([shape], 4)) ...).
// labelpnt / labelpoly belong to label styles and draw nothing here.

#include "core/result.h"
#include "data/geom_transform/shape_expression.h"
#include "data/geometry.h"

#include <QList>
#include <QPolygonF>
#include <QSize>

#include <optional>

namespace maptune {

struct StyleGeomTransform {
    // Invalid: an expression that does not compile. MapServer parses it
    // only when it draws the style, fails there and goes on without it.
    enum class Kind { None, Start, End, Vertices, BBox, Centroid, LabelPoint, LabelPoly, LabelCenter, Expression, Invalid };
    Kind kind = Kind::None;
    std::optional<ShapeExpression> expression;

    // As msStyleSetGeomTransform: a name matched by its leading letters
    // ("start", "end", ...), or a parenthesised expression.
    static Result<StyleGeomTransform> parse(const QString& text);
    // Whether the style is drawn through the transform instead of on the shape.
    bool drawsOwnShape() const { return kind != Kind::None && kind != Kind::LabelPoint && kind != Kind::LabelPoly && kind != Kind::LabelCenter; }
};

struct TransformMarker {
    QPointF at;
    std::optional<double> angle;  // ANGLE AUTO along the line, degrees
};

// Where START / END / VERTICES / CENTROID put their markers; points off the
// image are skipped as MapServer skips them.
QList<TransformMarker> transformMarkers(StyleGeomTransform::Kind kind, const QList<QPolygonF>& parts, const QSize& image,
                                        bool autoAngle);
// BBOX: the parts' bounding box as a ring, clipped `padding` pixels outside the image.
QPolygonF boundingBoxRing(const QList<QPolygonF>& parts, const QSize& image, double padding);

Geometry geometryFromParts(Geometry::Type type, const QList<QPolygonF>& parts);
QList<QPolygonF> partsFromGeometry(const Geometry& g);

}  // namespace maptune
