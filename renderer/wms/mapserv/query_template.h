#pragma once
// MapServer's template language for query results and pages (maptemplate.c):
// the page tags ([mapext], [mapsize], [layers], [web_*], ...), result sets
// ([resultset layer=...][feature]...[/feature][/resultset]), the tags of one
// feature ([item ...], [shpext], [shpxy], [ATTRIBUTE], ...), [include] and
// the request's own parameters ([qstring], [map], ...). Values are
// HTML-escaped unless a tag says otherwise.

#include "core/result.h"
#include "mapfile/map_def.h"
#include "wms/mapserv/cgi_params.h"
#include "wms/mapserv/cgi_query.h"
#include "wms/wms_request.h"

namespace maptune {

struct TemplateContext {
    const MapDef& map;
    const CgiQueryResults& results;
    const WmsRequest& request;
    // The legacy page (header, a template per feature, footer) counts results;
    // [resultset] templates leave [nr], [nl] and [nlr] at 0 as MapServer does.
    bool countResults = false;
};

// The feature a QUERY-mode text is about.
struct TemplateFeature {
    const QueryLayerResult& layer;
    int index = 0;       // in layer.selected.features
    int resultNumber = 0;        // [rn]
    int layerResultNumber = 1;   // [lrn]
};

// A template file named by the mapfile (relative to it): its name must end
// in a template extension and its first line carry "MapServer Template";
// that line is dropped. Errors are mapserv's error lines.
Result<QString> loadTemplateFile(const MapDef& map, const QString& file);

// A page (msReturnPage in BROWSE mode): result sets expanded.
Result<QString> processPageTemplate(const QString& text, const TemplateContext& ctx);

// One feature's text (QUERY mode).
Result<QString> processFeatureTemplate(const QString& text, const TemplateContext& ctx, const TemplateFeature& feature);

}  // namespace maptune
