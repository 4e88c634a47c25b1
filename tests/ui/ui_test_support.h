#pragma once
// Fixtures shared by the workbench test executables: small inline mapfiles,
// a generated raster, file helpers, finding a menu action.

#include "mapfile/map_def.h"
#include "trace/trace.h"

#include <QByteArray>
#include <QString>

class QAction;
class QMainWindow;

namespace maptune::testing {

// Three inline squares: red (ON), blue (OFF, only below 1:5000), frame (DEFAULT).
extern const char* const kSquares;
// kSquares with WMS metadata and EPSG:3857, ready to serve.
QByteArray servedSquares();
// A 4x4 RGB raster layer "flat" (LUT=0:0,255:128) and a plain one, reading flat.tif.
extern const char* const kRasterMap;
// Two attributed squares under a road along y = 50.
extern const char* const kParcels;

MapDefPtr squaresMap();
// The action of the window's menus whose text (without '&') is `text`; null if none.
QAction* menuAction(QMainWindow& window, const QString& text);
QString writeFile(const QString& path, const QByteArray& bytes);
QByteArray readFile(const QString& path);
LayerTrace layerTrace(const QString& name, double totalMs, bool skipped = false);
// A 4x4 RGB GeoTIFF, every band 100, covering 0 0 4 4 (1 unit pixels).
bool writeFlatRaster(const QString& path);

}  // namespace maptune::testing
