// The MAP block and the SYMBOLSET file.
#include "mapfile/map_parser.h"

namespace maptune {

namespace {

using E = KeywordEntry<MapDef>;

LayerStatus readStatus(MapParser& p, const Token& k, bool allowDefault)
{
    const QString v = allowDefault ? p.readWord(k, {"ON", "OFF", "DEFAULT"}) : p.readWord(k, {"ON", "OFF"});
    if (v == QLatin1String("OFF")) return LayerStatus::Off;
    if (v == QLatin1String("DEFAULT")) return LayerStatus::Default;
    return LayerStatus::On;
}

const KeywordTable<MapDef>& mapTable()
{
    static const KeywordTable<MapDef> table = {
        {QStringLiteral("NAME"), stringField(&MapDef::name)},
        {QStringLiteral("STATUS"), E{[](MapParser& p, MapDef& m, const Token& k) { m.status = readStatus(p, k, false); }}},
        {QStringLiteral("EXTENT"), E{[](MapParser& p, MapDef& m, const Token& k) { m.extent = p.readExtent(k); }}},
        {QStringLiteral("SIZE"), E{[](MapParser& p, MapDef& m, const Token& k) {
             m.width = p.readInt(k);
             m.height = p.readInt(k);
         }}},
        {QStringLiteral("MAXSIZE"), intField(&MapDef::maxSize)},
        {QStringLiteral("UNITS"), wordField(&MapDef::units, {"METERS", "DD", "FEET", "INCHES", "MILES", "NAUTICALMILES",
                                                             "KILOMETERS", "PIXELS", "PERCENTAGES"})},
        {QStringLiteral("RESOLUTION"), numberField(&MapDef::resolution)},
        {QStringLiteral("DEFRESOLUTION"), numberField(&MapDef::defResolution)},
        {QStringLiteral("ANGLE"), numberField(&MapDef::angle)},
        {QStringLiteral("IMAGECOLOR"), colorField(&MapDef::imageColor)},
        {QStringLiteral("IMAGETYPE"), stringField(&MapDef::imageType)},
        {QStringLiteral("SHAPEPATH"), stringField(&MapDef::shapePath)},
        {QStringLiteral("FONTSET"), E{[](MapParser& p, MapDef& m, const Token& k) {
             p.fontSetPos = k.pos;
             m.fontSet = p.readString(k);
         }}},
        {QStringLiteral("SYMBOLSET"), E{[](MapParser& p, MapDef& m, const Token& k) {
             p.symbolSetPos = k.pos;
             m.symbolSet = p.readString(k);
         }}},
        {QStringLiteral("TEMPLATEPATTERN"), stringField(&MapDef::templatePattern)},
        {QStringLiteral("DATAPATTERN"), stringField(&MapDef::dataPattern)},
        {QStringLiteral("CONFIG"), E{[](MapParser& p, MapDef& m, const Token& k) {
             const QString key = p.readString(k);
             const QString value = p.readString(k);
             if (!key.isEmpty()) m.config.set(key, value);
         }}},
        {QStringLiteral("DEBUG"), E{[](MapParser& p, MapDef& m, const Token& k) { m.debug = readDebugLevel(p, k); }}},
        {QStringLiteral("PROJECTION"),
         E{[](MapParser& p, MapDef& m, const Token& k) { m.projection.args = p.readStringBlock(k); }, true}},
        {QStringLiteral("WEB"), E{[](MapParser& p, MapDef& m, const Token& k) { p.parseWeb(k, m.web); }, true}},
        {QStringLiteral("OUTPUTFORMAT"), E{[](MapParser& p, MapDef& m, const Token& k) {
                                               OutputFormatDef f;
                                               p.parseOutputFormat(k, f);
                                               m.outputFormats.append(std::move(f));
                                           },
                                           true}},
        {QStringLiteral("LEGEND"), E{[](MapParser& p, MapDef& m, const Token& k) { p.parseLegend(k, m.legend); }, true}},
        {QStringLiteral("SCALEBAR"),
         E{[](MapParser& p, MapDef& m, const Token& k) { p.parseScalebar(k, m.scalebar); }, true}},
        {QStringLiteral("QUERYMAP"),
         E{[](MapParser& p, MapDef& m, const Token& k) { p.parseQueryMap(k, m.queryMap); }, true}},
        {QStringLiteral("SYMBOL"), E{[](MapParser& p, MapDef& m, const Token& k) {
                                         SymbolDef s;
                                         p.parseSymbol(k, s);
                                         m.symbols.append(std::move(s));
                                     },
                                     true}},
        {QStringLiteral("LAYER"), E{[](MapParser& p, MapDef& m, const Token& k) {
                                        LayerDef l;
                                        p.parseLayer(k, l);
                                        m.layers.append(std::move(l));
                                    },
                                    true}},
        {QStringLiteral("REFERENCE"), extraField<MapDef>(-1)},
        {QStringLiteral("SCALEDENOM"), extraField<MapDef>(1)},
        {QStringLiteral("SCALE"), extraField<MapDef>(1)},
        {QStringLiteral("LATLON"), extraField<MapDef>(-1)},
        {QStringLiteral("IMAGEQUALITY"), extraField<MapDef>(1)},
        {QStringLiteral("INTERLACE"), extraField<MapDef>(1)},
        {QStringLiteral("TRANSPARENT"), extraField<MapDef>(1)},
    };
    return table;
}

const KeywordTable<QList<SymbolDef>>& symbolSetTable()
{
    static const KeywordTable<QList<SymbolDef>> table = {
        {QStringLiteral("SYMBOL"), {[](MapParser& p, QList<SymbolDef>& list, const Token& k) {
                                        SymbolDef s;
                                        p.parseSymbol(k, s);
                                        s.fromSymbolSet = true;
                                        list.append(std::move(s));
                                    },
                                    true}},
        // An INCLUDEd symbol file keeps its own SYMBOLSET ... END wrapper
        // inside the outer one; MapServer reads it as a nested set.
        {QStringLiteral("SYMBOLSET"), {[](MapParser& p, QList<SymbolDef>& list, const Token& k) {
                                           p.parseBlock(k, "SYMBOLSET", symbolSetTable(), list);
                                       },
                                       true}},
    };
    return table;
}

}  // namespace

QStringList mapKeywords() { return mapTable().keys(); }

int readDebugLevel(MapParser& p, const Token& k)
{
    for (const auto& [word, level] : {std::pair{"ON", 1}, std::pair{"OFF", 0}}) {
        if (p.peek().isWord(word)) {
            p.next();
            return level;
        }
    }
    return p.readInt(k);
}

LayerStatus readLayerStatus(MapParser& p, const Token& k)
{
    return readStatus(p, k, true);
}

std::shared_ptr<MapDef> MapParser::parseMap()
{
    const Token first = next();
    if (!first.isWord("MAP")) {
        error(first.pos, QStringLiteral("expected MAP at the start of the mapfile, got %1").arg(first.describe()));
        return nullptr;
    }
    auto map = std::make_shared<MapDef>();
    map->pos = first.pos;
    parseBlock(first, "MAP", mapTable(), *map);
    const Token& after = peek();
    if (after.kind != Token::Kind::Eof)
        warning(after.pos, QStringLiteral("text after the END of MAP is ignored (starts with %1)").arg(after.describe()));
    return map;
}

QList<SymbolDef> MapParser::parseSymbolSet()
{
    QList<SymbolDef> symbols;
    if (peek().isWord("SYMBOLSET")) {
        const Token opener = next();
        parseBlock(opener, "SYMBOLSET", symbolSetTable(), symbols);
        return symbols;
    }
    // Older symbol files hold bare SYMBOL blocks.
    for (;;) {
        const Token t = next();
        if (t.kind == Token::Kind::Eof) break;
        if (t.isWord("SYMBOL")) {
            symbolSetTable().value(QStringLiteral("SYMBOL")).handle(*this, symbols, t);
            continue;
        }
        error(t.pos, QStringLiteral("unexpected %1 in symbol file (expected SYMBOLSET or SYMBOL)").arg(t.describe()));
    }
    return symbols;
}

}  // namespace maptune
