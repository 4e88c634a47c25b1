#pragma once
// Where a served map may read files from. A request never names a file (maps
// are looked up by name), so what a server reads is bounded by its mapfiles;
// DataRoots bounds the mapfiles in turn: every file a map reads (DATA,
// TILEINDEX, an OGR CONNECTION, SCALETOKEN values of DATA, PROCESSING LUT,
// symbol IMAGE, KEYIMAGE, FONTSET) must lie, after "..", and symlinks are
// resolved, inside
//   * the mapfile's directory tree,
//   * the SHAPEPATH directory tree,
//   * the roots named by MAP CONFIG "MAPTUNE_ALLOWED_ROOTS" and by the
//     MAPTUNE_ALLOWED_ROOTS environment variable (';'-separated; relative
//     entries resolve against the mapfile's directory).
// GDAL virtual file systems (/vsicurl/, /vsizip/, ...), URLs, inline XML and
// driver-prefixed sources (NETCDF:"f.nc":v) are refused unless a root entry is
// a literal prefix of them ("/vsicurl/https://tiles.example.org/").

#include "mapfile/diagnostic.h"
#include "mapfile/map_def.h"

#include <QString>
#include <QStringList>

namespace maptune {

class DataRoots {
public:
    static DataRoots forMap(const MapDef& map);

    // source: a path as the engine opens it (absolute), or a non-file source.
    bool allows(const QString& source) const;
    // The resolved form of a path the check compares (symlinks and ".." gone).
    static QString realPath(const QString& absolutePath);
    // "/a/maps, /a/data" for messages.
    QString describe() const;

    const QStringList& directories() const { return m_directories; }
    const QStringList& prefixes() const { return m_prefixes; }

private:
    void addEntry(const QString& entry, const QString& baseDir);

    QStringList m_directories;  // real paths
    QStringList m_prefixes;     // literal prefixes of non-file sources
};

// One error per file the map would read outside its roots, at the position of
// the LAYER, SYMBOL, CLASS or MAP that names it. Touches the file system only
// to resolve symlinks.
Diagnostics checkDataRoots(const MapDef& map);

}  // namespace maptune
