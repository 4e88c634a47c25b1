#pragma once
// mapserv's CGI parameters (msCGILoadForm) read into one value: the mode,
// where the map extent and the query location come from, the layers asked
// for, and the query's layer, item and string. Names are case-insensitive;
// parameters with an empty value are ignored, later ones override earlier.

#include "core/result.h"
#include "data/geometry.h"
#include "mapfile/map_def.h"
#include "wms/wms_request.h"

#include <QPointF>
#include <QStringList>

#include <optional>

namespace maptune {

enum class CgiMode {
    Browse, Map, Legend, LegendIcon, Reference, Scalebar, Coordinate,
    Query, NQuery, ItemQuery, ItemNQuery, FeatureQuery, FeatureNQuery, ItemFeatureQuery, ItemFeatureNQuery,
    IndexQuery, Tile, Ows, MapLegend, MapLegendIcon, ZoomIn, ZoomOut,
};

// Where a location came from (mapserv's CoordSource / QueryCoordSource).
enum class CgiSource { None, ImgPoint, ImgBox, ImgShape, RefPoint, UserPoint, UserBox, UserShape, Buffer, Scale, Tile };

struct CgiParams {
    CgiMode mode = CgiMode::Browse;
    QString modeName;                    // as typed
    CgiSource coordSource = CgiSource::None;
    CgiSource queryCoordSource = CgiSource::None;
    std::optional<Rect> mapExt;          // MAPEXT (minx..maxy): the map extent
    Rect imgExt;                         // IMGEXT
    Rect imgBox;                         // IMGBOX, in pixels
    QPointF imgPoint{-1, -1};            // IMGXY
    QPointF mapPoint{-1, -1};            // MAPXY
    Geometry shape;                      // MAPSHAPE / IMGSHAPE: one polygon ring or a WKT geometry
    int imgWidth = -1, imgHeight = -1;   // IMGSIZE
    int mapWidth = -1, mapHeight = -1;   // MAPSIZE
    QStringList layers;                  // LAYERS / LAYER entries ("all" expanded)
    QString queryLayer, selectLayer, queryItem;  // QLAYER, SLAYER, QITEM
    std::optional<QString> queryString;  // QSTRING
    std::optional<QString> queryFormat;  // QFORMAT
    int shapeIndex = -1, tileIndex = -1; // SHAPEINDEX, TILEINDEX
    double buffer = 0;                   // BUFFER, map units
    double scaleDenom = 0;               // SCALEDENOM / SCALE
    bool searchMap = false;              // SEARCHMAP
    std::optional<QString> imageType;    // MAP.IMAGETYPE / MAP_IMAGETYPE
    QString tileMode = QStringLiteral("gmap");
    QString tile;                        // TILE "x y z" or a quadkey
    int tileWidth = 256, tileHeight = 256;  // TILESIZE
};

// The parameters of `request` for `map`. Errors are mapserv's error lines
// ("msCGILoadForm(): Web application error. Not enough arguments for mapext.").
Result<CgiParams> parseCgiParams(const WmsRequest& request, const MapDef& map);

// Whether `request` names one of mapserv's modes (MODE other than OWS/WFS):
// msCGIDispatchRequest tries the OGC services only without one.
bool isCgiModeRequest(const WmsRequest& request);

}  // namespace maptune
