#include "mapfile/map_paths.h"

#include <QDir>
#include <QFileInfo>

namespace maptune {

namespace {

QString absoluteIn(const QString& dir, const QString& path)
{
    return QDir::cleanPath(QDir::isAbsolutePath(path) ? path : QDir(dir).absoluteFilePath(path));
}

}  // namespace

QString mapDirectory(const MapDef& map)
{
    return map.baseDir();
}

QStringList dataPathCandidates(const MapDef& map, const QString& path, bool viaShapePath)
{
    if (QDir::isAbsolutePath(path)) return {QDir::cleanPath(path)};
    const QString dir = mapDirectory(map);
    QStringList out;
    if (viaShapePath && !map.shapePath.isEmpty()) out << absoluteIn(absoluteIn(dir, map.shapePath), path);
    out << absoluteIn(dir, path);
    return out;
}

QString resolveDataPath(const MapDef& map, const QString& path)
{
    if (path.isEmpty()) return path;
    const QStringList candidates = dataPathCandidates(map, path);
    for (const QString& c : candidates)
        if (QFileInfo::exists(c) || QFileInfo::exists(c + QLatin1String(".shp"))) return c;
    return candidates.last();
}

QString mapRelativePath(const MapDef& map, const QString& path)
{
    if (path.isEmpty()) return path;
    return absoluteIn(mapDirectory(map), path);
}

}  // namespace maptune
