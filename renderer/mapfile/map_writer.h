#pragma once
// The canonical mapfile text of a model: upper-case keywords, two-space indent,
// "double-quoted" strings, blocks and properties in a fixed order, and only the
// properties that differ from MapServer's defaults. Deterministic and
// idempotent: parse(write(m)) == m (positions aside), and write∘parse∘write ==
// write. INCLUDEs come out expanded; SYMBOLSET symbols are referenced, not inlined.

#include "mapfile/map_def.h"

#include <QString>

namespace maptune {

QString writeMapFile(const MapDef& map);

}  // namespace maptune
