#pragma once
// Reading mapfiles into the typed model. Problems are collected, never thrown:
// a map with errors still comes back (as far as it could be read) so that an
// editor can show everything at once.

#include "mapfile/diagnostic.h"
#include "mapfile/map_def.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace maptune {

struct LoadResult {
    std::shared_ptr<MapDef> map;  // null when the file could not be parsed at all
    Diagnostics diagnostics;      // errors and warnings, in file order
    bool ok() const { return map != nullptr && !hasErrors(diagnostics); }
};

// Reads the file; INCLUDE, SYMBOLSET and FONTSET resolve relative to its directory.
LoadResult loadMapFile(const QString& path);

// virtualPath names the text in diagnostics, becomes MapDef::path (made absolute)
// and is the base for relative INCLUDE/SYMBOLSET/FONTSET paths; may be empty.
LoadResult parseMapText(const QByteArray& text, const QString& virtualPath);

class TokenRoles;
// The same, also recording what the parser read each token of the text as.
LoadResult parseMapText(const QByteArray& text, const QString& virtualPath, TokenRoles* roles);

}  // namespace maptune
