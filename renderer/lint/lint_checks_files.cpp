// MT105 MT106 MT107 MT112: the files a map reads.

#include "lint/lint_context.h"
#include "loadtest/raster_advisor.h"
#include "mapfile/data_roots.h"
#include "mapfile/map_paths.h"

#include <QFileInfo>

namespace maptune {

namespace {

SourcePos dataPos(const LayerDef& layer) { return layer.dataPos.line > 0 ? layer.dataPos : layer.pos; }

// The .shp a local vector layer reads, or "" when it reads something else.
QString shapefileOf(const MapDef& map, const LayerDef& layer)
{
    if (layer.connectionType != ConnectionType::Local || layer.type == LayerType::Raster || layer.data.isEmpty() ||
        !layer.tileIndex.isEmpty())
        return {};
    QString path = resolveDataPath(map, layer.data);
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".shp");
    return path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive) && QFileInfo::exists(path) ? path : QString();
}

void checkShapefileIndex(LintContext& c, const LayerDef& layer)
{
    const QString shp = shapefileOf(c.map, layer);
    if (shp.isEmpty()) return;
    const QString base = shp.left(shp.size() - 4);
    if (QFileInfo::exists(base + QStringLiteral(".qix")) || QFileInfo::exists(base + QStringLiteral(".QIX"))) return;
    c.add(QStringLiteral("MT105"), dataPos(layer),
          QStringLiteral("layer '%1': %2 has no .qix spatial index (run `shptree %2`)")
              .arg(layer.name, QFileInfo(shp).fileName()));
}

void checkRasterLayout(LintContext& c, const LayerDef& layer)
{
    if (layer.type != LayerType::Raster || (layer.data.isEmpty() && layer.tileIndex.isEmpty())) return;
    if (!isLocalSource(layer.tileIndex.isEmpty() ? layer.data : layer.tileIndex)) return;
    const LayerRasterReport report = RasterAdvisor::inspectLayer(c.map, layer, 20);
    int untiled = 0, noOverviews = 0;
    QString firstUntiled, firstNoOverviews;
    for (const RasterFileInfo& f : report.files) {
        if (!f.ok() || !RasterAdvisor::isLarge(f) || f.driver.startsWith(QLatin1String("JP2"))) continue;
        if (!f.tiled && untiled++ == 0) firstUntiled = QFileInfo(f.path).fileName();
        if (f.overviews == 0 && noOverviews++ == 0) firstNoOverviews = QFileInfo(f.path).fileName();
    }
    auto which = [](const QString& first, int count) {
        return count == 1 ? first : QStringLiteral("%1 and %2 more files").arg(first).arg(count - 1);
    };
    if (noOverviews)
        c.add(QStringLiteral("MT106"), dataPos(layer),
              QStringLiteral("layer '%1': %2 has no overviews: zoomed-out requests read full resolution")
                  .arg(layer.name, which(firstNoOverviews, noOverviews)));
    if (untiled)
        c.add(QStringLiteral("MT107"), dataPos(layer),
              QStringLiteral("layer '%1': %2 is stored in strips, not tiles").arg(layer.name, which(firstUntiled, untiled)));
}

}  // namespace

void checkDataFiles(LintContext& c)
{
    for (const Diagnostic& d : checkDataRoots(c.map)) c.add(QStringLiteral("MT112"), d.pos, d.message);
    if (!c.options.inspectFiles) return;
    for (const LayerDef& layer : c.map.layers) {
        checkShapefileIndex(c, layer);
        checkRasterLayout(c, layer);
    }
}

}  // namespace maptune
