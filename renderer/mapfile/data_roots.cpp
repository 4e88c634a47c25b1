#include "mapfile/data_roots.h"

#include "mapfile/inline_vrt.h"

#include "mapfile/map_paths.h"

#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace maptune {

namespace {

const QString kRootsKey = QStringLiteral("MAPTUNE_ALLOWED_ROOTS");

// Sources GDAL/OGR open that are no plain file path: virtual file systems,
// URLs, inline XML (<GDAL_WMS>, <VRTDataset>) and DRIVER:"file":x forms.
bool isNonFile(const QString& source)
{
    static const QRegularExpression driverPrefix(QStringLiteral("^[A-Za-z][A-Za-z0-9_]+:"));
    const QString s = source.trimmed();
    return s.startsWith(QLatin1String("/vsi")) || s.contains(QLatin1String("://")) || s.startsWith(QLatin1Char('<')) ||
           driverPrefix.match(s).hasMatch();
}

bool isInside(const QString& path, const QString& dir)
{
    if (dir == QLatin1String("/")) return path.startsWith(QLatin1Char('/'));
    return path == dir || path.startsWith(dir + QLatin1Char('/'));
}

QString absoluteIn(const QString& baseDir, const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).isAbsolute() ? path : QDir(baseDir).absoluteFilePath(path));
}

class RootChecker {
public:
    RootChecker(const MapDef& map, Diagnostics& out) : m_map(map), m_roots(DataRoots::forMap(map)), m_out(out) {}

    // what: "DATA of LAYER 'roads'" -- named in the message with the value.
    void check(const QString& source, bool viaShapePath, const SourcePos& pos, const QString& what)
    {
        if (source.trimmed().isEmpty()) return;
        if (isNonFile(source)) {
            if (!m_roots.allows(source.trimmed()))
                refuse(pos, QStringLiteral("%1 is '%2', a GDAL virtual file, URL or driver-prefixed source, which this map may "
                                           "not read; name a local file, or add a prefix of it to MAP CONFIG \"%3\"")
                                .arg(what, source, kRootsKey));
            return;
        }
        for (const QString& candidate : dataPathCandidates(m_map, source, viaShapePath)) {
            if (m_roots.allows(candidate)) continue;
            refuse(pos, QStringLiteral("%1 is '%2', which resolves to '%3', outside the directories this map may read (%4); "
                                       "move the file there or add its directory to MAP CONFIG \"%5\"")
                            .arg(what, source, DataRoots::realPath(candidate), m_roots.describe(), kRootsKey));
            return;
        }
    }

private:
    void refuse(const SourcePos& pos, const QString& message)
    {
        m_out.append({Diagnostic::Severity::Error, pos, message});
    }

    const MapDef& m_map;
    DataRoots m_roots;
    Diagnostics& m_out;
};

void checkLayer(const MapDef& map, const LayerDef& layer, RootChecker& roots)
{
    const QString name = QStringLiteral("LAYER '%1'").arg(layer.name);
    const bool fileSource = layer.connectionType == ConnectionType::Local || layer.connectionType == ConnectionType::Raster
                            || layer.connectionType == ConnectionType::Contour || layer.connectionType == ConnectionType::UVRaster
                            || layer.connectionType == ConnectionType::FlatGeobuf;
    // At the value that names the file, where the user has to change it.
    const auto at = [&](const SourcePos& value) { return value.line > 0 ? value : layer.pos; };
    if (fileSource) {
        roots.check(layer.data, true, at(layer.dataPos), QStringLiteral("DATA of ") + name);
        // A SCALETOKEN may put another file name into DATA at draw time.
        for (const ScaleTokenDef& token : layer.scaleTokens)
            for (const auto& [scale, value] : token.values)
                if (layer.data.contains(token.name))
                    roots.check(QString(layer.data).replace(token.name, value), true, at(layer.dataPos),
                                QStringLiteral("DATA of %1 at SCALETOKEN %2 %3").arg(name, token.name, scale));
    }
    if (layer.connectionType == ConnectionType::OGR && isInlineVrt(layer.connection)) {
        // An inline VRT reads its SrcDataSources (relative ones from the mapfile's folder).
        for (const QString& source : inlineVrtSources(layer.connection))
            roots.check(source, false, at(layer.connectionPos), QStringLiteral("a SrcDataSource of the inline VRT of ") + name);
    } else if (layer.connectionType == ConnectionType::OGR) {
        roots.check(layer.connection.isEmpty() ? layer.data : layer.connection, true,
                    layer.connection.isEmpty() ? at(layer.dataPos) : at(layer.connectionPos),
                    QStringLiteral("the OGR data source of ") + name);
    }
    if (!layer.tileIndex.isEmpty() && !map.layer(layer.tileIndex))
        roots.check(layer.tileIndex, true, layer.pos, QStringLiteral("TILEINDEX of ") + name);
    const ProcessingOptions processing(layer.processing);
    static const QRegularExpression inlineLut(QStringLiteral("^[0-9:, ]*$"));
    for (const QString& key : {QStringLiteral("LUT"), QStringLiteral("LUT_1"), QStringLiteral("LUT_2"), QStringLiteral("LUT_3"),
                               QStringLiteral("LUT_4")}) {
        const std::optional<QString> lut = processing.value(key);
        if (lut && !inlineLut.match(*lut).hasMatch())
            roots.check(*lut, false, layer.pos, QStringLiteral("PROCESSING %1 of %2").arg(key, name));
    }
    for (const ClassDef& c : layer.classes) {
        roots.check(c.keyImage, false, c.pos, QStringLiteral("KEYIMAGE of a CLASS of ") + name);
        // SYMBOL "file.png" without a SYMBOL of that name draws the image file.
        for (const StyleDef& s : c.styles)
            if (!s.symbolName.isEmpty() && !map.symbol(s.symbolName))
                roots.check(s.symbolName, false, s.pos, QStringLiteral("the SYMBOL image of a STYLE of ") + name);
    }
}

}  // namespace

DataRoots DataRoots::forMap(const MapDef& map)
{
    DataRoots roots;
    const QString mapDir = map.baseDir();
    roots.addEntry(mapDir, mapDir);
    if (!map.shapePath.isEmpty()) roots.addEntry(map.shapePath, mapDir);
    const QString configured = map.config.value(kRootsKey, QString()) + QLatin1Char(';') + qEnvironmentVariable("MAPTUNE_ALLOWED_ROOTS");
    for (const QString& entry : configured.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!entry.trimmed().isEmpty()) roots.addEntry(entry.trimmed(), mapDir);
    return roots;
}

void DataRoots::addEntry(const QString& entry, const QString& baseDir)
{
    if (isNonFile(entry)) {
        if (!m_prefixes.contains(entry)) m_prefixes << entry;
        return;
    }
    const QString dir = realPath(absoluteIn(baseDir, entry));
    if (!m_directories.contains(dir)) m_directories << dir;
}

QString DataRoots::realPath(const QString& absolutePath)
{
    // Resolve the longest part that exists (symlinks included); the rest cannot
    // be a symlink yet, and ".." in it was removed by cleanPath.
    QString head = QDir::cleanPath(absolutePath);
    QStringList tail;
    while (!head.isEmpty() && head != QLatin1String("/") && !QFileInfo::exists(head)) {
        tail.prepend(QFileInfo(head).fileName());
        head = QFileInfo(head).path();
    }
    QString real = QFileInfo(head).canonicalFilePath();
    if (real.isEmpty()) real = head;
    for (const QString& part : std::as_const(tail)) real = QDir::cleanPath(real + QLatin1Char('/') + part);
    return real;
}

bool DataRoots::allows(const QString& source) const
{
    if (isNonFile(source)) {
        for (const QString& prefix : m_prefixes)
            if (source.startsWith(prefix)) return true;
        return false;
    }
    if (!QFileInfo(source).isAbsolute()) return false;
    const QString real = realPath(source);
    for (const QString& dir : m_directories)
        if (isInside(real, dir)) return true;
    return false;
}

QString DataRoots::describe() const
{
    return (m_directories + m_prefixes).join(QStringLiteral(", "));
}

Diagnostics checkDataRoots(const MapDef& map)
{
    Diagnostics out;
    RootChecker roots(map, out);
    if (!map.fontSet.isEmpty()) roots.check(map.fontSet, false, map.pos, QStringLiteral("FONTSET"));
    for (const SymbolDef& s : map.symbols)
        roots.check(s.image, false, s.pos, QStringLiteral("IMAGE of SYMBOL '%1'").arg(s.name));
    for (const LayerDef& layer : map.layers) checkLayer(map, layer, roots);
    return out;
}

}  // namespace maptune
