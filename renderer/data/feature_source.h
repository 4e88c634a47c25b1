#pragma once
// Where vector features come from: a small interface with a pull cursor.
// A query carries what the styles need (bbox in the source's CRS, the
// attributes, scale) so that sources fetch only that.

#include "core/result.h"
#include "data/geometry.h"
#include "geo/crs.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace maptune {

struct Feature {
    qint64 id = -1;
    Geometry geometry;
    QStringList values;  // in the order of FeatureCursor::fields()
    QString text;        // an inline FEATURE's TEXT: its label unless the LABEL has a TEXT
    QString style;       // the OGR feature style string, when the query asks for it
};

struct FeatureQuery {
    Rect bbox;                 // in the source CRS; invalid = everything
    QStringList attributes;    // wanted attribute names; empty = none; "*" = all
    double scaleDenom = 0;
    double cellSize = 0;       // source units per output pixel (sources that sample a raster); 0: unknown
    int maxFeatures = -1;
    bool featureStyle = false; // fill Feature::style (STYLEITEM "AUTO")
    // Feature::id as the source's key: false when ids only have to be distinct
    // (a drawn map), which spares a database the key column.
    bool sourceIds = true;
    CancelToken cancel;
    // The map being drawn, for sources that sample on its pixel grid
    // (UVRASTER): its outer edges in `crs` and its size in pixels.
    struct View {
        Rect extent;
        int width = 0, height = 0;
        Crs crs;
        // Drawing with non-square pixels: MapServer's "faked" extent, whose
        // map extent is the image's edges rather than its corner pixels' centres.
        bool edgesAreExtent = false;
    };
    std::optional<View> view;
    // Work for the reading thread while the source waits for its server
    // (drawing the features already read), called in small steps: true when
    // it did some, false when it has nothing to do. Sources that never wait
    // ignore it.
    std::function<bool()> whileWaiting;
};

class FeatureCursor {
public:
    virtual ~FeatureCursor() = default;
    // Attribute names matching Feature::values, fixed for the cursor's life.
    virtual const QStringList& fields() const = 0;
    // Fills `f` (reusing its buffers); false at the end or on error (see error()).
    virtual bool next(Feature& f) = 0;
    virtual QString error() const { return {}; }
    // Whether a server process on this machine works for this cursor until
    // its last row is read (a local PostgreSQL producing and sending whole
    // rows): a helper thread drawing meanwhile would take that core.
    virtual bool keepsLocalServerBusy() const { return false; }
};

// One instance per thread and layer use; not shared between threads.
class FeatureSource {
public:
    virtual ~FeatureSource() = default;
    virtual QStringList fields() const = 0;
    // The CRS of the data, when the data knows it (for PROJECTION AUTO).
    virtual std::optional<Crs> nativeCrs() const { return std::nullopt; }
    virtual std::optional<Rect> extent() const { return std::nullopt; }
    // Never a null cursor on success.
    virtual Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) = 0;
    // Database calls made by the last query (PostGIS); empty for files.
    virtual QList<DbTrace> takeDbTraces() { return {}; }
    // Whether reading waits for a server's rows (a database), during which
    // FeatureQuery::whileWaiting gets the thread.
    virtual bool readsFromServer() const { return false; }
};

}  // namespace maptune
