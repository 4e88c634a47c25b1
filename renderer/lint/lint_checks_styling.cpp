// MT109 MT113 MT114 MT115: classes, labels, symbols and output formats.

#include "expr/expression.h"
#include "lint/lint_context.h"
#include "mapfile/map_paths.h"

#include <gdal.h>
#include <ogr_api.h>

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <memory>

namespace maptune {

namespace {

// What a vector layer's data holds, read through OGR without fetching features.
struct VectorSchema {
    QStringList fields;
    QList<OGRFieldType> types;
    qint64 featureCount = -1;   // -1: unknown without a full scan
    bool ok = false;
    OGRFieldType type(const QString& name) const
    {
        for (int i = 0; i < fields.size(); ++i)
            if (fields[i].compare(name, Qt::CaseInsensitive) == 0) return types[i];
        return OFTString;
    }
};

VectorSchema vectorSchema(const MapDef& map, const LayerDef& layer)
{
    VectorSchema s;
    QString path, layerName;
    if (layer.connectionType == ConnectionType::Local && layer.tileIndex.isEmpty()) {
        path = resolveDataPath(map, layer.data);
    } else if (layer.connectionType == ConnectionType::OGR && !layer.connection.trimmed().startsWith(QLatin1Char('<'))) {
        path = resolveDataPath(map, layer.connection);
        layerName = layer.data;
    }
    if (path.isEmpty() || layer.type == LayerType::Raster || !isLocalSource(path)) return s;
    if (QFileInfo(path).suffix().isEmpty() && QFileInfo::exists(path + QStringLiteral(".shp"))) path += QStringLiteral(".shp");
    if (!QFileInfo::exists(path)) return s;
    std::unique_ptr<void, decltype(&GDALClose)> ds(
        GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr), GDALClose);
    if (!ds) return s;
    OGRLayerH l = layerName.isEmpty() ? GDALDatasetGetLayer(ds.get(), 0)
                                      : GDALDatasetGetLayerByName(ds.get(), layerName.toUtf8().constData());
    if (!l) return s;
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(l);
    for (int i = 0; i < OGR_FD_GetFieldCount(defn); ++i) {
        OGRFieldDefnH f = OGR_FD_GetFieldDefn(defn, i);
        s.fields << QString::fromUtf8(OGR_Fld_GetNameRef(f));
        s.types << OGR_Fld_GetType(f);
    }
    s.featureCount = OGR_L_GetFeatureCount(l, FALSE);
    s.ok = true;
    return s;
}

bool isNumeric(OGRFieldType t) { return t == OFTInteger || t == OFTInteger64 || t == OFTReal; }

// Why an expression can never match against this data, or "".
QString neverMatches(const ExpressionDef& def, const QString& item, const VectorSchema& schema)
{
    if (!def.isSet() || def.text.contains(QLatin1Char('%'))) return {};  // runtime substitution: known per request
    const Result<Expression> compiled = Expression::compile(def);
    if (!compiled) return {};  // a syntax error is the loader's (MT001)
    if (!compiled->warning().isEmpty()) return compiled->warning();
    const auto bound = compiled->bind(schema.fields, item);
    if (!bound) return bound.message();
    bool isNumber = false;
    def.text.toDouble(&isNumber);
    if (def.type == ExpressionDef::Type::String && !item.isEmpty() && isNumeric(schema.type(item)) && !isNumber)
        return QStringLiteral("%1 is numeric and never equals the text \"%2\"").arg(item, def.text);
    return {};
}

bool hasLabelScaleLimit(const LayerDef& layer)
{
    if (layer.labelMaxScaleDenom > 0 || layer.maxScaleDenom > 0) return true;
    for (const ClassDef& c : layer.classes) {
        if (c.maxScaleDenom > 0) continue;
        for (const LabelDef& l : c.labels)
            if (l.maxScaleDenom <= 0) return false;
    }
    return true;
}

bool hasLabels(const LayerDef& layer)
{
    for (const ClassDef& c : layer.classes)
        if (!c.labels.isEmpty()) return true;
    return false;
}

void checkLayer(LintContext& c, int index)
{
    const LayerDef& layer = c.map.layers[index];
    if (layer.connectionType == ConnectionType::PostGIS || !c.options.inspectFiles) return;
    const VectorSchema schema = vectorSchema(c.map, layer);
    if (!schema.ok) return;
    const SyntaxNode* node = c.layerNode(index);
    if (const QString why = neverMatches(layer.filter, layer.filterItem, schema); !why.isEmpty()) {
        const SyntaxNode* filter = node ? node->child(QStringLiteral("FILTER")) : nullptr;
        c.add(QStringLiteral("MT113"), filter ? filter->keyword.pos : layer.pos,
              QStringLiteral("layer '%1': FILTER never matches: %2").arg(layer.name, why));
    }
    for (const ClassDef& cls : layer.classes) {
        const QString why = neverMatches(cls.expression, layer.classItem, schema);
        if (why.isEmpty()) continue;
        const QString name = cls.name.isEmpty() ? QStringLiteral("a class") : QStringLiteral("class '%1'").arg(cls.name);
        c.add(QStringLiteral("MT113"), cls.pos,
              QStringLiteral("layer '%1', %2: EXPRESSION never matches: %3").arg(layer.name, name, why));
    }
    if (hasLabels(layer) && !hasLabelScaleLimit(layer) && schema.featureCount > c.options.denseFeatureCount)
        c.add(QStringLiteral("MT109"), layer.pos,
              QStringLiteral("layer '%1': %2 features labelled at every scale (no LABELMAXSCALEDENOM)")
                  .arg(layer.name)
                  .arg(schema.featureCount));
}

void checkUnusedSymbols(LintContext& c)
{
    if (!c.mapNode) return;
    for (const LayerDef& l : c.map.layers)
        if (!l.styleItem.isEmpty()) return;  // OGR styles name symbols at draw time
    QSet<QString> used;
    bool unknowable = false;
    c.syntax.visit([&](const SyntaxNode& n, const QList<const SyntaxNode*>&) {
        if (n.name != QLatin1String("SYMBOL") || !n.spec || n.spec->type != ValueType::Symbol || n.values.isEmpty()) return;
        const Token& v = n.values.first();
        bool numeric = false;
        const int index = v.text.toInt(&numeric);
        // SYMBOL n counts from 1 (0 is the default symbol); [attr] and %token% are known per feature or request.
        if (v.kind == Token::Kind::Attr || v.text.contains(QLatin1Char('[')) || v.text.contains(QLatin1Char('%'))) unknowable = true;
        else if (numeric && index > 0 && index <= c.map.symbols.size()) used.insert(c.map.symbols[index - 1].name.toLower());
        else if (!numeric) used.insert(v.text.toLower());
    });
    if (unknowable) return;
    for (const SyntaxNode* symbol : c.mapNode->childrenNamed(QStringLiteral("SYMBOL"))) {
        const SyntaxNode* name = symbol->child(QStringLiteral("NAME"));
        if (!name || used.contains(name->text().toLower())) continue;
        c.add(QStringLiteral("MT114"), symbol->keyword.pos, QStringLiteral("SYMBOL '%1' is never used").arg(name->text()),
              LintContext::removeNode(*symbol, QStringLiteral("Remove SYMBOL '%1'").arg(name->text())));
    }
}

void checkUnusedFormats(LintContext& c)
{
    if (!c.mapNode) return;
    QString mentioned = c.map.imageType;
    bool advertisedAll = false, serves = false;
    auto scan = [&](const KeyValues& kv) {
        for (const auto& [key, value] : kv.items) {
            mentioned += QLatin1Char(' ') + value;
            if (key.startsWith(QLatin1String("wms_"), Qt::CaseInsensitive) || key.startsWith(QLatin1String("ows_"), Qt::CaseInsensitive))
                serves = true;
        }
    };
    scan(c.map.web.metadata);
    for (const LayerDef& l : c.map.layers) scan(l.metadata);
    if (serves && !c.map.web.metadata.value(QStringLiteral("wms_getmap_formatlist")))
        advertisedAll = true;  // GetCapabilities lists every format
    if (advertisedAll) return;
    for (const SyntaxNode* web : c.mapNode->childrenNamed(QStringLiteral("WEB")))
        for (const SyntaxNode& k : web->children)
            if (k.name.endsWith(QLatin1String("FORMAT"))) mentioned += QLatin1Char(' ') + k.text();
    const QList<const SyntaxNode*> formats = c.mapNode->childrenNamed(QStringLiteral("OUTPUTFORMAT"));
    for (const SyntaxNode* format : formats) {
        // Without IMAGETYPE, MapServer draws with the first format defined.
        if (c.map.imageType.isEmpty() && format == formats.first()) continue;
        const SyntaxNode* name = format->child(QStringLiteral("NAME"));
        const SyntaxNode* mime = format->child(QStringLiteral("MIMETYPE"));
        if (!name || mentioned.contains(name->text(), Qt::CaseInsensitive) ||
            (mime && !mime->text().isEmpty() && mentioned.contains(mime->text(), Qt::CaseInsensitive)))
            continue;
        c.add(QStringLiteral("MT115"), format->keyword.pos,
              QStringLiteral("OUTPUTFORMAT '%1' is neither the IMAGETYPE nor in a WMS format list").arg(name->text()));
    }
}

}  // namespace

void checkStyling(LintContext& c)
{
    for (int i = 0; i < c.map.layers.size(); ++i) checkLayer(c, i);
    checkUnusedSymbols(c);
    checkUnusedFormats(c);
}

void checkKeywords(LintContext& c)
{
    static const QRegularExpression keyword(QStringLiteral("^[A-Z_]+$"));
    c.syntax.visit([&](const SyntaxNode& n, const QList<const SyntaxNode*>&) {
        if (!n.spec || !n.spec->isRemoved()) return;
        std::optional<LintEdit> edit;
        if (keyword.match(n.spec->replacement).hasMatch())
            edit = LintContext::replaceToken(n.keyword, n.spec->replacement,
                                             QStringLiteral("Rename to %1").arg(n.spec->replacement));
        c.add(QStringLiteral("MT116"), n.keyword.pos,
              QStringLiteral("%1 in %2 was removed in MapServer %3%4")
                  .arg(n.name, n.block.isEmpty() ? QStringLiteral("the file") : n.block, n.spec->removed,
                       n.spec->replacement.isEmpty() ? QString() : QStringLiteral("; use ") + n.spec->replacement),
              edit);
    });
}

}  // namespace maptune
