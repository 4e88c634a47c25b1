// LAYER and the blocks only a layer holds: FEATURE, COMPOSITE, SCALETOKEN.
#include "mapfile/map_parser.h"

namespace maptune {

namespace {

const std::vector<const char*> kUnits = {"METERS", "DD", "FEET", "INCHES", "MILES", "NAUTICALMILES", "KILOMETERS",
                                         "PIXELS", "PERCENTAGES"};

using F = KeywordEntry<InlineFeatureDef>;

const KeywordTable<InlineFeatureDef>& featureTable()
{
    static const KeywordTable<InlineFeatureDef> table = {
        {QStringLiteral("POINTS"),
         F{[](MapParser& p, InlineFeatureDef& f, const Token& k) { f.parts.append(p.readPoints(k)); }, true}},
        {QStringLiteral("WKT"), stringField(&InlineFeatureDef::wkt)},
        {QStringLiteral("ITEMS"), stringField(&InlineFeatureDef::items)},
        {QStringLiteral("TEXT"), stringField(&InlineFeatureDef::text)},
    };
    return table;
}

using Co = KeywordEntry<LayerCompositeDef>;

const KeywordTable<LayerCompositeDef>& compositeTable()
{
    static const KeywordTable<LayerCompositeDef> table = {
        {QStringLiteral("OPACITY"), numberField(&LayerCompositeDef::opacity)},
        {QStringLiteral("COMPOP"), stringField(&LayerCompositeDef::compOp)},
        {QStringLiteral("COMPFILTER"), Co{[](MapParser& p, LayerCompositeDef&, const Token& k) {
             p.readString(k);
             p.warning(k.pos, QStringLiteral("COMPFILTER is not supported by MapTune (ignored)"));
         }}},
    };
    return table;
}

using St = KeywordEntry<ScaleTokenDef>;

const KeywordTable<ScaleTokenDef>& scaleTokenTable()
{
    static const KeywordTable<ScaleTokenDef> table = {
        {QStringLiteral("NAME"), stringField(&ScaleTokenDef::name)},
        {QStringLiteral("VALUES"), St{[](MapParser& p, ScaleTokenDef& s, const Token& k) {
                                          KeyValues kv;
                                          p.readKeyValues(k, kv);
                                          s.values = kv.items;
                                      },
                                      true}},
    };
    return table;
}

void readLayerType(MapParser& p, LayerDef& l, const Token& k)
{
    static const std::vector<const char*> names = {"POINT", "LINE", "POLYGON", "RASTER", "CIRCLE",
                                                   "ANNOTATION", "QUERY", "CHART"};
    const QString v = p.readWord(k, names);
    for (size_t i = 0; i < names.size(); ++i)
        if (v == QLatin1String(names[i])) l.type = LayerType(i);
}

void readConnectionType(MapParser& p, LayerDef& l, const Token& k)
{
    static const std::vector<const char*> modelled = {"LOCAL", "OGR", "POSTGIS", "WMS", "WFS",
                                                      "UNION", "PLUGIN", "INLINE", "RASTER", "CONTOUR", "UVRASTER",
                                                      "FLATGEOBUF", "KERNELDENSITY", "IDW"};
    // Accepted by MapServer but not drawn by MapTune: kept verbatim.
    static const QStringList others = {QStringLiteral("ORACLESPATIAL"), QStringLiteral("SDE"),
                                       QStringLiteral("MYGIS"), QStringLiteral("RASTERLABEL")};
    const Token& t = p.peek();
    if (t.kind == Token::Kind::Word && others.contains(t.upper())) {
        l.connectionType = ConnectionType::Unknown;
        l.extras.append({k.upper(), {p.next().upper()}});
        return;
    }
    const QString v = p.readWord(k, modelled);
    for (size_t i = 0; i < modelled.size(); ++i)
        if (v == QLatin1String(modelled[i])) l.connectionType = ConnectionType(i);
}

// OPACITY n on a layer is shorthand for the first COMPOSITE block's opacity.
void readLayerOpacity(MapParser& p, LayerDef& l, const Token& k)
{
    const double v = p.readNumber(k);
    if (l.composites.isEmpty()) l.composites.append(LayerCompositeDef{});
    l.composites.first().opacity = v;
}

void readTransform(MapParser& p, LayerDef& l, const Token& k)
{
    for (const char* pos : {"UL", "UC", "UR", "CL", "CC", "CR", "LL", "LC", "LR"}) {
        if (p.peek().isWord(pos)) {
            l.extras.append({k.upper(), {p.next().upper()}});
            return;
        }
    }
    l.transform = p.readBool(k);
}

using Ly = KeywordEntry<LayerDef>;

KeywordTable<LayerDef> buildLayerTable()
{
    KeywordTable<LayerDef> t = {
        {QStringLiteral("NAME"), stringField(&LayerDef::name)},
        {QStringLiteral("GROUP"), stringField(&LayerDef::group)},
        {QStringLiteral("TITLE"), stringField(&LayerDef::title)},
        {QStringLiteral("TYPE"), Ly{readLayerType}},
        {QStringLiteral("STATUS"),
         Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.status = readLayerStatus(p, k); }}},
        {QStringLiteral("DATA"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
             l.dataPos = p.peek().pos;
             l.data = p.readString(k);
         }}},
        {QStringLiteral("CONNECTIONTYPE"), Ly{readConnectionType}},
        {QStringLiteral("CONNECTION"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
             l.connectionPos = p.peek().pos;
             l.connection = p.readString(k);
         }}},
        {QStringLiteral("PLUGIN"), stringField(&LayerDef::plugin)},
        {QStringLiteral("PROCESSING"),
         Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.processing << p.readString(k); }}},
        {QStringLiteral("PROJECTION"),
         Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.projection.args = p.readStringBlock(k); }, true}},
        {QStringLiteral("EXTENT"), Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.extent = p.readExtent(k); }}},
        {QStringLiteral("METADATA"), keyValuesField(&LayerDef::metadata)},
        {QStringLiteral("VALIDATION"), keyValuesField(&LayerDef::validation)},
        {QStringLiteral("CONNECTIONOPTIONS"), keyValuesField(&LayerDef::connectionOptions)},
        {QStringLiteral("CLASSITEM"), stringField(&LayerDef::classItem)},
        {QStringLiteral("LABELITEM"), stringField(&LayerDef::labelItem)},
        {QStringLiteral("CLASSGROUP"), stringField(&LayerDef::classGroup)},
        {QStringLiteral("FILTER"), expressionField(&LayerDef::filter)},
        {QStringLiteral("FILTERITEM"), stringField(&LayerDef::filterItem)},
        {QStringLiteral("COMPOSITE"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
                                             LayerCompositeDef c;
                                             p.parseBlock(k, "COMPOSITE", compositeTable(), c);
                                             l.composites.append(c);
                                         },
                                         true}},
        {QStringLiteral("OPACITY"), Ly{readLayerOpacity}},
        {QStringLiteral("TRANSPARENCY"), Ly{readLayerOpacity}},
        {QStringLiteral("OFFSITE"), colorField(&LayerDef::offsite)},
        {QStringLiteral("TOLERANCE"), numberField(&LayerDef::tolerance)},
        {QStringLiteral("TOLERANCEUNITS"), wordField(&LayerDef::toleranceUnits, kUnits)},
        {QStringLiteral("TEMPLATE"), stringField(&LayerDef::templ)},
        {QStringLiteral("HEADER"), stringField(&LayerDef::header)},
        {QStringLiteral("FOOTER"), stringField(&LayerDef::footer)},
        {QStringLiteral("UNITS"), wordField(&LayerDef::units, kUnits)},
        {QStringLiteral("SIZEUNITS"), wordField(&LayerDef::sizeUnits, kUnits)},
        {QStringLiteral("TILEINDEX"), stringField(&LayerDef::tileIndex)},
        {QStringLiteral("TILEITEM"), stringField(&LayerDef::tileItem)},
        {QStringLiteral("TILESRS"), stringField(&LayerDef::tileSrs)},
        {QStringLiteral("MASK"), stringField(&LayerDef::mask)},
        {QStringLiteral("REQUIRES"), stringField(&LayerDef::requires_)},
        {QStringLiteral("LABELREQUIRES"), stringField(&LayerDef::labelRequires)},
        {QStringLiteral("MAXFEATURES"), intField(&LayerDef::maxFeatures)},
        {QStringLiteral("DEBUG"), Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.debug = readDebugLevel(p, k); }}},
        {QStringLiteral("ENCODING"), stringField(&LayerDef::encoding)},
        {QStringLiteral("TRANSFORM"), Ly{readTransform}},
        {QStringLiteral("LABELCACHE"), boolField(&LayerDef::labelCache)},
        {QStringLiteral("POSTLABELCACHE"), boolField(&LayerDef::postLabelCache)},
        {QStringLiteral("GEOMTRANSFORM"),
         Ly{[](MapParser& p, LayerDef& l, const Token& k) { l.geomTransform = readGeomTransform(p, k); }}},
        {QStringLiteral("STYLEITEM"), stringField(&LayerDef::styleItem)},
        {QStringLiteral("FEATURE"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
                                           InlineFeatureDef f;
                                           p.parseBlock(k, "FEATURE", featureTable(), f);
                                           l.features.append(std::move(f));
                                       },
                                       true}},
        {QStringLiteral("CLASS"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
                                         ClassDef c;
                                         p.parseClass(k, c);
                                         l.classes.append(std::move(c));
                                     },
                                     true}},
        {QStringLiteral("SCALETOKEN"), Ly{[](MapParser& p, LayerDef& l, const Token& k) {
                                              ScaleTokenDef s;
                                              p.parseBlock(k, "SCALETOKEN", scaleTokenTable(), s);
                                              l.scaleTokens.append(std::move(s));
                                          },
                                          true}},
    };
    for (const char* kw : {"CLUSTER", "GRID", "JOIN", "BINDVALS", "IDENTIFY"}) t.insert(QLatin1String(kw), extraField<LayerDef>(-1));
    for (const char* kw : {"UTFDATA", "UTFITEM", "DUMP", "LABELANGLEITEM", "LABELSIZEITEM", "MAXGEOWIDTH", "MINGEOWIDTH",
                           "MINFEATURESIZE"})
        t.insert(QLatin1String(kw), extraField<LayerDef>(1));
    addScaleKeywords(t, &LayerDef::minScaleDenom, &LayerDef::maxScaleDenom);
    t.insert(QStringLiteral("LABELMINSCALEDENOM"), numberField(&LayerDef::labelMinScaleDenom));
    t.insert(QStringLiteral("LABELMINSCALE"), numberField(&LayerDef::labelMinScaleDenom));
    t.insert(QStringLiteral("LABELMAXSCALEDENOM"), numberField(&LayerDef::labelMaxScaleDenom));
    t.insert(QStringLiteral("LABELMAXSCALE"), numberField(&LayerDef::labelMaxScaleDenom));
    t.insert(QStringLiteral("SYMBOLSCALEDENOM"), numberField(&LayerDef::symbolScaleDenom));
    t.insert(QStringLiteral("SYMBOLSCALE"), numberField(&LayerDef::symbolScaleDenom));
    return t;
}

const KeywordTable<LayerDef>& layerTable()
{
    static const KeywordTable<LayerDef> table = buildLayerTable();
    return table;
}

}  // namespace

QStringList layerKeywords() { return layerTable().keys(); }

void MapParser::parseLayer(const Token& kw, LayerDef& layer)
{
    const KeywordTable<LayerDef>& table = layerTable();
    layer.pos = kw.pos;
    parseBlock(kw, "LAYER", table, layer);
}

}  // namespace maptune
