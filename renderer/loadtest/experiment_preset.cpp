#include "loadtest/experiment_preset.h"

#include "loadtest/embedded_server.h"
#include "loadtest/vector_copier.h"
#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace maptune {

namespace {

struct Builder {
    const MapDef& original;
    const PresetOptions& o;
    const CancelToken& cancel;
    const std::function<void(const PresetProgress&)>& progress;
    MapDef base;
    PresetBuild out;

    void report(int step, int steps, double fraction, const QString& stage) const
    {
        if (progress) progress({step, steps, (step + std::clamp(fraction, 0.0, 1.0)) / std::max(steps, 1), stage});
    }

    // Writes a copy of base with layer changed by edit; false (error set) when it cannot be written.
    template <typename Edit>
    bool addVariant(const QString& label, const QString& description, Edit edit)
    {
        MapDef m = base;
        edit(*MapVariantWriter::layer(m, o.layer));
        const QString name = MapVariantWriter::safeName(QFileInfo(original.path).completeBaseName()) + QLatin1Char('-') +
                             MapVariantWriter::safeName(label);
        const VariantWrite w = MapVariantWriter::write(m, o.workDir, name);
        if (!w.path) {
            out.error = w.error;
            return false;
        }
        out.variants << MapVariant{label, *w.path, {}, description};
        return true;
    }
};

int epsgOf(const ProjectionDef& p)
{
    for (QString a : p.args) {
        a = a.trimmed();
        if (a.startsWith(QLatin1String("init="), Qt::CaseInsensitive)) a = a.mid(5);
        if (a.startsWith(QLatin1String("epsg:"), Qt::CaseInsensitive)) return a.mid(5).toInt();
    }
    return 0;
}

void buildLut(Builder& b, const LayerDef& layer)
{
    if (!ExperimentPreset::hasLut(layer)) {
        b.out.error = QStringLiteral("layer '%1' has no PROCESSING \"LUT=...\": the lut preset compares it with and "
                                     "without one; add a LUT or choose another layer").arg(layer.name);
        return;
    }
    b.report(0, 1, 0, QStringLiteral("writing the map variants"));
    if (!b.addVariant(QStringLiteral("LUT on"), QStringLiteral("the layer as it is"), [](LayerDef&) {})) return;
    b.addVariant(QStringLiteral("LUT off"), QStringLiteral("PROCESSING LUT removed"),
                 [](LayerDef& l) { l.processing = ExperimentPreset::withoutLut(l.processing); });
    b.report(1, 1, 0, QStringLiteral("done"));
}

void buildFormats(Builder& b, const LayerDef& layer)
{
    if (layer.type != LayerType::Raster || !layer.tileIndex.isEmpty() || layer.data.isEmpty()) {
        b.out.error = QStringLiteral("layer '%1' is not a raster layer with one DATA file: the formats preset converts "
                                     "that file").arg(layer.name);
        return;
    }
    const QString source = MapVariantWriter::layer(b.base, b.o.layer)->data;
    if (!QFileInfo::exists(source)) {
        b.out.error = QStringLiteral("layer '%1': raster '%2' not found").arg(layer.name, source);
        return;
    }
    if (b.o.includeOriginal &&
        !b.addVariant(QStringLiteral("original"), QStringLiteral("DATA %1").arg(source), [](LayerDef&) {}))
        return;
    const QString rasterDir = QDir(b.o.workDir).filePath(QStringLiteral("rasters"));
    const int steps = int(b.o.formats.size());
    for (int i = 0; i < steps && b.out.error.isEmpty(); ++i) {
        const RasterFormat f = b.o.formats[i];
        const QString label = RasterConverter::label(f);
        if (auto why = RasterConverter::unsupportedReason(source, f)) {
            b.out.notes << QStringLiteral("%1 skipped: %2").arg(label, *why);
            continue;
        }
        const RasterJobResult r = RasterConverter::convertCached(
            source, rasterDir, f, b.cancel, [&](double fraction, const QString& stage) { b.report(i, steps, fraction, stage); });
        if (r.cancelled || b.cancel.isCancelled()) {
            b.out.cancelled = true;
            return;
        }
        if (!r.ok) {
            b.out.notes << QStringLiteral("%1 skipped: %2").arg(label, r.error);
            continue;
        }
        if (r.reused) b.out.notes << QStringLiteral("%1: reused %2").arg(label, r.path);
        b.addVariant(label, QStringLiteral("DATA %1").arg(r.path), [&](LayerDef& l) { l.data = r.path; });
    }
    if (b.out.error.isEmpty() && b.out.variants.size() < 2)
        b.out.error = QStringLiteral("no raster format could be made: %1").arg(b.out.notes.join(QStringLiteral("; ")));
}

void buildPostgisToFile(Builder& b, const LayerDef& layer)
{
    const QString gpkg = QDir(b.o.workDir).absoluteFilePath(MapVariantWriter::safeName(layer.name) + QStringLiteral(".gpkg"));
    const QString name = VectorCopier::tableNameFor(layer.name).mid(14);
    const VectorCopyResult r = VectorCopier::toGeoPackage(layer.connection, layer.data, gpkg, name, b.cancel,
                                                          [&](double f, const QString& s) { b.report(0, 1, f, s); });
    if (!r.ok) {
        b.out.cancelled = r.cancelled;
        if (!r.cancelled) b.out.error = QStringLiteral("layer '%1': %2").arg(layer.name, r.error);
        return;
    }
    if (!b.addVariant(QStringLiteral("PostGIS"), QStringLiteral("the layer as it is"), [](LayerDef&) {})) return;
    b.addVariant(QStringLiteral("GeoPackage"), QStringLiteral("CONNECTIONTYPE OGR %1").arg(gpkg), [&](LayerDef& l) {
        l.connectionType = ConnectionType::OGR;
        l.connection = gpkg;
        l.data = name;
    });
}

void buildPostgis(Builder& b, const LayerDef& layer)
{
    if (layer.type != LayerType::Point && layer.type != LayerType::Line && layer.type != LayerType::Polygon) {
        b.out.error = QStringLiteral("layer '%1' is not a POINT, LINE or POLYGON layer").arg(layer.name);
        return;
    }
    if (layer.connectionType == ConnectionType::PostGIS) return buildPostgisToFile(b, layer);
    if (b.o.pgConnInfo.isEmpty()) {
        b.out.error = QStringLiteral("the postgis preset needs a database to load the layer into: give a libpq "
                                     "connection string (--pg \"host=... dbname=... user=...\")");
        return;
    }
    const LayerDef& rl = *MapVariantWriter::layer(b.base, b.o.layer);
    const bool ogr = rl.connectionType == ConnectionType::OGR;
    if (!ogr && rl.connectionType != ConnectionType::Local) {
        b.out.error = QStringLiteral("layer '%1' reads neither a file nor PostGIS").arg(layer.name);
        return;
    }
    const QString source = ogr ? rl.connection : rl.data;
    const QString table = b.o.pgTable.isEmpty() ? VectorCopier::tableNameFor(layer.name) : b.o.pgTable;
    int srid = epsgOf(layer.projection);
    if (!srid) srid = epsgOf(b.original.projection);
    const VectorCopyResult r = VectorCopier::toPostgis(source, ogr ? rl.data : QString(), b.o.pgConnInfo, table, srid,
                                                       b.cancel, [&](double f, const QString& s) { b.report(0, 1, f, s); });
    if (!r.ok) {
        b.out.cancelled = r.cancelled;
        if (!r.cancelled) b.out.error = QStringLiteral("layer '%1': %2").arg(layer.name, r.error);
        return;
    }
    const QString fileLabel = source.endsWith(QLatin1String(".gpkg"), Qt::CaseInsensitive) ? QStringLiteral("GeoPackage")
                              : ogr ? QStringLiteral("OGR file") : QStringLiteral("shapefile");
    if (!b.addVariant(fileLabel, QStringLiteral("the layer as it is"), [](LayerDef&) {})) return;
    const QString data = ExperimentPreset::postgisData(r.geometryColumn, r.table, r.srid, r.uniqueColumn);
    b.addVariant(QStringLiteral("PostGIS"), QStringLiteral("CONNECTIONTYPE POSTGIS, DATA \"%1\"").arg(data), [&](LayerDef& l) {
        l.connectionType = ConnectionType::PostGIS;
        l.connection = b.o.pgConnInfo;
        l.data = data;
    });
}

void buildUrl(Builder& b)
{
    QString url = b.o.spec.url;
    if (!url.contains(QLatin1String("{BBOX}"), Qt::CaseInsensitive) && !url.contains(QLatin1String("{MINX}"))) {
        // A base URL: ask it for what the embedded server is asked for.
        BenchGetMapParams p;
        p.layers = b.o.layer;
        url += (url.contains(QLatin1Char('?')) ? (url.endsWith(QLatin1Char('?')) || url.endsWith(QLatin1Char('&')) ? "" : "&") : "?") +
               EmbeddedServer::getMapQuery(b.original, p);
    }
    const QString host = QUrl(url.section(QLatin1Char('?'), 0, 0)).authority();
    b.out.variants << MapVariant{QStringLiteral("MapTune"), QFileInfo(b.original.path).absoluteFilePath(), {},
                                 QStringLiteral("the map served in process")};
    b.out.variants << MapVariant{host.isEmpty() ? QStringLiteral("other WMS") : host, {}, url, QStringLiteral("URL %1").arg(url)};
}

}  // namespace

Result<PresetSpec> PresetSpec::parse(const QString& text)
{
    const QString t = text.trimmed();
    PresetSpec s;
    if (t.compare(QLatin1String("lut"), Qt::CaseInsensitive) == 0) s.kind = PresetKind::Lut;
    else if (t.compare(QLatin1String("formats"), Qt::CaseInsensitive) == 0) s.kind = PresetKind::Formats;
    else if (t.compare(QLatin1String("postgis"), Qt::CaseInsensitive) == 0) s.kind = PresetKind::Postgis;
    else if (t.startsWith(QLatin1String("url="), Qt::CaseInsensitive) && t.size() > 4) {
        s.kind = PresetKind::Url;
        s.url = t.mid(4);
        if (!s.url.startsWith(QLatin1String("http://")) && !s.url.startsWith(QLatin1String("https://")))
            return Error(QStringLiteral("url=%1: expected an http:// URL").arg(s.url));
    } else {
        return Error(QStringLiteral("unknown experiment preset '%1'; expected one of: %2")
                         .arg(t, names().join(QStringLiteral(", "))));
    }
    return s;
}

QStringList PresetSpec::names()
{
    return {QStringLiteral("lut"), QStringLiteral("formats"), QStringLiteral("postgis"), QStringLiteral("url=URL")};
}

QStringList ExperimentPreset::withoutLut(const QStringList& processing)
{
    QStringList out;
    for (const QString& d : processing) {
        const QString key = d.section(QRegularExpression(QStringLiteral("[=:]")), 0, 0).trimmed().toUpper();
        if (key != QLatin1String("LUT") && !key.startsWith(QLatin1String("LUT_"))) out << d;
    }
    return out;
}

bool ExperimentPreset::hasLut(const LayerDef& layer)
{
    return withoutLut(layer.processing).size() != layer.processing.size();
}

QString ExperimentPreset::postgisData(const QString& geometryColumn, const QString& table, int srid,
                                      const QString& uniqueColumn)
{
    QString data = QStringLiteral("%1 from %2").arg(geometryColumn, table);
    if (!uniqueColumn.isEmpty()) data += QStringLiteral(" using unique %1").arg(uniqueColumn);
    if (srid > 0) data += QStringLiteral(" using srid=%1").arg(srid);
    return data;
}

PresetBuild ExperimentPreset::build(const MapDef& map, const PresetOptions& options, const CancelToken& cancel,
                                    const std::function<void(const PresetProgress&)>& progress)
{
    Builder b{map, options, cancel, progress, {}, {}};
    if (map.path.isEmpty()) {
        b.out.error = QStringLiteral("the map has no file path: save it first");
        return b.out;
    }
    if (options.spec.kind == PresetKind::Url) {
        buildUrl(b);
        return b.out;
    }
    const LayerDef* layer = map.layer(options.layer);
    if (!layer) {
        b.out.error = options.layer.isEmpty() ? QStringLiteral("this preset needs a layer (--layer NAME)")
                                              : QStringLiteral("the map has no layer '%1'").arg(options.layer);
        return b.out;
    }
    if (options.workDir.isEmpty() || !QDir().mkpath(options.workDir)) {
        b.out.error = QStringLiteral("cannot create the work directory '%1'").arg(options.workDir);
        return b.out;
    }
    b.base = MapVariantWriter::relocatable(map);
    switch (options.spec.kind) {
    case PresetKind::Lut: buildLut(b, *layer); break;
    case PresetKind::Formats: buildFormats(b, *layer); break;
    case PresetKind::Postgis: buildPostgis(b, *layer); break;
    case PresetKind::Url: break;
    }
    if (!b.out.error.isEmpty() || b.out.cancelled) b.out.variants.clear();
    return b.out;
}

}  // namespace maptune
