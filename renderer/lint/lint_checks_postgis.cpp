// MT101 MT102 MT103: PostGIS layers, from the mapfile alone (no connection).

#include "data/postgis/postgis_data_def.h"
#include "lint/lint_context.h"
#include "mapfile/map_validator.h"

#include <QRegularExpression>

namespace maptune {

namespace {

// The EPSG code of a layer's CRS (the map's when it has none), or 0.
int epsgOf(const MapDef& map, const LayerDef& layer)
{
    const ProjectionDef& projection = layer.projection.isSet() ? layer.projection : map.projection;
    static const QRegularExpression epsg(QStringLiteral("^EPSG:(\\d+)$"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = epsg.match(projString(projection, map.baseDir()));
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

void checkUsing(LintContext& c, const LayerDef& layer, const SyntaxNode* node)
{
    const Result<PostgisDataDef> data = PostgisDataDef::parse(layer.data);
    if (!data) return;  // the loader's problem (MT001)
    QStringList missing;
    if (data->uniqueColumn.isEmpty()) missing << QStringLiteral("`using unique <key column>`");
    if (data->srid <= 0) missing << QStringLiteral("`using srid=<srid>`");
    if (missing.isEmpty()) return;
    std::optional<LintEdit> edit;
    const SyntaxNode* dataNode = node ? node->child(QStringLiteral("DATA")) : nullptr;
    const int srid = epsgOf(c.map, layer);
    // Only the SRID can be known without the database; the key column cannot.
    if (dataNode && !dataNode->values.isEmpty() && data->srid <= 0 && srid > 0) {
        const QString text = layer.data.trimmed() + QStringLiteral(" using srid=%1").arg(srid);
        edit = LintContext::replaceToken(dataNode->values.first(), quoteMapString(text),
                                         QStringLiteral("Add `using srid=%1` to DATA").arg(srid));
    }
    c.add(QStringLiteral("MT101"), layer.dataPos.line > 0 ? layer.dataPos : layer.pos,
          QStringLiteral("layer '%1': PostGIS DATA without %2: the database is asked for it before every draw")
              .arg(layer.name, missing.join(QStringLiteral(" and "))),
          edit);
}

void checkPassword(LintContext& c, const LayerDef& layer)
{
    static const QRegularExpression password(QStringLiteral("(^|\\s)password\\s*=\\s*\\S"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression uriPassword(QStringLiteral("^postgres(ql)?://[^/@:]+:[^/@]+@"),
                                                QRegularExpression::CaseInsensitiveOption);
    if (!password.match(layer.connection).hasMatch() && !uriPassword.match(layer.connection).hasMatch()) return;
    c.add(QStringLiteral("MT102"), layer.connectionPos.line > 0 ? layer.connectionPos : layer.pos,
          QStringLiteral("layer '%1': CONNECTION holds a password; use a pg_service entry or a PGPASSFILE")
              .arg(layer.name));
}

void checkCloseConnection(LintContext& c, const LayerDef& layer, const SyntaxNode* node)
{
    for (const QString& p : layer.processing)
        if (p.section(QLatin1Char('='), 0, 0).trimmed().compare(QLatin1String("CLOSE_CONNECTION"), Qt::CaseInsensitive) == 0)
            return;
    std::optional<LintEdit> edit;
    if (node) {
        const SyntaxNode* anchor = node->child(QStringLiteral("CONNECTIONTYPE"));
        if (!anchor) anchor = node->child(QStringLiteral("CONNECTION"));
        if (anchor)
            edit = LintContext::insertLineAfter(*anchor, anchor->keyword.pos.column - 1,
                                                QStringLiteral("PROCESSING \"CLOSE_CONNECTION=DEFER\""),
                                                QStringLiteral("Add PROCESSING \"CLOSE_CONNECTION=DEFER\""));
    }
    c.add(QStringLiteral("MT103"), layer.pos,
          QStringLiteral("layer '%1': without PROCESSING \"CLOSE_CONNECTION=DEFER\" MapServer reconnects for "
                         "every request")
              .arg(layer.name),
          edit);
}

}  // namespace

void checkPostgisLayers(LintContext& c)
{
    for (int i = 0; i < c.map.layers.size(); ++i) {
        const LayerDef& layer = c.map.layers[i];
        if (layer.connectionType != ConnectionType::PostGIS) continue;
        checkUsing(c, layer, c.layerNode(i));
        checkPassword(c, layer);
        checkCloseConnection(c, layer, c.layerNode(i));
    }
}

}  // namespace maptune
