#pragma once
// What mapserv's query modes ask of one layer (MapServer's msQueryByRect,
// msQueryByPoint, msQueryByShape, msQueryByAttributes and msQueryByIndex):
// the features a search area, a point, an attribute test or a feature index
// selects, after the layer's FILTER and its classes have had their say.

#include "data/feature_source.h"
#include "data/geometry.h"
#include "mapfile/expression_def.h"
#include "trace/cancel_token.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace maptune {

struct FeatureSelection {
    enum class By { Rect, Point, Shape, Attributes, Index };
    By by = By::Rect;
    // All coordinates are in the map's CRS (its PROJECTION).
    Rect rect;                         // Rect: the search box; Attributes/Index: where to look (invalid: everywhere)
    double x = 0, y = 0;               // Point
    Geometry shape;                    // Shape: a polygon, or a line / points met within the tolerance
    // Point and Shape: a search distance in map units (mapserv's BUFFER);
    // unset: the layer's TOLERANCE in its TOLERANCEUNITS.
    std::optional<double> tolerance;
    ExpressionDef attributeTest;       // Attributes: QSTRING as MapServer reads an expression
    QString attributeItem;             // Attributes: QITEM, the item a string or regex test applies to
    qint64 index = -1;                 // Index: the feature id (SHAPEINDEX)
    bool nearestOnly = false;          // Point: MS_QUERY_SINGLE, the closest feature alone
    double cellSize = 0;               // map units per pixel (PIXELS tolerances)
    double scaleDenom = 0;             // the map's scale: the layer's scale range, SCALETOKENs, classes
    int maxFeatures = -1;              // <= 0: all
    CancelToken cancel;
};

struct SelectedFeatures {
    QStringList fields;
    QList<Feature> features;           // in the map's CRS, in the source's order
    QList<int> classes;                // per feature: the class it falls in, -1 for none
    QList<double> distances;           // per feature: from the query point or shape (0 inside)
    bool searched = false;             // false: the layer was out of its scale range or cannot be queried
    QString error;                     // names the layer
};

}  // namespace maptune
