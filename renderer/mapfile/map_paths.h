#pragma once
// Where a mapfile's relative paths point: the one rule every reader uses
// (drawing, queries, extents, the validator, the data-roots check), as
// MapServer's msBuildPath3 does for DATA, CONNECTION and TILEINDEX: an
// absolute path stays; a relative one is SHAPEPATH/path when that exists
// (SHAPEPATH itself relative to the mapfile's folder; a shapefile may be
// named without its .shp), else mapfile-folder/path. Paths that only the
// mapfile's folder anchors (LUT files, init=file:code projections, image
// symbols) use mapRelativePath.

#include "mapfile/map_def.h"

#include <QString>
#include <QStringList>

namespace maptune {

// The folder relative paths of `map` resolve against (the working directory
// for a map without a file, e.g. text parsed in a test).
QString mapDirectory(const MapDef& map);

// The files a relative data path may mean, in lookup order; viaShapePath
// false skips SHAPEPATH (e.g. FONTSET, SYMBOLSET, templates).
QStringList dataPathCandidates(const MapDef& map, const QString& path, bool viaShapePath = true);

// The first candidate that exists, else the last one (mapfile-folder/path),
// cleaned; "" for "".
QString resolveDataPath(const MapDef& map, const QString& path);

// path against the mapfile's folder only.
QString mapRelativePath(const MapDef& map, const QString& path);

}  // namespace maptune
