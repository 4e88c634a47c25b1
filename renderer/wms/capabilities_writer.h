#pragma once
// Shared pieces of the WMS capabilities document (internal to the wms module):
// the writer state and the layer tree writer (MapServer's msDumpLayer and
// msWMSPrintNestedGroups).

#include "wms/wms_context.h"
#include "wms/wms_language.h"

#include <QSet>
#include <QXmlStreamWriter>

namespace maptune {

struct CapabilitiesWriter {
    const WmsContext& ctx;
    QXmlStreamWriter& xml;
    int version;
    QString url;                  // onlineresource ending in '?' or '&'
    QSet<int> enabled;            // layers GetCapabilities may list
    std::optional<QString> language;  // the response language (wms_languages), with url ending in "language=..&"
    bool inspire = false;         // *_inspire_capabilities is set

    bool v130() const { return version >= Wms130; }
    // Metadata in the response language, else the plain key (wms_, then ows_).
    std::optional<QString> meta(const KeyValues& md, const QString& key) const { return wmsMetadata(md, key, language); }
    void text(const QString& name, const QString& value) { xml.writeTextElement(name, value); }
    // <KeywordList> from the comma-separated metadata `key` (wms_/ows_).
    void keywordList(const KeyValues& metadata, const QString& key);
    // LatLonBoundingBox / EX_GeographicBoundingBox and BoundingBox of `extent` in `projection`.
    void boundingBoxes(const Rect& extent, const ProjectionDef& projection, const KeyValues* layerMetadata);
    void scaleRange(double minScale, double maxScale);
    // AuthorityURL and Identifier of a layer (or the root) from wms_authorityurl_* / wms_identifier_*.
    void authorityAndIdentifier(const KeyValues& metadata);
    // Attribution from wms_attribution_title / _onlineresource and the
    // LogoURL from _logourl_width, _height, _format and _href (all four).
    void attribution(const KeyValues& metadata);
    void layerTree();
};

}  // namespace maptune
