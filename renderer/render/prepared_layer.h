#pragma once
// One layer of a PreparedMap behind the interface every consumer uses -- the
// renderer, GetFeatureInfo, the workbench's Identify and zoom-to-layer (the
// QgsMapLayerRenderer idea): draw it, query it at a point, tell its extent.
// Built once per loaded map and immutable afterwards, so any number of
// threads call it at once; per-request state lives in the arguments.

#include "core/result.h"
#include "data/feature_source.h"
#include "geo/crs.h"
#include "geo/map_view.h"
#include "mapfile/map_def.h"
#include "render/feature_selection.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QColor>
#include <QImage>
#include <QSet>
#include <QStringList>

#include <optional>

namespace maptune {

class LabelCache;

struct LayerDrawRequest {
    const MapView& view;
    QImage& canvas;        // ARGB32_Premultiplied, view.width x view.height
    LayerTrace& trace;     // filled: times, features, db calls, error
    const CancelToken& cancel;
    LabelCache& labels;    // labels are queued here and placed after all layers
    // A query map: only these features, and (HILITE) in this colour.
    const QSet<qint64>* onlyFeatures = nullptr;
    std::optional<QColor> highlight;
    // LABELREQUIRES and the label scale range: false draws the features without labels.
    bool annotate = true;
};

// msQueryByPoint as GetFeatureInfo and Identify ask it.
struct PointQuery {
    double x = 0, y = 0;                    // in `crs`
    Crs crs;                                // the view's CRS; invalid: the map's
    double cellSize = 0;                    // map units per pixel of the view (PIXELS tolerance)
    double scaleDenom = 0;                  // of the view: picks the SCALETOKEN variant
    int maxFeatures = 1;                    // per layer; <= 0: all
    std::optional<double> tolerancePixels;  // mapserv's RADIUS: overrides TOLERANCE
    // The view clicked, for sources that lay their features on its grid
    // (UVRASTER); unset: they fall back to their own grid.
    std::optional<FeatureQuery::View> view;
    CancelToken cancel;
};

struct PointQueryResult {
    QStringList fields;
    QList<Feature> features;   // in the query CRS, ascending feature id
    QString error;             // names the layer; empty when the query ran
};

class PreparedLayer {
public:
    explicit PreparedLayer(const LayerDef& def, int index) : m_def(def), m_index(index) {}
    virtual ~PreparedLayer() = default;
    PreparedLayer(const PreparedLayer&) = delete;
    PreparedLayer& operator=(const PreparedLayer&) = delete;

    const LayerDef& def() const { return m_def; }
    int index() const { return m_index; }  // in MapDef::layers
    // Found while preparing (unknown PROCESSING keys, ...), each naming the layer.
    const QStringList& warnings() const { return m_warnings; }

    // False with request.trace.error set when the layer cannot be drawn.
    virtual bool render(const LayerDrawRequest& request) const = 0;
    // Layer types that cannot be queried answer an empty result.
    virtual PointQueryResult queryPoint(const PointQuery& query) const = 0;
    // mapserv's query modes; layers that cannot be queried this way answer
    // nothing searched.
    virtual SelectedFeatures select(const FeatureSelection& selection) const
    {
        (void)selection;
        return {};
    }
    // Where the layer's data lies, in the map's CRS, padded a little so that a
    // point or a straight line gets room. May open data: not on a UI thread.
    // Empty when the extent is simply unknown (no EXTENT, no features); an
    // error when the data cannot be read or the extent does not reproject.
    virtual Result<std::optional<Rect>> extent() const = 0;

private:
    friend class PreparedMap;
    const LayerDef& m_def;
    int m_index;
    QStringList m_warnings;
};

}  // namespace maptune
