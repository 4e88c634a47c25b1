#pragma once
// mapserv's query modes (msCGIDispatchQueryRequest and msExecuteQuery): which
// layers take part, where the query is (a point, a box, a shape, the map
// extent, an attribute test, a feature index, or the features selected in
// another layer) and the features each layer answers.

#include "core/result.h"
#include "render/feature_selection.h"
#include "render/prepared_map.h"
#include "wms/mapserv/cgi_params.h"

#include <QList>
#include <QSet>

namespace maptune {

struct QueryLayerResult {
    int layer = -1;                 // index in MapDef::layers
    SelectedFeatures selected;
};

struct CgiQueryResults {
    QList<QueryLayerResult> layers; // the layers with results, in the map's layer order
    Rect extent;                    // the map extent the request ran in (what [mapext] prints)
    int width = -1, height = -1;    // the map size the request ran at
    QPointF point{-1, -1};          // the query point, when there was one ([mapx] [mapy])
    QSet<int> layersOn;             // layers switched on for this request
    QString units;                  // the map units of the request's CRS; empty: the map's
    // What mapserv's map holds once it has drawn the query map: [cellsize], [scale].
    double cellSize = 0;
    double scaleDenom = -1;

    const QueryLayerResult* layer(int index) const;
    int featureCount() const;
};

// The layers a mapserv request switches on: STATUS DEFAULT, those named (or
// whose GROUP is named) in LAYERS/LAYER, exactly as written.
QSet<int> cgiLayersOn(const MapDef& map, const CgiParams& params);

// Runs a query mode. Errors are mapserv's error lines, newest first, joined
// by '\n' ("msQueryByRect(): Search returned no results. No matching record(s) found.").
Result<CgiQueryResults> runCgiQuery(const PreparedMap& map, const CgiParams& params, const CancelToken& cancel);

}  // namespace maptune
