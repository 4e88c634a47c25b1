#pragma once
// Shared pieces of the WMS capabilities document (internal to the wms module):
// the writer state and the layer tree writer (MapServer's msDumpLayer and
// msWMSPrintNestedGroups).

#include "wms/wms_context.h"

#include <QSet>
#include <QXmlStreamWriter>

namespace maptune {

struct CapabilitiesWriter {
    const WmsContext& ctx;
    QXmlStreamWriter& xml;
    int version;
    QString url;                  // onlineresource ending in '?' or '&'
    QSet<int> enabled;            // layers GetCapabilities may list

    bool v130() const { return version >= Wms130; }
    void text(const QString& name, const QString& value) { xml.writeTextElement(name, value); }
    // <KeywordList> from the comma-separated metadata `key` (wms_/ows_).
    void keywordList(const KeyValues& metadata, const QString& key);
    // LatLonBoundingBox / EX_GeographicBoundingBox and BoundingBox of `extent` in `projection`.
    void boundingBoxes(const Rect& extent, const ProjectionDef& projection, const KeyValues* layerMetadata);
    void scaleRange(double minScale, double maxScale);
    void layerTree();
};

}  // namespace maptune
