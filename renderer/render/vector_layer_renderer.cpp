#include "render/vector_layer_renderer.h"

#include "encode/vector_surface.h"
#include "render/ogr_auto_style.h"

#include "render/feature_source_factory.h"
#include "data/spatial_filter.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"
#include "text/text_path.h"
#include "expr/feature_classifier.h"
#include "render/draw_item.h"
#include "render/graticule_source.h"
#include "render/feature_labels.h"
#include "render/label_cache.h"
#include "render/layer_variants.h"
#include "render/line_band_painter.h"
#include "render/line_pen_cache.h"
#include "render/line_offset.h"
#include "render/render_load.h"
#include "render/stroke_painter.h"
#include "render/style_resolver.h"
#include "render/hatch_fill.h"
#include "render/symbol_fill.h"
#include "render/symbol_painter.h"

#include <QHash>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <optional>

namespace maptune {

namespace {

// Whether anything after classification reads a feature's attribute values:
// a LABEL, a STYLE bound to an attribute, a STYLE GEOMTRANSFORM expression.
bool drawingReadsValues(const LayerDef& layer, const LayerVariant& variant)
{
    for (const ClassDef& c : layer.classes) {
        if (!c.labels.isEmpty()) return true;
        for (const StyleDef& s : c.styles)
            if (s.bindsAttributes()) return true;
    }
    for (const auto& styles : variant.styleTransforms)
        for (const StyleGeomTransform& t : styles)
            if (t.expression) return true;
    return false;
}

// Map to pixel coordinates. Unrotated, MapServer maps coordinates onto pixel
// centres (the centre-to-centre extent), so x = 0 is the first pixel's
// centre. With map ANGLE it draws through the inverse of the rotated
// geotransform, which turns about the view centre (msMapSetFakedExtent).
class PixelMapper {
public:
    // `imageCoordinates`: TRANSFORM FALSE, the data's coordinates are pixels
    // from the image's upper left corner.
    explicit PixelMapper(const MapView& v, bool imageCoordinates = false)
        : m_csx(v.cellSizeX()), m_csy(v.cellSizeY()), m_w(v.width), m_h(v.height),
          m_cx((v.extent.minx + v.extent.maxx) / 2), m_cy((v.extent.miny + v.extent.maxy) / 2),
          m_ox(v.extent.minx + m_csx / 2), m_oy(v.extent.maxy - m_csy / 2), m_rotated(v.angle != 0),
          m_image(imageCoordinates)
    {
        // Non-square pixels (a WMS BBOX of another aspect than WIDTH/HEIGHT)
        // go through MapServer's geotransform, which maps to pixel edges,
        // not centres: the drawing sits half a pixel right and down.
        if (m_csx > 0 && std::abs(m_csx - m_csy) / m_csx > 0.001) {
            m_ox = v.extent.minx;
            m_oy = v.extent.maxy;
        }
        const double a = v.angle * M_PI / 180.0;
        m_cos = std::cos(a);
        m_sin = std::sin(a);
    }
    QPointF toPixel(double x, double y) const
    {
        if (m_image) return {x, y};
        if (!m_rotated) return {(x - m_ox) / m_csx, (m_oy - y) / m_csy};
        const double dx = x - m_cx, dy = y - m_cy;
        return {m_w / 2.0 + (m_cos * dx + m_sin * dy) / m_csx, m_h / 2.0 + (m_sin * dx - m_cos * dy) / m_csy};
    }
    // Map-space bounds of what the image shows.
    Rect coverage(const Rect& edges) const
    {
        if (!m_rotated) return edges;
        Rect r{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (const auto& [col, row] : {std::pair{0, 0}, {m_w, 0}, {0, m_h}, {m_w, m_h}}) {
            const double a = (col - m_w / 2.0) * m_csx, b = (row - m_h / 2.0) * m_csy;
            const double x = m_cx + m_cos * a + m_sin * b, y = m_cy + m_sin * a - m_cos * b;
            r.minx = std::min(r.minx, x), r.maxx = std::max(r.maxx, x);
            r.miny = std::min(r.miny, y), r.maxy = std::max(r.maxy, y);
        }
        return r;
    }

private:
    double m_csx, m_csy;
    int m_w, m_h;
    double m_cx, m_cy, m_ox, m_oy;
    bool m_rotated;
    bool m_image;
    double m_cos = 1, m_sin = 0;
};

// MapServer's AGG transform (msTransformShapeSimplify): drop vertices less
// than a pixel from the previous kept one. Lines keep their first and last
// point; rings keep their first two and last two. Degenerate parts vanish.
// In place; false when nothing is left.
bool simplifyPixels(QPolygonF& pts, bool ring)
{
    const qsizetype n = pts.size();
    if (n < (ring ? 4 : 2)) return false;
    auto far = [](const QPointF& a, const QPointF& b) {
        const double dx = a.x() - b.x(), dy = a.y() - b.y();
        return dx * dx + dy * dy > 1;
    };
    QPointF* p = pts.data();
    const QPointF beforeLast = p[n - 2], last = p[n - 1];
    const qsizetype keepHead = ring ? 2 : 1, keepTail = ring ? 2 : 1;
    qsizetype k = keepHead;
    for (qsizetype i = keepHead; i < n - keepTail; ++i)
        if (far(p[i], p[k - 1])) p[k++] = p[i];
    if (ring) {
        p[k++] = beforeLast;
        p[k++] = last;
    } else if (last != p[k - 1]) {
        p[k++] = last;
    }
    pts.resize(k);
    return k >= 2;
}

// TYPE CIRCLE: a feature's first two points are opposite corners of the
// circle's bounding box (MapServer: centre between them, radius from the x
// distance, or the y distance when that is 0). Returns an empty ring if
// there is no circle. The centre is snapped to whole pixels
// (MS_MAP2IMAGE_X/Y round), the radius is not.
QPolygonF circleRing(const QList<QPolygonF>& parts)
{
    QPolygonF pts;
    for (const QPolygonF& part : parts) pts << part;
    if (pts.size() < 2) return {};
    QPointF c = (pts[0] + pts[1]) / 2;
    double r = std::abs(c.x() - pts[0].x());
    if (r == 0) r = std::abs(c.y() - pts[0].y());
    if (r == 0) return {};
    c = QPointF(std::round(c.x()), std::round(c.y()));
    QPainterPath path;
    path.addEllipse(c, r, r);
    return path.toFillPolygon();
}

// How one render maps features to pixels.
struct PixelContext {
    const PixelMapper& mapper;
    const CoordinateTransform* toMap;  // null: no reprojection
    double jump;                       // pixel distance that marks an antimeridian wrap
    LayerType layerType;
    // POINT layers: a point outside MapServer's map extent is not drawn
    // (msDrawShape). Invalid: no such test.
    Rect pointExtent;
};

// Where MapServer draws a POINT layer's points: its map extent, the corner
// pixels' centres -- the image's edges when the pixels are not square (its
// faked extent in pixels); no test on a rotated map.
Rect pointExtent(const MapView& v)
{
    if (v.angle != 0) return {};
    const double cx = v.cellSizeX(), cy = v.cellSizeY();
    if (cx > 0 && std::abs(cx - cy) / cx > 0.001) return v.extent;
    return {v.extent.minx + cx / 2, v.extent.miny + cy / 2, v.extent.maxx - cx / 2, v.extent.maxy - cy / 2};
}

// A feature's geometry reprojected, in pixels, simplified as MapServer's AGG
// path does (circles built for TYPE CIRCLE), into `item`, whose polygons
// are reused (DrawItemQueue::next). Reprojects `g` in place.
void toPixels(Geometry& g, const PixelContext& ctx, DrawItem& item)
{
    std::vector<double> source;
    if (ctx.toMap) {
        source = g.xy;
        ctx.toMap->transform(g.xy.data(), g.xy.data() + 1, g.pointCount(), 2);
    }
    item.type = g.type;
    qsizetype used = 0;  // parts filled so far; the rest of item.parts is spare
    // The next part to fill, emptied; an index, not a reference: growing the list moves them.
    auto startPart = [&item, &used](qsizetype points) {
        if (used == item.parts.size()) item.parts.emplaceBack();
        QPolygonF& poly = item.parts[used];
        poly.clear();
        poly.reserve(points);
        return used++;
    };
    for (int part = 0; part < g.partCount(); ++part) {
        const int start = g.partStart[part], end = g.partEnd(part);
        qsizetype poly = startPart(end - start);
        auto add = [&](double x, double y) {
            const QPointF pt = ctx.mapper.toPixel(x, y);
            // A reprojected line that jumps across the image wrapped round
            // the antimeridian: break it instead of smearing a band.
            if (ctx.toMap && item.type == Geometry::Type::Line && !item.parts[poly].isEmpty()
                && std::abs(pt.x() - item.parts[poly].last().x()) > ctx.jump)
                poly = startPart(end - start);
            item.parts[poly] << pt;
        };
        bool prevOk = true, anyFailed = false;
        const Rect& inside = ctx.pointExtent;
        for (int i = start; i < end; ++i) {
            const double x = g.xy[2 * i], y = g.xy[2 * i + 1];
            if (inside.isValid() && !(x >= inside.minx && x <= inside.maxx && y >= inside.miny && y <= inside.maxy)) continue;
            const bool ok = x != HUGE_VAL;
            anyFailed |= !ok;
            if (ctx.toMap && i > start && ok != prevOk) {
                const QPointF good(source[2 * (ok ? i : i - 1)], source[2 * (ok ? i : i - 1) + 1]);
                const QPointF bad(source[2 * (ok ? i - 1 : i)], source[2 * (ok ? i - 1 : i) + 1]);
                if (const auto edge = horizonPoint(*ctx.toMap, good, bad)) add(edge->x(), edge->y());
            }
            prevOk = ok;
            if (ok) add(x, y);
        }
        QPolygonF& last = item.parts[poly];
        if (anyFailed && item.type == Geometry::Type::Polygon && last.size() > 2 && last.first() != last.last())
            last << last.first();
        if (last.isEmpty()) --used;  // the last part started is the one left empty
    }
    if (ctx.layerType == LayerType::Circle) {
        const QPolygonF ring = circleRing(QList<QPolygonF>(item.parts.cbegin(), item.parts.cbegin() + used));
        item.type = Geometry::Type::Polygon;
        used = 0;
        if (!ring.isEmpty()) item.parts[startPart(0)] = ring;
    } else if (item.type == Geometry::Type::Line || item.type == Geometry::Type::Polygon) {
        qsizetype kept = 0;
        for (qsizetype i = 0; i < used; ++i)
            if (simplifyPixels(item.parts[i], item.type == Geometry::Type::Polygon)) {
                if (kept != i) std::swap(item.parts[kept], item.parts[i]);
                ++kept;
            }
        used = kept;
    }
    item.parts.resize(used);
    item.top = HUGE_VAL, item.bottom = -HUGE_VAL;
    for (const QPolygonF& part : std::as_const(item.parts))
        for (const QPointF& pt : part) item.top = std::min(item.top, pt.y()), item.bottom = std::max(item.bottom, pt.y());
}

}  // namespace

VectorLayerRenderer::VectorLayerRenderer(const MapDef& map, const EngineContext& context, const LayerVariant& variant,
                                         const std::optional<Crs>& layerCrs, const MapView& view, LabelCache& labels)
    : m_map(map), m_context(context), m_variant(variant), m_layer(variant.def), m_layerCrs(layerCrs), m_view(view), m_labels(labels)
{
}

bool VectorLayerRenderer::extentMeetsView(const Rect& shown) const
{
    Rect ext = m_layer.extent;
    if (m_view.crs.isValid() && m_layerCrs && *m_layerCrs != m_view.crs) {
        auto toView = CoordinateTransform::forThread(*m_layerCrs, m_view.crs);
        if (!toView) return true;  // cannot tell: draw
        ext = (*toView)->transformBounds(ext);
        if (!ext.isValid()) return true;
    }
    return ext.minx <= shown.maxx && ext.maxx >= shown.minx && ext.miny <= shown.maxy && ext.maxy >= shown.miny;
}

std::unique_ptr<FeatureSource> VectorLayerRenderer::graticuleFor(const GraticuleSettings& grid) const
{
    // Label texts measured as MapServer sizes them for the edge segments:
    // the first class's first LABEL at its SIZE.
    const LabelDef* label = !m_layer.classes.isEmpty() && !m_layer.classes.first().labels.isEmpty()
                                ? &m_layer.classes.first().labels.first()
                                : nullptr;
    const double rf = m_view.defResolution > 0 ? m_view.resolution / m_view.defResolution : 1;
    auto measure = [this, label, rf](const QString& text) -> QSizeF {
        if (!label) return {};
        TextLayoutOptions o;
        o.glyphSize = labelGlyphSize(*label, label->size.value, 1, rf);
        const QRectF b = TextPath::layout(text, FontList::forLabel(label->font, m_map.fonts, label->type == LabelType::TrueType), o).bounds;
        return QSizeF(b.width(), std::ceil(b.height()));
    };
    std::optional<Crs> crs = m_layerCrs;
    if (!crs && m_view.crs.isValid()) crs = m_view.crs;
    return std::make_unique<GraticuleSource>(grid, crs, label != nullptr, measure);
}

bool VectorLayerRenderer::render(QImage& canvas, LayerTrace& trace, const CancelToken& cancel)
{
    Stopwatch clock;
    auto fail = [&](const QString& message) {
        trace.error = message;
        return false;
    };
    if (!m_variant.expressions) return fail(m_variant.error);
    if (!m_variant.transformError.isEmpty()) return fail(m_variant.transformError);
    // STYLEITEM "AUTO": each feature styled by its OGR style string.
    const bool autoStyle = m_layer.styleItem.compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0;
    QHash<QString, std::shared_ptr<const OgrAutoStyle>> autoStyles;
    const double cellSize = std::max(m_view.cellSizeX(), m_view.cellSizeY());  // MapServer's map->cellsize
    FeatureClassifier classifier(m_variant.expressions);
    std::unique_ptr<FeatureSource> source;
    if (auto grid = GraticuleSettings::fromLayer(m_layer)) {
        source = graticuleFor(*grid);
    } else {
        auto opened = openFeatureSource(m_map, m_layer, m_context);
        if (!opened) return fail(opened.error().message);
        source = std::move(opened).value();
    }

    // Reprojection: only when both sides know their CRS and they differ.
    std::shared_ptr<CoordinateTransform> toMap;
    const PixelMapper mapper(m_view, !m_layer.transform);
    const Rect shown = mapper.coverage(m_view.extent);
    // A layer whose EXTENT misses the view is not drawn at all (msLayerIsVisible).
    if (m_layer.extent.isValid() && !extentMeetsView(shown)) return true;
    // Pixel coordinates are not filtered by the map extent.
    Rect queryBox = m_layer.transform ? shown : Rect{};
    if (m_layer.transform && m_view.crs.isValid() && m_layer.projection.isSet()) {
        const std::optional<Crs> layerCrs = m_layer.projection.isAuto() ? source->nativeCrs() : m_layerCrs;
        if (!layerCrs)
            return fail(QStringLiteral("layer '%1': PROJECTION: %2")
                            .arg(m_layer.name, m_layer.projection.isAuto() ? QStringLiteral("the data names no CRS")
                                                                           : QStringLiteral("does not resolve")));
        if (*layerCrs != m_view.crs) {
            auto made = CoordinateTransform::forThread(*layerCrs, m_view.crs);
            if (!made) return fail(QStringLiteral("layer '%1': %2").arg(m_layer.name, made.message()));
            toMap = std::move(made).value();
            auto back = CoordinateTransform::forThread(m_view.crs, *layerCrs);
            queryBox = back ? (*back)->transformBounds(shown) : Rect{};
            // A view that wraps (orthographic, polar) can come back inside-out.
            if (!queryBox.isValid() || !std::isfinite(queryBox.width())) queryBox = Rect{};
        }
    }
    // A request's spatial FILTER, tested in the layer's CRS (a layer
    // without PROJECTION is in the map's).
    std::optional<SpatialFilter> spatial;
    if (!m_layer.requestSpatialFilters.isEmpty()) {
        std::optional<Crs> crs = m_layer.projection.isAuto() ? source->nativeCrs() : m_layerCrs;
        if (!crs && m_view.crs.isValid()) crs = m_view.crs;
        auto ready = SpatialFilter::forLayer(m_layer.requestSpatialFilters, crs);
        if (!ready) return fail(QStringLiteral("layer '%1': %2").arg(m_layer.name, ready.message()));
        spatial = std::move(ready).value();
    }
    trace.openMs = clock.restartMs();

    FeatureQuery q;
    q.bbox = queryBox;
    q.attributes = classifier.attributes();
    // The GEOMTRANSFORM expressions' attributes, the LAYER's and the STYLEs'.
    auto wantAttributes = [&q](const ShapeExpression& e) {
        for (const QString& a : e.attributes())
            if (!q.attributes.contains(a, Qt::CaseInsensitive)) q.attributes << a;
    };
    if (m_variant.geomTransform) wantAttributes(*m_variant.geomTransform);
    for (const auto& styles : m_variant.styleTransforms)
        for (const StyleGeomTransform& t : styles)
            if (t.expression) wantAttributes(*t.expression);
    q.scaleDenom = m_view.scaleDenom;
    if (q.bbox.isValid()) q.cellSize = q.bbox.width() / std::max(1, m_view.width);  // contours sample at this
    q.maxFeatures = m_layer.maxFeatures;
    q.cancel = cancel;
    const bool squarePixels = std::abs(m_view.cellSizeX() - m_view.cellSizeY()) <= 0.001 * m_view.cellSizeX();
    q.view = FeatureQuery::View{m_view.extent, m_view.width, m_view.height, m_view.crs, !squarePixels && m_view.angle == 0};
    q.featureStyle = autoStyle;
    q.sourceIds = m_onlyFeatures != nullptr;
    // Drawing done while the source waited for its server: drawing time, not reading.
    LineBandPainter* drawsWhileWaiting = nullptr;
    double drawnWhileReadingMs = 0;
    q.whileWaiting = [&drawsWhileWaiting, &drawnWhileReadingMs] {
        if (!drawsWhileWaiting) return false;
        Stopwatch drawing;
        const bool drew = drawsWhileWaiting->drawWhileWaiting();
        drawnWhileReadingMs += drawing.elapsedMs();
        return drew;
    };
    Stopwatch querying;
    auto queried = source->query(q);
    // CONTOUR generates all its lines in the query.
    if (m_layer.connectionType == ConnectionType::Contour) {
        trace.computePhase = QStringLiteral("contour");
        trace.computeMs = querying.elapsedMs();
    }
    // A failed database call is exactly what the timings must show: keep its trace.
    if (!queried) {
        trace.db = source->takeDbTraces();
        return fail(QStringLiteral("layer '%1': %2").arg(m_layer.name, queried.message()));
    }
    const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
    if (const Status bound = classifier.bind(cursor->fields()); !bound) return fail(bound.message());

    const PixelContext pixels{mapper, toMap.get(), 0.5 * std::max(m_view.width, m_view.height) * 4, m_layer.type,
                              m_layer.type == LayerType::Point && m_layer.transform ? pointExtent(m_view) : Rect{}};
    StyleResolver resolver(m_map, m_layer, m_view, cursor->fields());
    if (m_highlight) resolver.setHighlight(*m_highlight);
    const double scale = m_layer.symbolScaleDenom > 0 && m_view.scaleDenom > 0 ? m_layer.symbolScaleDenom / m_view.scaleDenom : 1;

    // When this render has a core to itself, a line layer that strokes
    // directly is drawn on two threads. A file's features (and cached
    // PostGIS rows) are drawn while they are read; a local PostgreSQL's whole
    // rows come from a server process that needs that core until the last
    // row is sent (a helper drawing then slowed the query more than it
    // gained: 4805 vs 5628 req/min at c=1).
    // A database's reader draws the first pass itself while rows are on
    // their way, on one thread or two.
    DrawItemQueue items;
    std::optional<LineBandPainter> bands;
    if (!autoStyle && canvas.format() == QImage::Format_ARGB32_Premultiplied && !VectorSurface::boundTo(canvas)
        && StrokePainter::drawsLayerDirectly(m_layer)) {
        using Helper = LineBandPainter::Helper;
        if (RenderLoad::hasSpareCore())
            bands.emplace(canvas, m_layer, resolver, scale, items, cancel,
                          cursor->keepsLocalServerBusy() ? Helper::AfterReader : Helper::FollowsReader);
        else if (source->readsFromServer())
            bands.emplace(canvas, m_layer, resolver, scale, items, cancel, Helper::None);
        if (bands) drawsWhileWaiting = &*bands;
    }

    // LAYER GEOMTRANSFORM: where its attributes are among the fields.
    const QList<int> transformColumns = m_variant.geomTransform ? m_variant.geomTransform->columnsIn(cursor->fields()) : QList<int>();

    // Items without values leave the reader's row unshared: no copy per feature.
    const bool keepValues = autoStyle || drawingReadsValues(m_layer, m_variant);
    Feature f;
    while (cursor->next(f)) {
        if (m_onlyFeatures && !m_onlyFeatures->contains(f.id)) continue;
        if (!classifier.passesFilter(f.values)) continue;
        if (spatial && !spatial->passes(f.geometry)) continue;
        const int cls = classifier.classify(f.values, m_view.scaleDenom);
        if (cls < 0) continue;
        if (m_variant.geomTransform) {
            Result<Geometry> g = m_variant.geomTransform->evaluate(f.geometry, {&f.values, &transformColumns, m_view.cellSizeX(), 0});
            if (!g)
                return fail(QStringLiteral("msGeomTransformShape(): Expression parser error. Failed to process shape expression: %1\n%2")
                                .arg(m_variant.geomTransform->text(), g.message()));
            f.geometry = std::move(g).value();
            if (f.geometry.isEmpty()) continue;
        }
        DrawItem* const slot = items.next();
        if (!slot) return fail(QStringLiteral("layer '%1': too many features to draw").arg(m_layer.name));
        DrawItem& item = *slot;
        toPixels(f.geometry, pixels, item);
        item.cls = cls;
        if (keepValues) item.values = f.values;
        item.text = f.text;
        if (autoStyle) {
            auto& own = autoStyles[f.style];
            if (!own) own = std::make_shared<const OgrAutoStyle>(ogrAutoStyle(f.style, m_layer.type, m_map, cellSize));
            item.ownStyles = std::shared_ptr<const QList<StyleDef>>(own, &own->styles);
            item.ownLabels = std::shared_ptr<const QList<LabelDef>>(own, &own->labels);
        }
        items.publish();
        ++trace.features;
    }
    trace.db = source->takeDbTraces();
    if (!cursor->error().isEmpty()) return fail(QStringLiteral("layer '%1': %2").arg(m_layer.name, cursor->error()));
    items.close();
    trace.readMs = clock.restartMs() - trace.computeMs - drawnWhileReadingMs;

    if (bands) {
        bands->finish();
    } else {
        drawItems(canvas, items, resolver, cursor->fields(), scale, cancel);
    }
    trace.drawMs = clock.restartMs() + drawnWhileReadingMs;

    // A TrueType FONT the FONTSET lacks, or whose file does not load, fails
    // the map once a feature would carry the label (msGetFontFace).
    if (!m_annotate) return true;
    if (items.size() > 0)
        if (const QString e = labelFontError(m_map, m_layer); !e.isEmpty()) return fail(e);
    queueLabels(canvas, items, m_map, m_layer, m_view, classifier, resolver, cursor->fields(), scale, m_labels);
    trace.labelMs = clock.restartMs();
    return true;
}

// One thread, through QPainter where the direct path does not apply: point
// markers, symbols along lines, polygon outlines; line layers in passes.
void VectorLayerRenderer::drawItems(QImage& canvas, const DrawItemQueue& items, const StyleResolver& resolver,
                                    const QStringList& fields, double scale, const CancelToken& cancel) const
{
    // Where each STYLE expression's attributes are among the fields, [class][style].
    std::vector<std::vector<QList<int>>> styleColumns;
    for (const auto& styles : m_variant.styleTransforms) {
        styleColumns.emplace_back();
        for (const StyleGeomTransform& t : styles) styleColumns.back().push_back(t.expression ? t.expression->columnsIn(fields) : QList<int>());
    }
    QPainter p(VectorSurface::deviceFor(canvas));
    p.setRenderHint(QPainter::Antialiasing);
    const bool vector = VectorSurface::isVector(p);
    // Hatch lines run through the map's origin (MapServer's image refpt).
    const QPointF hatchOrigin = PixelMapper(m_view).toPixel(0, 0);
    auto markerOf = [&](const ResolvedStyle& r, double angle) {
        MarkerStyle m{r.symbol, r.size, angle, r.width, r.color, r.outline, r.outlineWidth, m_map.baseDir(), {}, false, false, {}};
        if (r.symbol && !r.symbol->font.isEmpty()) m.fontPath = m_map.fonts.value(r.symbol->font, {});
        return m;
    };
    // Markers move the painter; lines and polygons leave it untouched so
    // that they can be blended straight into the image.
    auto drawMarkers = [&](const ResolvedStyle& r, const QList<TransformMarker>& at) {
        const bool perpendicular = r.offsetY == LineOffset::SingleSided || r.offsetY == LineOffset::DoubleSided;
        p.save();
        if (!perpendicular) p.translate(r.offsetX, r.offsetY);
        if (r.polarRadius != 0 || r.polarAngle != 0) {
            const double a = -r.polarAngle * M_PI / 180.0;
            p.translate(r.polarRadius * std::cos(a), r.polarRadius * std::sin(a));
        }
        // A set ANGLE is relative to the map's north: a rotated map turns it back.
        const double angle = r.angle != 0 ? r.angle - m_view.angle : 0;
        for (const TransformMarker& m : at) SymbolPainter::drawMarker(p, m.at, markerOf(r, m.angle.value_or(angle)));
        p.restore();
    };
    LinePenCache pens;
    auto strokeParts = [&](const ResolvedStyle& r, const StyleDef& s, const QList<QPolygonF>& lines) {
        const QList<QPolygonF> parts = LineOffset::apply(lines, r.offsetX, r.offsetY);
        if (r.symbol && s.gap != 0) {
            const MarkerStyle m = markerOf(r, r.angle);
            for (const QPolygonF& part : parts) SymbolPainter::drawAlongLine(p, part, m, s.gap * scale, s.initialGap * scale);
        } else {
            const auto* coverage = StrokePainter::coverageFor(s);
            if (r.outline.isValid())
                StrokePainter::stroke(p, parts, pens.pen(r.outline, r.width + 2 * r.outlineWidth, s, scale, vector), false, coverage);
            if (r.color.isValid()) StrokePainter::stroke(p, parts, pens.pen(r.color, r.width, s, scale, vector), false, coverage);
        }
    };
    auto fillParts = [&](const ResolvedStyle& r, const StyleDef& s, const QList<QPolygonF>& polygon) {
        const QList<QPolygonF> rings = LineOffset::apply(polygon, r.offsetX, r.offsetY);
        // msDrawShadeSymbol: a HATCH symbol draws its lines alone; any other
        // symbol but the simple one tiles the fill (over BACKGROUNDCOLOR),
        // and then no outline is drawn.
        if (r.symbol && r.symbol->type == SymbolType::Hatch) {
            QList<double> pattern;
            for (double d : s.pattern) pattern << (s.width.value > 0 ? d * r.width / s.width.value : d);
            return HatchFill::fill(p, rings, r.size, r.width, pattern, r.angle, r.color, hatchOrigin);
        }
        if (r.symbol && r.symbol->drawnType() != SymbolType::Simple) {
            const bool image = r.symbol->type == SymbolType::Pixmap || r.symbol->type == SymbolType::SVG;
            const QImage tile = image || r.color.isValid() ? SymbolFill::tile(markerOf(r, r.angle), s.gap * scale) : QImage();
            if (!tile.isNull()) {
                if (s.backgroundColor.color.isSet()) {
                    const Color& bg = s.backgroundColor.color;
                    StrokePainter::fillRings(p, rings, QColor(bg.r, bg.g, bg.b, bg.a));
                }
                return SymbolFill::fill(p, rings, tile);
            }
        }
        StrokePainter::fillRings(p, rings, r.color);
        if (r.outline.isValid())
            StrokePainter::stroke(p, rings, StyleResolver::linePen(r.outline, r.width, s, scale, vector), true, StrokePainter::coverageFor(s));
    };
    auto allPoints = [](const QList<QPolygonF>& parts) {
        QList<TransformMarker> at;
        for (const QPolygonF& part : parts)
            for (const QPointF& pt : part) at << TransformMarker{pt, std::nullopt};
        return at;
    };
    // The style on the shape its GEOMTRANSFORM makes (msDrawTransformedShape).
    auto drawTransformed = [&](const DrawItem& item, const StyleDef& s, const StyleGeomTransform& t, const QList<int>& columns,
                               const ResolvedStyle& r) {
        using Kind = StyleGeomTransform::Kind;
        const QSize image = canvas.size();
        switch (t.kind) {
        case Kind::BBox: {
            const double padding = std::max(r.width, r.size) + 3;  // clipped outside the image, not at its edge
            fillParts(r, s, {boundingBoxRing(item.parts, image, padding)});
            return;
        }
        case Kind::Invalid: return;
        case Kind::Expression: {
            // In pixels: [map_cellsize] is one.
            const Result<Geometry> g = t.expression->evaluate(geometryFromParts(item.type, item.parts), {&item.values, &columns, 1, 0});
            if (!g || g->isEmpty()) return;
            if (g->type == Geometry::Type::Line) strokeParts(r, s, partsFromGeometry(*g));
            else if (g->type == Geometry::Type::Polygon) fillParts(r, s, partsFromGeometry(*g));
            else drawMarkers(r, allPoints(partsFromGeometry(*g)));
            return;
        }
        default: drawMarkers(r, transformMarkers(t.kind, item.parts, image, s.angleAuto)); return;
        }
    };
    const auto stylesOf = [this](const DrawItem& item) -> const QList<StyleDef>& {
        return item.ownStyles ? *item.ownStyles : m_layer.classes[item.cls].styles;
    };
    auto drawStyle = [&](const DrawItem& item, qsizetype style) {
        const StyleDef& s = stylesOf(item)[style];
        const ResolvedStyle r = resolver.resolve(s, item.values);
        if (!item.ownStyles && size_t(item.cls) < styleColumns.size() && size_t(style) < styleColumns[size_t(item.cls)].size()) {
            const StyleGeomTransform& t = m_variant.styleTransforms[size_t(item.cls)][size_t(style)];
            if (t.drawsOwnShape()) return drawTransformed(item, s, t, styleColumns[size_t(item.cls)][size_t(style)], r);
        }
        const bool asLine = m_layer.type == LayerType::Line || (m_layer.type == LayerType::Polygon && item.type == Geometry::Type::Line);
        // msDrawShadeSymbol: a symbol's markers along an outline-only
        // polygon style are a line's (pixmaps and SVGs tile the fill instead).
        const bool outlineAsLine = item.type == Geometry::Type::Polygon && r.symbol && s.gap != 0 && !r.color.isValid()
                                && r.outline.isValid() && r.symbol->type != SymbolType::Pixmap && r.symbol->type != SymbolType::SVG;
        if (m_layer.type == LayerType::Point || (s.symbolName.size() && item.type == Geometry::Type::Point)) drawMarkers(r, allPoints(item.parts));
        else if (asLine || outlineAsLine) strokeParts(r, s, item.parts);
        else if (item.type == Geometry::Type::Polygon) fillParts(r, s, item.parts);
    };

    int maxStyles = 0;
    for (const ClassDef& c : m_layer.classes) maxStyles = std::max(maxStyles, int(c.styles.size()));
    for (qsizetype i = 0; i < items.size(); ++i)
        if (items[i].ownStyles) maxStyles = std::max(maxStyles, int(items[i].ownStyles->size()));
    if (m_layer.type == LayerType::Line) {
        for (int pass = 0; pass < maxStyles && !cancel.isCancelled(); ++pass)
            for (qsizetype i = 0; i < items.size(); ++i) {
                if (pass < stylesOf(items[i]).size()) drawStyle(items[i], pass);
            }
    } else {
        for (qsizetype i = 0; i < items.size() && !cancel.isCancelled(); ++i) {
            for (qsizetype k = 0; k < stylesOf(items[i]).size(); ++k) drawStyle(items[i], k);
        }
    }
    p.end();
}

}  // namespace maptune
