#pragma once
// A LAYER block.

#include "core/color.h"
#include "core/rect.h"
#include "core/source_pos.h"
#include "mapfile/class_def.h"
#include "mapfile/expression_def.h"
#include "mapfile/key_values.h"
#include "mapfile/projection_def.h"
#include "mapfile/property_values.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace maptune {

enum class LayerType { Point, Line, Polygon, Raster, Circle, Annotation, Query, Chart, Unknown };
enum class LayerStatus { Off, On, Default };
enum class ConnectionType { Local, OGR, PostGIS, WMS, WFS, Union, Plugin, Inline, Raster, Contour, UVRaster, FlatGeobuf, KernelDensity, Idw, Unknown };

// An inline FEATURE: POINTS ... END, WKT, ITEMS.
struct InlineFeatureDef {
    QList<QList<std::pair<double, double>>> parts;  // POINTS blocks
    QString wkt;
    QString items;                   // "v1;v2;..."
    QString text;
    bool operator==(const InlineFeatureDef&) const = default;
};

// SCALETOKEN: NAME "%token%" VALUES "minscale" "value" ... END — a runtime
// substitution of %token% in DATA, FILTER, ... chosen by the map scale.
struct ScaleTokenDef {
    QString name;
    QList<std::pair<QString, QString>> values;  // scale denominator (as written) -> value
    bool operator==(const ScaleTokenDef&) const = default;
};

struct LayerCompositeDef {
    double opacity = 100;
    QString compOp;
    bool operator==(const LayerCompositeDef&) const = default;
};

// A spatial condition a request adds to a layer (WMS GetMap's FILTER): its
// features must meet, miss, come within or stay beyond `distance` of a
// geometry given as WKT in `crs`.
struct RequestSpatialFilterDef {
    enum class Op { Intersects, Disjoint, DWithin, Beyond };
    Op op = Op::Intersects;
    QString wkt;
    QString crs;                // as a user gives it ("EPSG:4326"); empty: the layer's own
    double distance = 0;        // DWithin / Beyond
    double metersPerUnit = 1;   // of `distance`'s unit
    bool operator==(const RequestSpatialFilterDef&) const = default;
};

// A request's dimension condition on a layer (WMS TIME, ELEVATION, DIM_):
// the item equals one of the values or lies in one of the ranges (lo == hi
// for a value). Databases take it as bound parameters; other sources apply
// the FILTER written from the same values.
struct RequestConditionDef {
    enum class Kind { Time, Number, String };
    QString item;   // from the mapfile (wms_timeitem, wms_<dim>_item), never the request
    Kind kind = Kind::String;
    QList<std::pair<QString, QString>> ranges;  // canonical literals
    bool operator==(const RequestConditionDef&) const = default;
};

struct LayerDef {
    SourcePos pos;
    QString name;
    QString group;
    QString title;
    LayerType type = LayerType::Unknown;
    LayerStatus status = LayerStatus::Off;
    QString data;
    ConnectionType connectionType = ConnectionType::Local;
    QString connection;
    // Where the DATA and CONNECTION values were written, so that a missing
    // file is reported at the value to correct rather than at LAYER.
    SourcePos dataPos;
    SourcePos connectionPos;
    QString plugin;
    QStringList processing;          // in order, "KEY=VALUE" as written
    ProjectionDef projection;
    Rect extent;
    KeyValues metadata;
    KeyValues validation;
    KeyValues connectionOptions;
    QString classItem;
    QString labelItem;
    QString classGroup;
    ExpressionDef filter;
    QString filterItem;
    QList<RequestSpatialFilterDef> requestSpatialFilters;  // never from a mapfile: added per request
    QList<RequestConditionDef> requestConditions;          // likewise: TIME / dimensions, AND-ed
    double minScaleDenom = -1;
    double maxScaleDenom = -1;
    double labelMinScaleDenom = -1;
    double labelMaxScaleDenom = -1;
    QList<LayerCompositeDef> composites;  // COMPOSITE blocks; OPACITY n is one composite
    Color offsite;
    double tolerance = -1;           // -1: MapServer default (3 pixels, or 0 for polygons)
    QString toleranceUnits;          // PIXELS by default
    QString templ;
    QString header;
    QString footer;
    QString units;
    QString sizeUnits;               // PIXELS by default
    double symbolScaleDenom = -1;
    QString tileIndex;
    QString tileItem = QStringLiteral("location");
    QString tileSrs;
    QString mask;
    QString requires_;
    QString labelRequires;
    int maxFeatures = -1;
    int debug = 0;
    QString encoding;
    bool transform = true;           // TRANSFORM FALSE draws in image coordinates
    bool postLabelCache = false;
    QString geomTransform;
    QString styleItem;
    QList<InlineFeatureDef> features;
    QList<ClassDef> classes;
    bool labelCache = true;          // LABELCACHE ON/OFF
    QList<ScaleTokenDef> scaleTokens;
    QList<ExtraProperty> extras;
    bool operator==(const LayerDef&) const = default;
};

}  // namespace maptune
