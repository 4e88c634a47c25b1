// Map-level blocks: SYMBOL, OUTPUTFORMAT, WEB, LEGEND, SCALEBAR, QUERYMAP.
#include "mapfile/map_parser.h"

namespace maptune {

namespace {

using Sy = KeywordEntry<SymbolDef>;

const KeywordTable<SymbolDef>& symbolTable()
{
    static const KeywordTable<SymbolDef> table = {
        {QStringLiteral("NAME"), stringField(&SymbolDef::name)},
        {QStringLiteral("TYPE"), Sy{[](MapParser& p, SymbolDef& s, const Token& k) {
             static const std::vector<const char*> names = {"ELLIPSE", "VECTOR", "PIXMAP", "TRUETYPE",
                                                            "HATCH", "SVG", "SIMPLE"};
             const QString v = p.readWord(k, names);
             for (size_t i = 0; i < names.size(); ++i)
                 if (v == QLatin1String(names[i])) s.type = SymbolType(i);
         }}},
        {QStringLiteral("POINTS"),
         Sy{[](MapParser& p, SymbolDef& s, const Token& k) { s.points = p.readPoints(k); }, true}},
        {QStringLiteral("FILLED"), boolField(&SymbolDef::filled)},
        {QStringLiteral("IMAGE"), stringField(&SymbolDef::image)},
        {QStringLiteral("FONT"), stringField(&SymbolDef::font)},
        {QStringLiteral("CHARACTER"), stringField(&SymbolDef::character)},
        {QStringLiteral("ANTIALIAS"), boolField(&SymbolDef::antialias)},
        {QStringLiteral("ANCHORPOINT"), Sy{[](MapParser& p, SymbolDef& s, const Token& k) {
             s.anchorX = p.readNumber(k);
             s.anchorY = p.readNumber(k);
             s.anchorSet = true;
         }}},
        {QStringLiteral("TRANSPARENT"), extraField<SymbolDef>(1)},
    };
    return table;
}

using Of = KeywordEntry<OutputFormatDef>;

const KeywordTable<OutputFormatDef>& outputFormatTable()
{
    static const KeywordTable<OutputFormatDef> table = {
        {QStringLiteral("NAME"), stringField(&OutputFormatDef::name)},
        {QStringLiteral("DRIVER"), stringField(&OutputFormatDef::driver)},
        {QStringLiteral("MIMETYPE"), stringField(&OutputFormatDef::mimeType)},
        {QStringLiteral("IMAGEMODE"), wordField(&OutputFormatDef::imageMode,
                                                {"PC256", "RGB", "RGBA", "INT16", "FLOAT32", "BYTE", "FEATURE"})},
        {QStringLiteral("EXTENSION"), stringField(&OutputFormatDef::extension)},
        {QStringLiteral("TRANSPARENT"), Of{[](MapParser& p, OutputFormatDef& f, const Token& k) {
             f.transparent = p.readBool(k);
             f.transparentGiven = true;
         }}},
        {QStringLiteral("FORMATOPTION"), Of{[](MapParser& p, OutputFormatDef& f, const Token& k) {
             // Repeatable, kept in order (several GDAL creation options may share a key).
             const QString option = p.readString(k);
             const int eq = option.indexOf(QLatin1Char('='));
             if (eq < 0) {
                 p.warning(k.pos, QStringLiteral("FORMATOPTION \"%1\" is not of the form KEY=VALUE").arg(option));
                 f.formatOptions.items.append({option, QString()});
             } else {
                 f.formatOptions.items.append({option.left(eq), option.mid(eq + 1)});
             }
         }}},
    };
    return table;
}

using W = KeywordEntry<WebDef>;

const KeywordTable<WebDef>& webTable()
{
    static const KeywordTable<WebDef> table = [] {
        KeywordTable<WebDef> t = {
            {QStringLiteral("METADATA"), keyValuesField(&WebDef::metadata)},
            {QStringLiteral("VALIDATION"), keyValuesField(&WebDef::validation)},
            {QStringLiteral("IMAGEPATH"), stringField(&WebDef::imagePath)},
            {QStringLiteral("IMAGEURL"), stringField(&WebDef::imageUrl)},
            {QStringLiteral("TEMPLATE"), stringField(&WebDef::templ)},
            {QStringLiteral("HEADER"), stringField(&WebDef::header)},
            {QStringLiteral("FOOTER"), stringField(&WebDef::footer)},
            {QStringLiteral("EMPTY"), stringField(&WebDef::empty)},
            {QStringLiteral("ERROR"), stringField(&WebDef::error)},
        };
        addScaleKeywords(t, &WebDef::minScaleDenom, &WebDef::maxScaleDenom);
        for (const char* kw : {"TEMPPATH", "BROWSEFORMAT",
                               "LEGENDFORMAT", "QUERYFORMAT", "MINTEMPLATE", "MAXTEMPLATE", "LOG"})
            t.insert(QLatin1String(kw), extraField<WebDef>(1));
        return t;
    }();
    return table;
}

template <typename T>
KeywordEntry<T> optionalLabel(std::optional<LabelDef> T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) {
                LabelDef l;
                p.parseLabel(k, l);
                o.*m = std::move(l);
            },
            true};
}

template <typename T>
KeywordEntry<T> intPair(int T::*a, int T::*b)
{
    return {[a, b](MapParser& p, T& o, const Token& k) {
        o.*a = p.readInt(k);
        o.*b = p.readInt(k);
    }};
}

const KeywordTable<LegendDef>& legendTable()
{
    static const KeywordTable<LegendDef> table = {
        {QStringLiteral("IMAGECOLOR"), colorField(&LegendDef::imageColor)},
        {QStringLiteral("OUTLINECOLOR"), colorField(&LegendDef::outlineColor)},
        {QStringLiteral("KEYSIZE"), intPair(&LegendDef::keySizeX, &LegendDef::keySizeY)},
        {QStringLiteral("KEYSPACING"), intPair(&LegendDef::keySpacingX, &LegendDef::keySpacingY)},
        {QStringLiteral("STATUS"), wordField(&LegendDef::status, {"ON", "OFF", "EMBED"})},
        {QStringLiteral("POSTLABELCACHE"), boolField(&LegendDef::postLabelCache)},
        {QStringLiteral("LABEL"), optionalLabel(&LegendDef::label)},
        {QStringLiteral("TEMPLATE"), stringField(&LegendDef::templ)},
        {QStringLiteral("POSITION"), extraField<LegendDef>(1)},
        {QStringLiteral("TRANSPARENT"), extraField<LegendDef>(1)},
        {QStringLiteral("INTERLACE"), extraField<LegendDef>(1)},
    };
    return table;
}

const KeywordTable<ScalebarDef>& scalebarTable()
{
    static const KeywordTable<ScalebarDef> table = {
        {QStringLiteral("STATUS"), wordField(&ScalebarDef::status, {"ON", "OFF", "EMBED"})},
        {QStringLiteral("UNITS"), wordField(&ScalebarDef::units, {"METERS", "DD", "FEET", "INCHES", "MILES",
                                                                  "NAUTICALMILES", "KILOMETERS"})},
        {QStringLiteral("INTERVALS"), intField(&ScalebarDef::intervals)},
        {QStringLiteral("SIZE"), intPair(&ScalebarDef::sizeX, &ScalebarDef::sizeY)},
        {QStringLiteral("STYLE"), intField(&ScalebarDef::style)},
        {QStringLiteral("COLOR"), colorField(&ScalebarDef::color)},
        {QStringLiteral("BACKGROUNDCOLOR"), colorField(&ScalebarDef::backgroundColor)},
        {QStringLiteral("IMAGECOLOR"), colorField(&ScalebarDef::imageColor)},
        {QStringLiteral("OUTLINECOLOR"), colorField(&ScalebarDef::outlineColor)},
        {QStringLiteral("POSITION"), wordField(&ScalebarDef::position, {"UL", "UC", "UR", "LL", "LC", "LR"})},
        {QStringLiteral("TRANSPARENT"), boolField(&ScalebarDef::transparent)},
        {QStringLiteral("LABEL"), optionalLabel(&ScalebarDef::label)},
        {QStringLiteral("ALIGN"), extraField<ScalebarDef>(1)},
        {QStringLiteral("POSTLABELCACHE"), extraField<ScalebarDef>(1)},
        {QStringLiteral("OFFSET"), extraField<ScalebarDef>(2)},
        {QStringLiteral("INTERLACE"), extraField<ScalebarDef>(1)},
    };
    return table;
}

const KeywordTable<QueryMapDef>& queryMapTable()
{
    static const KeywordTable<QueryMapDef> table = {
        {QStringLiteral("STATUS"), wordField(&QueryMapDef::status, {"ON", "OFF"})},
        {QStringLiteral("STYLE"), wordField(&QueryMapDef::style, {"NORMAL", "HILITE", "SELECTED"})},
        {QStringLiteral("COLOR"), colorField(&QueryMapDef::color)},
        {QStringLiteral("SIZE"), intPair(&QueryMapDef::sizeX, &QueryMapDef::sizeY)},
    };
    return table;
}

}  // namespace

QStringList symbolKeywords() { return symbolTable().keys(); }
QStringList webKeywords() { return webTable().keys(); }
QStringList outputFormatKeywords() { return outputFormatTable().keys(); }

void MapParser::parseSymbol(const Token& kw, SymbolDef& symbol)
{
    symbol.pos = kw.pos;
    parseBlock(kw, "SYMBOL", symbolTable(), symbol);
}

void MapParser::parseOutputFormat(const Token& kw, OutputFormatDef& format)
{
    format.pos = kw.pos;
    parseBlock(kw, "OUTPUTFORMAT", outputFormatTable(), format);
}

void MapParser::parseWeb(const Token& kw, WebDef& web)
{
    web.present = true;
    parseBlock(kw, "WEB", webTable(), web);
}

void MapParser::parseLegend(const Token& kw, LegendDef& legend)
{
    legend.present = true;
    parseBlock(kw, "LEGEND", legendTable(), legend);
}

void MapParser::parseScalebar(const Token& kw, ScalebarDef& scalebar)
{
    scalebar.present = true;
    parseBlock(kw, "SCALEBAR", scalebarTable(), scalebar);
}

void MapParser::parseQueryMap(const Token& kw, QueryMapDef& queryMap)
{
    queryMap.present = true;
    parseBlock(kw, "QUERYMAP", queryMapTable(), queryMap);
}

}  // namespace maptune
