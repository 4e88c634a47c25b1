#include "loadtest/map_variant.h"

#include "render/feature_source_factory.h"
#include "io/atomic_write.h"
#include "mapfile/data_roots.h"
#include "mapfile/map_paths.h"
#include "mapfile/map_writer.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace maptune {

namespace {

bool existsAsData(const QString& path)
{
    return QFileInfo::exists(path) || QFileInfo::exists(path + QLatin1String(".shp"));
}

// A relative file name made absolute against dir; anything else (empty,
// absolute, /vsi..., PG:, a URL) is returned as it is.
QString absoluteIn(const QString& dir, const QString& path)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path) || path.contains(QLatin1Char(':'))) return path;
    return QDir::cleanPath(QDir(dir).absoluteFilePath(path));
}

// DATA, TILEINDEX and OGR CONNECTION as the renderer and feature sources resolve them.
void relocateLayerData(const MapDef& map, LayerDef& l)
{
    auto resolve = [&](const QString& p) {
        if (p.isEmpty() || QDir::isAbsolutePath(p)) return p;
        const QString r = resolveDataPath(map, p);
        return existsAsData(r) ? r : p;
    };
    if (l.connectionType == ConnectionType::OGR) l.connection = resolve(l.connection);
    else if (l.connectionType == ConnectionType::Local || l.connectionType == ConnectionType::Raster
             || l.connectionType == ConnectionType::Contour || l.connectionType == ConnectionType::UVRaster
             || l.connectionType == ConnectionType::FlatGeobuf)
        l.data = resolve(l.data);
    if (!l.tileIndex.isEmpty()) {
        const QString r = resolveDataPath(map, l.tileIndex);
        if (existsAsData(r)) l.tileIndex = r;
    }
}

// LUT / LUT_n naming a file (not an inline "0:0,255:255" spec): relative to the map directory.
void relocateLutFiles(const QString& mapDir, LayerDef& l)
{
    static const QString inlineChars = QStringLiteral("0123456789:, ");
    for (QString& d : l.processing) {
        const qsizetype eq = d.indexOf(QLatin1Char('='));
        if (eq < 0) continue;
        const QString key = d.left(eq).trimmed().toUpper();
        if (key != QLatin1String("LUT") && !key.startsWith(QLatin1String("LUT_"))) continue;
        const QString value = d.mid(eq + 1);
        const bool isInline = std::all_of(value.begin(), value.end(), [](QChar c) { return inlineChars.contains(c); });
        if (!isInline) d = d.left(eq + 1) + absoluteIn(mapDir, value);
    }
}

}  // namespace

MapDef MapVariantWriter::relocatable(const MapDef& map)
{
    MapDef m = map;
    const QString dir = map.baseDir();
    // Anything not made absolute below keeps resolving through SHAPEPATH first.
    m.shapePath = map.shapePath.isEmpty() ? dir : absoluteIn(dir, map.shapePath);
    m.fontSet = absoluteIn(dir, map.fontSet);
    // The renderer resolves symbol images against the map's directory: the
    // variant carries every symbol inline with an absolute image path.
    m.symbolSet.clear();
    for (SymbolDef& s : m.symbols) {
        s.fromSymbolSet = false;
        s.image = absoluteIn(dir, s.image);
    }
    for (LayerDef& l : m.layers) {
        relocateLayerData(map, l);
        relocateLutFiles(dir, l);
        l.templ = absoluteIn(dir, l.templ);
        for (ClassDef& c : l.classes) {
            c.keyImage = absoluteIn(dir, c.keyImage);
            c.templ = absoluteIn(dir, c.templ);
        }
    }
    m.web.templ = absoluteIn(dir, m.web.templ);
    m.web.header = absoluteIn(dir, m.web.header);
    m.web.footer = absoluteIn(dir, m.web.footer);
    m.includedFiles.clear();
    // Served from the work directory, the variant may read what the original may.
    const DataRoots roots = DataRoots::forMap(map);
    m.config.set(QStringLiteral("MAPTUNE_ALLOWED_ROOTS"), (roots.directories() + roots.prefixes()).join(QLatin1Char(';')));
    return m;
}

QString MapVariantWriter::safeName(const QString& text)
{
    QString out;
    for (QChar c : text.trimmed().toLower()) {
        if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || c.isDigit() || c == QLatin1Char('_')) out += c;
        else if (!out.endsWith(QLatin1Char('-'))) out += QLatin1Char('-');
    }
    while (out.endsWith(QLatin1Char('-'))) out.chop(1);
    while (out.startsWith(QLatin1Char('-'))) out.remove(0, 1);
    return out.isEmpty() ? QStringLiteral("variant") : out;
}

VariantWrite MapVariantWriter::write(const MapDef& map, const QString& dir, const QString& name)
{
    VariantWrite out;
    if (!QDir().mkpath(dir)) {
        out.error = QStringLiteral("cannot create the directory '%1'").arg(dir);
        return out;
    }
    const QString path = QDir(dir).absoluteFilePath(safeName(name) + QStringLiteral(".map"));
    if (!writeFileAtomically(path, writeMapFile(map).toUtf8()).ok(&out.error)) return out;
    out.path = path;
    return out;
}

LayerDef* MapVariantWriter::layer(MapDef& map, const QString& name)
{
    for (LayerDef& l : map.layers)
        if (l.name.compare(name, Qt::CaseInsensitive) == 0) return &l;
    return nullptr;
}

}  // namespace maptune
