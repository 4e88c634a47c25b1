#include "mapfile/map_writer.h"

#include "mapfile/map_lexer.h"

#include <charconv>
#include <cmath>

namespace maptune {

namespace {

QString num(double v)
{
    // Shortest text that reads back exactly; plain digits for map-sized values
    // (scale denominators read better as 50000000 than 5e+07).
    char buf[512];
    const bool plain = v == 0 || (std::abs(v) >= 1e-6 && std::abs(v) < 1e15);
    const auto r = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                         : std::to_chars(buf, buf + sizeof buf, v);
    return QString::fromLatin1(buf, int(r.ptr - buf));
}

QString str(const QString& s) { return quoteMapString(s); }

QString color(const Color& c)
{
    if (c.a == 255) return QStringLiteral("%1 %2 %3").arg(c.r).arg(c.g).arg(c.b);
    if (c.isSet())
        return QStringLiteral("\"#%1%2%3%4\"")
            .arg(c.r, 2, 16, QLatin1Char('0'))
            .arg(c.g, 2, 16, QLatin1Char('0'))
            .arg(c.b, 2, 16, QLatin1Char('0'))
            .arg(c.a, 2, 16, QLatin1Char('0'));
    return QStringLiteral("%1 %2 %3 %4").arg(c.r).arg(c.g).arg(c.b).arg(c.a);
}

QString attr(const QString& a) { return QLatin1Char('[') + a + QLatin1Char(']'); }
QString color(const ColorOrAttr& c) { return c.isBound() ? attr(c.attribute) : color(c.color); }
QString num(const NumberOrAttr& n) { return n.isBound() ? attr(n.attribute) : num(n.value); }

QString expression(const ExpressionDef& e)
{
    using Type = ExpressionDef::Type;
    switch (e.type) {
    case Type::None: return {};
    case Type::String: return str(e.text);
    case Type::IString: return str(e.text) + QLatin1Char('i');
    case Type::Regex: return QLatin1Char('/') + e.text + QLatin1Char('/');
    case Type::IRegex: return QLatin1Char('/') + e.text + QLatin1String("/i");
    case Type::Logical: return QLatin1Char('(') + e.text + QLatin1Char(')');
    case Type::List: return QLatin1Char('{') + e.text + QLatin1Char('}');
    }
    return {};
}

// GEOMTRANSFORM (expression) is written bare, a named transform quoted.
QString geomTransform(const QString& g)
{
    return g.startsWith(QLatin1Char('(')) && g.endsWith(QLatin1Char(')')) ? g : str(g);
}

QString status(LayerStatus s)
{
    switch (s) {
    case LayerStatus::Off: return QStringLiteral("OFF");
    case LayerStatus::On: return QStringLiteral("ON");
    case LayerStatus::Default: return QStringLiteral("DEFAULT");
    }
    return {};
}

QString boolWord(bool b) { return b ? QStringLiteral("TRUE") : QStringLiteral("FALSE"); }

class Writer {
public:
    QString text;

    void line(const QString& s)
    {
        text += QString(m_depth * 2, QLatin1Char(' '));
        text += s;
        text += QLatin1Char('\n');
    }
    void kw(const char* keyword, const QString& value) { line(QLatin1String(keyword) + QLatin1Char(' ') + value); }
    void open(const char* keyword)
    {
        line(QLatin1String(keyword));
        ++m_depth;
    }
    void close()
    {
        --m_depth;
        line(QStringLiteral("END"));
    }
    void blank() { text += QLatin1Char('\n'); }

    // Writes keyword value when the value differs from the default.
    template <typename V>
    void ifChanged(const char* keyword, const V& value, const V& fallback, QString (*format)(const V&))
    {
        if (!(value == fallback)) kw(keyword, format(value));
    }
    void string(const char* keyword, const QString& value)
    {
        if (!value.isEmpty()) kw(keyword, str(value));
    }
    void word(const char* keyword, const QString& value)
    {
        if (!value.isEmpty()) kw(keyword, value);
    }
    void number(const char* keyword, double value, double fallback)
    {
        if (value != fallback) kw(keyword, num(value));
    }
    void number(const char* keyword, const NumberOrAttr& value, const NumberOrAttr& fallback)
    {
        if (!(value == fallback)) kw(keyword, num(value));
    }
    void integer(const char* keyword, int value, int fallback)
    {
        if (value != fallback) kw(keyword, QString::number(value));
    }
    void colour(const char* keyword, const Color& value, const Color& fallback)
    {
        if (!(value == fallback)) kw(keyword, color(value));
    }
    void colour(const char* keyword, const ColorOrAttr& value, const ColorOrAttr& fallback)
    {
        if (!(value == fallback)) kw(keyword, color(value));
    }
    void expr(const char* keyword, const ExpressionDef& e)
    {
        if (e.isSet()) kw(keyword, expression(e));
    }
    void extent(const char* keyword, const Rect& r)
    {
        if (!(r == Rect{})) kw(keyword, QStringLiteral("%1 %2 %3 %4").arg(num(r.minx), num(r.miny), num(r.maxx), num(r.maxy)));
    }
    void keyValues(const char* keyword, const KeyValues& kv)
    {
        if (kv.isEmpty()) return;
        open(keyword);
        for (const auto& [k, v] : kv.items) line(str(k) + QLatin1Char(' ') + str(v));
        close();
    }
    void projection(const ProjectionDef& p)
    {
        if (!p.isSet()) return;
        open("PROJECTION");
        for (const QString& a : p.args) line(str(a));
        close();
    }
    void points(const QList<std::pair<double, double>>& pts)
    {
        if (pts.size() <= 4) {
            QStringList parts{QStringLiteral("POINTS")};
            for (const auto& [x, y] : pts) parts << num(x) << num(y);
            parts << QStringLiteral("END");
            line(parts.join(QLatin1Char(' ')));
            return;
        }
        open("POINTS");
        for (const auto& [x, y] : pts) line(num(x) + QLatin1Char(' ') + num(y));
        close();
    }
    void extras(const QList<ExtraProperty>& extras)
    {
        for (const auto& e : extras) line((QStringList{e.keyword} + e.args).join(QLatin1Char(' ')));
    }

    void style(const StyleDef& s);
    void label(const LabelDef& l);
    void klass(const ClassDef& c);
    void layer(const LayerDef& l);
    void symbol(const SymbolDef& s);
    void outputFormat(const OutputFormatDef& f);
    void web(const WebDef& w);
    void legend(const LegendDef& l);
    void scalebar(const ScalebarDef& s);
    void queryMap(const QueryMapDef& q);
    void map(const MapDef& m);

private:
    int m_depth = 0;
};

void Writer::style(const StyleDef& s)
{
    const StyleDef d;
    open("STYLE");
    if (!s.symbolAttr.isEmpty())
        kw("SYMBOL", attr(s.symbolAttr));
    else if (!s.symbolName.isEmpty())
        kw("SYMBOL", str(s.symbolName));
    else
        integer("SYMBOL", s.symbolIndex, d.symbolIndex);
    colour("COLOR", s.color, d.color);
    colour("OUTLINECOLOR", s.outlineColor, d.outlineColor);
    colour("BACKGROUNDCOLOR", s.backgroundColor, d.backgroundColor);
    number("SIZE", s.size, d.size);
    number("MINSIZE", s.minSize, d.minSize);
    number("MAXSIZE", s.maxSize, d.maxSize);
    number("WIDTH", s.width, d.width);
    number("OUTLINEWIDTH", s.outlineWidth, d.outlineWidth);
    number("MINWIDTH", s.minWidth, d.minWidth);
    number("MAXWIDTH", s.maxWidth, d.maxWidth);
    number("OPACITY", s.opacity, d.opacity);
    number("ANGLE", s.angle, d.angle);
    if (s.angleAuto) kw("ANGLE", QStringLiteral("AUTO"));
    number("GAP", s.gap, d.gap);
    number("INITIALGAP", s.initialGap, d.initialGap);
    if (!s.pattern.isEmpty()) {
        QStringList parts{QStringLiteral("PATTERN")};
        for (double v : s.pattern) parts << num(v);
        line(parts.join(QLatin1Char(' ')) + QStringLiteral(" END"));
    }
    static const char* caps[] = {"ROUND", "BUTT", "SQUARE"};
    static const char* joins[] = {"ROUND", "MITER", "BEVEL", "NONE"};
    if (s.lineCap != d.lineCap) kw("LINECAP", QLatin1String(caps[int(s.lineCap)]));
    if (s.lineJoin != d.lineJoin) kw("LINEJOIN", QLatin1String(joins[int(s.lineJoin)]));
    number("LINEJOINMAXSIZE", s.lineJoinMaxSize, d.lineJoinMaxSize);
    if (!(s.offsetX == d.offsetX && s.offsetY == d.offsetY)) kw("OFFSET", num(s.offsetX) + QLatin1Char(' ') + num(s.offsetY));
    if (!(s.polarOffsetRadius == d.polarOffsetRadius && s.polarOffsetAngle == d.polarOffsetAngle))
        kw("POLAROFFSET", num(s.polarOffsetRadius) + QLatin1Char(' ') + num(s.polarOffsetAngle));
    if (!s.geomTransform.isEmpty()) kw("GEOMTRANSFORM", geomTransform(s.geomTransform));
    if (s.antialias != d.antialias) kw("ANTIALIAS", boolWord(s.antialias));
    number("MINSCALEDENOM", s.minScaleDenom, d.minScaleDenom);
    number("MAXSCALEDENOM", s.maxScaleDenom, d.maxScaleDenom);
    if (s.hasRange) {
        kw("DATARANGE", num(s.dataRangeMin) + QLatin1Char(' ') + num(s.dataRangeMax));
        kw("COLORRANGE", color(s.colorRangeMin) + QLatin1Char(' ') + color(s.colorRangeMax));
    }
    string("RANGEITEM", s.rangeItem);
    extras(s.extras);
    close();
}

void Writer::label(const LabelDef& l)
{
    static const char* positions[] = {"UL", "UC", "UR", "CL", "CC", "CR", "LL", "LC", "LR", "AUTO"};
    const LabelDef d;
    open("LABEL");
    if (l.type != d.type) kw("TYPE", l.type == LabelType::TrueType ? QStringLiteral("TRUETYPE") : QStringLiteral("BITMAP"));
    if (!l.font.isEmpty())
        kw("FONT", l.font.startsWith(QLatin1Char('[')) && l.font.endsWith(QLatin1Char(']')) ? l.font : str(l.font));
    number("SIZE", l.size, d.size);
    word("SIZE", l.bitmapSize);
    number("MINSIZE", l.minSize, d.minSize);
    number("MAXSIZE", l.maxSize, d.maxSize);
    colour("COLOR", l.color, d.color);
    colour("OUTLINECOLOR", l.outlineColor, d.outlineColor);
    number("OUTLINEWIDTH", l.outlineWidth, d.outlineWidth);
    colour("SHADOWCOLOR", l.shadowColor, d.shadowColor);
    if (l.shadowSizeX != d.shadowSizeX || l.shadowSizeY != d.shadowSizeY)
        kw("SHADOWSIZE", num(l.shadowSizeX) + QLatin1Char(' ') + num(l.shadowSizeY));
    if (l.position != d.position) kw("POSITION", QLatin1String(positions[int(l.position)]));
    if (l.offsetX != d.offsetX || l.offsetY != d.offsetY) kw("OFFSET", num(l.offsetX) + QLatin1Char(' ') + num(l.offsetY));
    number("ANGLE", l.angle, d.angle);
    word("ANGLE", l.angleMode);
    number("BUFFER", l.buffer, d.buffer);
    if (l.partials != d.partials) kw("PARTIALS", boolWord(l.partials));
    number("MINDISTANCE", l.minDistance, d.minDistance);
    number("MINFEATURESIZE", l.minFeatureSize, d.minFeatureSize);
    if (l.force != d.force) kw("FORCE", boolWord(l.force));
    integer("REPEATDISTANCE", l.repeatDistance, d.repeatDistance);
    word("ALIGN", l.align);
    string("WRAP", l.wrap);
    integer("MAXLENGTH", l.maxLength, d.maxLength);
    integer("PRIORITY", l.priority, d.priority);
    expr("TEXT", l.text);
    expr("EXPRESSION", l.expression);
    string("ENCODING", l.encoding);
    number("MINSCALEDENOM", l.minScaleDenom, d.minScaleDenom);
    number("MAXSCALEDENOM", l.maxScaleDenom, d.maxScaleDenom);
    extras(l.extras);
    for (const auto& s : l.styles) style(s);
    close();
}

void Writer::klass(const ClassDef& c)
{
    const ClassDef d;
    open("CLASS");
    string("NAME", c.name);
    string("TITLE", c.title);
    string("GROUP", c.group);
    if (c.status != d.status) kw("STATUS", c.status ? QStringLiteral("ON") : QStringLiteral("OFF"));
    expr("EXPRESSION", c.expression);
    expr("TEXT", c.text);
    number("MINSCALEDENOM", c.minScaleDenom, d.minScaleDenom);
    number("MAXSCALEDENOM", c.maxScaleDenom, d.maxScaleDenom);
    string("TEMPLATE", c.templ);
    string("KEYIMAGE", c.keyImage);
    extras(c.extras);
    keyValues("METADATA", c.metadata);
    keyValues("VALIDATION", c.validation);
    for (const auto& s : c.styles) style(s);
    for (const auto& l : c.labels) label(l);
    close();
}


void Writer::layer(const LayerDef& l)
{
    static const char* types[] = {"POINT", "LINE", "POLYGON", "RASTER", "CIRCLE", "ANNOTATION", "QUERY", "CHART"};
    static const char* connections[] = {"LOCAL", "OGR",    "POSTGIS", "WMS",    "WFS",
                                        "UNION", "PLUGIN", "INLINE",  "RASTER", "CONTOUR", "UVRASTER", "FLATGEOBUF",
                                        "KERNELDENSITY", "IDW"};
    const LayerDef d;
    open("LAYER");
    string("NAME", l.name);
    string("GROUP", l.group);
    string("TITLE", l.title);
    if (l.type != LayerType::Unknown) kw("TYPE", QLatin1String(types[int(l.type)]));
    if (l.status != d.status) kw("STATUS", status(l.status));
    integer("DEBUG", l.debug, d.debug);
    if (l.connectionType != d.connectionType && l.connectionType != ConnectionType::Unknown)
        kw("CONNECTIONTYPE", QLatin1String(connections[int(l.connectionType)]));
    string("CONNECTION", l.connection);
    string("PLUGIN", l.plugin);
    string("DATA", l.data);
    for (const QString& p : l.processing) kw("PROCESSING", str(p));
    string("TILEINDEX", l.tileIndex);
    if (l.tileItem != d.tileItem) kw("TILEITEM", str(l.tileItem));
    string("TILESRS", l.tileSrs);
    extent("EXTENT", l.extent);
    word("UNITS", l.units);
    word("SIZEUNITS", l.sizeUnits);
    number("TOLERANCE", l.tolerance, d.tolerance);
    word("TOLERANCEUNITS", l.toleranceUnits);
    number("MINSCALEDENOM", l.minScaleDenom, d.minScaleDenom);
    number("MAXSCALEDENOM", l.maxScaleDenom, d.maxScaleDenom);
    number("LABELMINSCALEDENOM", l.labelMinScaleDenom, d.labelMinScaleDenom);
    number("LABELMAXSCALEDENOM", l.labelMaxScaleDenom, d.labelMaxScaleDenom);
    number("SYMBOLSCALEDENOM", l.symbolScaleDenom, d.symbolScaleDenom);
    string("CLASSITEM", l.classItem);
    string("LABELITEM", l.labelItem);
    string("CLASSGROUP", l.classGroup);
    string("STYLEITEM", l.styleItem);
    string("FILTERITEM", l.filterItem);
    expr("FILTER", l.filter);
    string("REQUIRES", l.requires_);
    string("LABELREQUIRES", l.labelRequires);
    integer("MAXFEATURES", l.maxFeatures, d.maxFeatures);
    string("ENCODING", l.encoding);
    string("MASK", l.mask);
    string("TEMPLATE", l.templ);
    string("HEADER", l.header);
    string("FOOTER", l.footer);
    colour("OFFSITE", l.offsite, d.offsite);
    if (l.transform != d.transform) kw("TRANSFORM", boolWord(l.transform));
    if (l.labelCache != d.labelCache) kw("LABELCACHE", l.labelCache ? QStringLiteral("ON") : QStringLiteral("OFF"));
    if (l.postLabelCache != d.postLabelCache) kw("POSTLABELCACHE", boolWord(l.postLabelCache));
    if (!l.geomTransform.isEmpty()) kw("GEOMTRANSFORM", geomTransform(l.geomTransform));
    extras(l.extras);
    projection(l.projection);
    keyValues("METADATA", l.metadata);
    keyValues("VALIDATION", l.validation);
    keyValues("CONNECTIONOPTIONS", l.connectionOptions);
    for (const auto& t : l.scaleTokens) {
        open("SCALETOKEN");
        string("NAME", t.name);
        keyValues("VALUES", KeyValues{t.values});
        close();
    }
    for (const auto& c : l.composites) {
        open("COMPOSITE");
        number("OPACITY", c.opacity, LayerCompositeDef{}.opacity);
        string("COMPOP", c.compOp);
        close();
    }
    for (const auto& f : l.features) {
        open("FEATURE");
        for (const auto& part : f.parts) points(part);
        string("WKT", f.wkt);
        string("ITEMS", f.items);
        string("TEXT", f.text);
        close();
    }
    for (const auto& c : l.classes) klass(c);
    close();
}

void Writer::symbol(const SymbolDef& s)
{
    static const char* types[] = {"ELLIPSE", "VECTOR", "PIXMAP", "TRUETYPE", "HATCH", "SVG", "SIMPLE"};
    const SymbolDef d;
    open("SYMBOL");
    string("NAME", s.name);
    if (s.type != d.type) kw("TYPE", QLatin1String(types[int(s.type)]));
    if (s.filled != d.filled) kw("FILLED", boolWord(s.filled));
    string("IMAGE", s.image);
    string("FONT", s.font);
    string("CHARACTER", s.character);
    if (s.antialias != d.antialias) kw("ANTIALIAS", boolWord(s.antialias));
    if (s.anchorSet || s.anchorX != d.anchorX || s.anchorY != d.anchorY)
        kw("ANCHORPOINT", num(s.anchorX) + QLatin1Char(' ') + num(s.anchorY));
    if (!s.points.isEmpty()) points(s.points);
    extras(s.extras);
    close();
}

void Writer::outputFormat(const OutputFormatDef& f)
{
    open("OUTPUTFORMAT");
    string("NAME", f.name);
    string("DRIVER", f.driver);
    string("MIMETYPE", f.mimeType);
    word("IMAGEMODE", f.imageMode);
    string("EXTENSION", f.extension);
    if (f.transparent || f.transparentGiven) kw("TRANSPARENT", f.transparent ? QStringLiteral("ON") : QStringLiteral("OFF"));
    for (const auto& [k, v] : f.formatOptions.items) kw("FORMATOPTION", str(k + QLatin1Char('=') + v));
    close();
}

void Writer::web(const WebDef& w)
{
    if (!w.present && w == WebDef{}) return;
    open("WEB");
    string("IMAGEPATH", w.imagePath);
    string("IMAGEURL", w.imageUrl);
    string("TEMPLATE", w.templ);
    string("HEADER", w.header);
    string("FOOTER", w.footer);
    string("EMPTY", w.empty);
    string("ERROR", w.error);
    number("MINSCALEDENOM", w.minScaleDenom, -1);
    number("MAXSCALEDENOM", w.maxScaleDenom, -1);
    extras(w.extras);
    keyValues("METADATA", w.metadata);
    keyValues("VALIDATION", w.validation);
    close();
}

void Writer::legend(const LegendDef& l)
{
    const LegendDef d;
    if (!l.present && l == d) return;
    open("LEGEND");
    word("STATUS", l.status);
    colour("IMAGECOLOR", l.imageColor, d.imageColor);
    colour("OUTLINECOLOR", l.outlineColor, d.outlineColor);
    if (l.keySizeX != d.keySizeX || l.keySizeY != d.keySizeY)
        kw("KEYSIZE", QStringLiteral("%1 %2").arg(l.keySizeX).arg(l.keySizeY));
    if (l.keySpacingX != d.keySpacingX || l.keySpacingY != d.keySpacingY)
        kw("KEYSPACING", QStringLiteral("%1 %2").arg(l.keySpacingX).arg(l.keySpacingY));
    if (l.postLabelCache != d.postLabelCache) kw("POSTLABELCACHE", boolWord(l.postLabelCache));
    string("TEMPLATE", l.templ);
    extras(l.extras);
    if (l.label) label(*l.label);
    close();
}

void Writer::scalebar(const ScalebarDef& s)
{
    const ScalebarDef d;
    if (!s.present && s == d) return;
    open("SCALEBAR");
    word("STATUS", s.status);
    word("UNITS", s.units);
    integer("INTERVALS", s.intervals, d.intervals);
    if (s.sizeX != d.sizeX || s.sizeY != d.sizeY) kw("SIZE", QStringLiteral("%1 %2").arg(s.sizeX).arg(s.sizeY));
    integer("STYLE", s.style, d.style);
    colour("COLOR", s.color, d.color);
    colour("BACKGROUNDCOLOR", s.backgroundColor, d.backgroundColor);
    colour("IMAGECOLOR", s.imageColor, d.imageColor);
    colour("OUTLINECOLOR", s.outlineColor, d.outlineColor);
    word("POSITION", s.position);
    if (s.transparent != d.transparent) kw("TRANSPARENT", boolWord(s.transparent));
    extras(s.extras);
    if (s.label) label(*s.label);
    close();
}

void Writer::queryMap(const QueryMapDef& q)
{
    const QueryMapDef d;
    if (!q.present && q == d) return;
    open("QUERYMAP");
    word("STATUS", q.status);
    word("STYLE", q.style);
    colour("COLOR", q.color, d.color);
    if (q.sizeX != d.sizeX || q.sizeY != d.sizeY) kw("SIZE", QStringLiteral("%1 %2").arg(q.sizeX).arg(q.sizeY));
    close();
}

void Writer::map(const MapDef& m)
{
    const MapDef d;
    open("MAP");
    kw("NAME", str(m.name));
    if (m.status != d.status) kw("STATUS", status(m.status));
    extent("EXTENT", m.extent);
    if (m.width != d.width || m.height != d.height) kw("SIZE", QStringLiteral("%1 %2").arg(m.width).arg(m.height));
    integer("MAXSIZE", m.maxSize, d.maxSize);
    word("UNITS", m.units);
    number("RESOLUTION", m.resolution, d.resolution);
    number("DEFRESOLUTION", m.defResolution, d.defResolution);
    number("ANGLE", m.angle, d.angle);
    colour("IMAGECOLOR", m.imageColor, d.imageColor);
    string("IMAGETYPE", m.imageType);
    string("SHAPEPATH", m.shapePath);
    string("FONTSET", m.fontSet);
    string("SYMBOLSET", m.symbolSet);
    string("TEMPLATEPATTERN", m.templatePattern);
    string("DATAPATTERN", m.dataPattern);
    integer("DEBUG", m.debug, d.debug);
    for (const auto& [k, v] : m.config.items) kw("CONFIG", str(k) + QLatin1Char(' ') + str(v));
    extras(m.extras);
    projection(m.projection);
    web(m.web);
    for (const auto& f : m.outputFormats) outputFormat(f);
    legend(m.legend);
    scalebar(m.scalebar);
    queryMap(m.queryMap);
    for (const auto& s : m.symbols)
        if (!s.fromSymbolSet) symbol(s);
    for (const auto& l : m.layers) {
        blank();
        layer(l);
    }
    close();
}

}  // namespace

QString writeMapFile(const MapDef& map)
{
    Writer w;
    w.map(map);
    return w.text;
}

}  // namespace maptune
