#pragma once
// The typed mapfile model: what a MapServer 8 mapfile says, nothing computed.
// Plain value types; a loaded MapDef is shared read-only between threads
// (std::shared_ptr<const MapDef>).

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace maptune {

// Where a construct came from, for diagnostics (FILE:LINE:COL, 1-based).
struct SourcePos {
    QString file;
    int line = 0;
    int column = 0;
    bool operator==(const SourcePos&) const = default;
};

// An RGB(A) colour; r < 0 means "not set" (MapServer's -1 -1 -1).
struct Color {
    int r = -1, g = -1, b = -1, a = 255;
    bool isSet() const { return r >= 0 && g >= 0 && b >= 0; }
    static Color rgb(int r, int g, int b, int a = 255) { return {r, g, b, a}; }
    bool operator==(const Color&) const = default;
};

struct Rect {
    double minx = -1, miny = -1, maxx = -1, maxy = -1;
    bool isValid() const { return maxx > minx && maxy > miny; }
    double width() const { return maxx - minx; }
    double height() const { return maxy - miny; }
    bool operator==(const Rect&) const = default;
};

// An expression as written: the expr module compiles it.
struct ExpressionDef {
    enum class Type {
        None,     // not given
        String,   // "text" or 'text' or bare word: equality with CLASSITEM/FILTERITEM
        IString,  // "text"i
        Regex,    // /re/
        IRegex,   // /re/i
        Logical,  // ( ... )
        List,     // {a,b,c}
    };
    Type type = Type::None;
    QString text;  // without delimiters
    bool isSet() const { return type != Type::None; }
    bool operator==(const ExpressionDef&) const = default;
};

// PROJECTION block: either "init=epsg:4326" style parameters or a single
// "EPSG:4326" / "AUTO" / WKT string. Kept as the list of lines given.
struct ProjectionDef {
    QStringList args;
    bool isSet() const { return !args.isEmpty(); }
    bool isAuto() const { return args.size() == 1 && args[0].compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0; }
    bool operator==(const ProjectionDef&) const = default;
};

// Ordered key/value metadata (METADATA, VALIDATION, CONFIG, FORMATOPTION...).
// Keys keep their case; lookups in MapServer are case-insensitive.
struct KeyValues {
    QList<std::pair<QString, QString>> items;
    std::optional<QString> value(const QString& key) const {
        for (const auto& [k, v] : items)
            if (k.compare(key, Qt::CaseInsensitive) == 0) return v;
        return std::nullopt;
    }
    QString value(const QString& key, const QString& fallback) const { return value(key).value_or(fallback); }
    void set(const QString& key, const QString& v) {
        for (auto& [k, old] : items)
            if (k.compare(key, Qt::CaseInsensitive) == 0) { old = v; return; }
        items.append({key, v});
    }
    bool isEmpty() const { return items.isEmpty(); }
    bool operator==(const KeyValues&) const = default;
};

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

enum class LineCap { Round, Butt, Square };
enum class LineJoin { Round, Miter, Bevel, None };

struct StyleDef {
    SourcePos pos;
    ColorOrAttr color;
    ColorOrAttr outlineColor;
    ColorOrAttr backgroundColor;
    NumberOrAttr width{1};
    NumberOrAttr outlineWidth{0};
    NumberOrAttr size{-1};          // -1: symbol's default size
    double minSize = 0;
    double maxSize = 500;
    double minWidth = 0;
    double maxWidth = 32;
    QString symbolName;             // SYMBOL "name" or SYMBOL [attr] (then symbolAttr)
    int symbolIndex = 0;            // SYMBOL n (0 = default: solid fill / pixel)
    QString symbolAttr;
    NumberOrAttr opacity{100};      // 0..100
    NumberOrAttr angle{0};          // degrees, counter-clockwise; AUTO -> angleAuto
    bool angleAuto = false;
    double gap = 0;
    double initialGap = -1;
    QList<double> pattern;
    LineCap lineCap = LineCap::Round;
    LineJoin lineJoin = LineJoin::Round;
    double lineJoinMaxSize = 3;
    NumberOrAttr offsetX{0};
    NumberOrAttr offsetY{0};
    NumberOrAttr polarOffsetRadius{0};
    NumberOrAttr polarOffsetAngle{0};
    QString geomTransform;
    double minScaleDenom = -1;
    double maxScaleDenom = -1;
    // Raster/continuous colour ramps: DATARANGE + COLORRANGE + RANGEITEM.
    bool hasRange = false;
    double dataRangeMin = 0, dataRangeMax = 0;
    Color colorRangeMin, colorRangeMax;
    QString rangeItem;
    QList<ExtraProperty> extras;
    bool operator==(const StyleDef&) const = default;
};

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
    bool partials = true;
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
    QString encoding;
    QList<StyleDef> styles;         // label background styles
    QList<ExtraProperty> extras;
    bool operator==(const LabelDef&) const = default;
};

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
    QList<ExtraProperty> extras;
    bool operator==(const ClassDef&) const = default;
};

enum class LayerType { Point, Line, Polygon, Raster, Circle, Annotation, Query, Chart, Unknown };
enum class LayerStatus { Off, On, Default };
enum class ConnectionType { Local, OGR, PostGIS, WMS, WFS, Union, Plugin, Inline, Raster, Unknown };

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
};

struct OutputFormatDef {
    SourcePos pos;
    QString name;
    QString driver;                  // AGG/PNG, AGG/PNG8, AGG/JPEG, GDAL/GTiff, ...
    QString mimeType;
    QString imageMode;               // RGB RGBA PC256 BYTE INT16 FLOAT32
    QString extension;
    bool transparent = false;
    KeyValues formatOptions;         // FORMATOPTION "KEY=VALUE", in order
    bool operator==(const OutputFormatDef&) const = default;
};

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
    QList<ExtraProperty> extras;
    bool operator==(const WebDef&) const = default;
};

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
