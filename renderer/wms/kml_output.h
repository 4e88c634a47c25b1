#pragma once
// GetMap as KML / KMZ (MapServer's KML renderer): a Document with one Folder
// per drawn layer and one Placemark per feature the layer would draw (FILTER
// and class as for an image), geometry in WGS 84 longitude/latitude, styled
// from the class's first style. Labels are written as the placemark's name;
// the label cache's collisions are not applied (every feature is listed).

#include "core/result.h"
#include "render/prepared_map.h"
#include "trace/cancel_token.h"

#include <QByteArray>

namespace maptune {

// Whether `format` (a FORMAT / IMAGETYPE value) asks for KML; `kmz` says
// whether zipped. "kml", "kmz", their MIME types, or an OUTPUTFORMAT whose
// DRIVER is KML or KMZ.
bool isKmlFormat(const MapDef& map, const QString& format, bool* kmz = nullptr);

struct KmlRequest {
    Rect bbox;          // edges, in `crs`
    Crs crs;
    QList<int> layers;  // drawing order
    double scaleDenom = 0;
    CancelToken cancel;
};

// The document (KMZ: a zip holding doc.kml).
Result<QByteArray> writeKml(const PreparedMap& map, const KmlRequest& request, bool kmz);

}  // namespace maptune
