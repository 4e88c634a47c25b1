#include "render/prepared_vector_layer.h"

#include "render/scale_range.h"

#include "render/feature_source_factory.h"
#include "data/geometry.h"
#include "data/geometry_relate.h"
#include "expr/expr_strings.h"
#include "expr/feature_classifier.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"
#include "render/chart_layer.h"
#include "render/layer_extent.h"
#include "render/style_resolver.h"
#include "render/vector_layer_renderer.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

bool drawable(LayerType t)
{
    return t == LayerType::Point || t == LayerType::Line || t == LayerType::Polygon || t == LayerType::Circle
           || t == LayerType::Annotation;
}

}  // namespace

PreparedVectorLayer::PreparedVectorLayer(const MapDef& map, const EngineContext& context, const LayerDef& def,
                                         int index, const std::optional<Crs>& mapCrs)
    : PreparedLayer(def, index), m_map(map), m_context(context), m_variants(def), m_mapCrs(mapCrs)
{
    if (def.projection.isSet() && !def.projection.isAuto()) {
        Result<Crs> crs = resolveProjection(map, def.projection);
        if (!crs) m_crsError = QStringLiteral("layer '%1': PROJECTION: %2").arg(def.name, crs.message());
        m_crs = std::move(crs).toOptional();
    }
}

bool PreparedVectorLayer::render(const LayerDrawRequest& request) const
{
    if (def().type == LayerType::Chart) return renderChart(request);
    if (!drawable(def().type)) {
        request.trace.skipped = true;
        return true;
    }
    if (!m_crsError.isEmpty()) {
        request.trace.error = m_crsError;
        return false;
    }
    VectorLayerRenderer renderer(m_map, m_context, m_variants.at(request.view.scaleDenom), m_crs, request.view, request.labels);
    renderer.setQuerySelection(request.onlyFeatures, request.highlight);
    renderer.setAnnotated(request.annotate);
    return renderer.render(request.canvas, request.trace, request.cancel);
}

// msQueryByPoint: candidates from the source's box filter, then the exact
// test in the query CRS -- inside a polygon, or within TOLERANCE of a line or
// point -- sorted by feature id, at most maxFeatures.
Result<PreparedVectorLayer::QueryCursor> PreparedVectorLayer::queryCursor(const LayerDef& layer, const std::optional<Crs>& crs,
                                                                          const Rect& box, double scaleDenom,
                                                                          const CancelToken& cancel, bool inheritMapCrs,
                                                                          const std::optional<FeatureQuery::View>& view) const
{
    if (!m_crsError.isEmpty()) return Error(m_crsError);
    auto opened = openFeatureSource(m_map, layer, m_context);
    if (!opened) return opened.error();
    QueryCursor out;
    out.source = std::move(opened).value();
    const QString name = QStringLiteral("layer '%1': ").arg(layer.name);
    // The drawing rule: no PROJECTION means the map's CRS; AUTO the data's.
    const std::optional<Crs> layerCrs = layer.projection.isAuto()                        ? out.source->nativeCrs()
                                        : inheritMapCrs && !layer.projection.isSet() ? m_mapCrs
                                                                                     : m_crs;
    FeatureQuery q;
    q.bbox = box;
    q.attributes = {QStringLiteral("*")};
    q.scaleDenom = scaleDenom;
    q.cancel = cancel;
    q.view = view;
    if (layerCrs && crs && *layerCrs != *crs) {
        if (box.isValid()) q.bbox = projectRect(*crs, *layerCrs, box);
        auto made = CoordinateTransform::forThread(*layerCrs, *crs);
        if (!made) return Error(name + made.message());
        out.toTarget = std::move(made).value();
    }
    auto queried = out.source->query(q);
    if (!queried) return Error(name + queried.message());
    out.cursor = std::move(queried).value();
    return out;
}

void PreparedVectorLayer::QueryCursor::toTargetCrs(Geometry& g) const
{
    if (toTarget && !toTarget->isIdentity()) toTarget->transform(g.xy.data(), g.xy.data() + 1, g.pointCount(), 2);
}

namespace {

// The layer's TOLERANCE in map units (MapServer: 3 pixels for points and
// lines, 0 for polygons, unless the layer says otherwise).
double layerTolerance(const LayerDef& layer, double cellSize)
{
    const double tolerance = layer.tolerance >= 0 ? layer.tolerance
                             : (layer.type == LayerType::Point || layer.type == LayerType::Line ? 3 : 0);
    if (layer.toleranceUnits.isEmpty() || layer.toleranceUnits.compare(QLatin1String("PIXELS"), Qt::CaseInsensitive) == 0)
        return tolerance * cellSize;
    return tolerance;
}

}  // namespace

// msQueryByPoint: candidates from the source's box filter, then the exact
// test in the query CRS -- inside a polygon, or within TOLERANCE of a line or
// point -- sorted by feature id, at most maxFeatures.
PointQueryResult PreparedVectorLayer::queryPoint(const PointQuery& query) const
{
    PointQueryResult result;
    const LayerVariant& variant = m_variants.at(query.scaleDenom);
    const LayerDef& layer = variant.def;
    if (!variant.expressions) {
        result.error = variant.error;
        return result;
    }
    const double tolerance = query.tolerancePixels ? *query.tolerancePixels * query.cellSize : layerTolerance(layer, query.cellSize);
    if (!std::isfinite(query.x) || !std::isfinite(query.y) || !std::isfinite(tolerance)) {
        result.error = QStringLiteral("layer '%1': the query point is not a finite number").arg(layer.name);
        return result;
    }
    // Sources filter by this box: with a zero tolerance (polygons, RADIUS=0) it
    // still needs an area, or the source would read the whole layer. The
    // distance test below keeps the exact tolerance.
    const double pad = std::max(tolerance, query.cellSize / 2);
    const Rect search{query.x - pad, query.y - pad, query.x + pad, query.y + pad};
    const std::optional<Crs> queryCrs = query.crs.isValid() ? std::optional<Crs>(query.crs) : m_mapCrs;
    auto opened = queryCursor(layer, queryCrs, search, 0, query.cancel, false, query.view);
    if (!opened) {
        result.error = opened.message();
        return result;
    }
    const QueryCursor& c = *opened;
    result.fields = c.cursor->fields();
    // The layer's FILTER holds for queries as for drawing (a WMS TIME, too).
    FeatureClassifier classifier(variant.expressions);
    if (const Status bound = classifier.bind(result.fields); !bound) {
        result.error = QStringLiteral("layer '%1': %2").arg(layer.name, bound.message());
        return result;
    }
    Feature f;
    double nearest = HUGE_VAL;
    while (!query.cancel.isCancelled() && c.cursor->next(f)) {
        if (!classifier.passesFilter(f.values)) continue;
        c.toTargetCrs(f.geometry);
        const double distance = distanceToPoint(f.geometry, query.x, query.y);
        if (distance > tolerance) continue;
        // One feature asked for: the nearest one (msQueryByPoint's MS_SINGLE).
        if (query.maxFeatures == 1 && !result.features.isEmpty()) {
            if (distance >= nearest) continue;
            result.features.clear();
        }
        nearest = distance;
        result.features << f;
    }
    if (!c.cursor->error().isEmpty()) result.error = QStringLiteral("layer '%1': %2").arg(layer.name, c.cursor->error());
    if (query.cancel.isCancelled())
        result.error = QStringLiteral("layer '%1': the query was cancelled (time limit)").arg(layer.name);
    std::sort(result.features.begin(), result.features.end(), [](const Feature& a, const Feature& b) { return a.id < b.id; });
    if (query.maxFeatures > 0 && result.features.size() > query.maxFeatures) result.features.resize(query.maxFeatures);
    return result;
}

namespace {

// The search box the source filters by, before the exact test.
Rect searchBox(const FeatureSelection& s, double tolerance)
{
    switch (s.by) {
    case FeatureSelection::By::Rect: return s.rect;
    case FeatureSelection::By::Point: {
        const double pad = std::max(tolerance, s.cellSize / 2);
        return {s.x - pad, s.y - pad, s.x + pad, s.y + pad};
    }
    case FeatureSelection::By::Shape: {
        const Rect b = s.shape.bounds();
        return {b.minx - tolerance, b.miny - tolerance, b.maxx + tolerance, b.maxy + tolerance};
    }
    case FeatureSelection::By::Attributes:
    case FeatureSelection::By::Index: return s.rect;
    }
    return {};
}

}  // namespace

// The msQueryBy* family: the source's box filter, then the layer's FILTER, the
// query's own attribute test, the class test (a feature needs a class, and a
// TEMPLATE on the layer or that class) and the exact geometry test, in the
// map's CRS.
SelectedFeatures PreparedVectorLayer::select(const FeatureSelection& s) const
{
    SelectedFeatures result;
    const LayerVariant& variant = m_variants.at(s.scaleDenom);
    const LayerDef& layer = variant.def;
    if (!drawable(layer.type) || !inQueryScaleRange(layer.minScaleDenom, layer.maxScaleDenom, s.scaleDenom)) return result;
    result.searched = true;
    auto fail = [&](const QString& message) {
        result.error = QStringLiteral("layer '%1': %2").arg(layer.name, message);
        return result;
    };
    if (!variant.expressions) {
        result.error = variant.error;
        return result;
    }
    const double tolerance = s.tolerance ? *s.tolerance : layerTolerance(layer, s.cellSize);
    if (!std::isfinite(tolerance) || (s.by == FeatureSelection::By::Point && (!std::isfinite(s.x) || !std::isfinite(s.y))))
        return fail(QStringLiteral("the query location is not a finite number"));

    std::optional<BoundExpression> test;
    auto compiledTest = s.attributeTest.isSet() ? Expression::compile(s.attributeTest) : Result<Expression>(Expression());
    if (!compiledTest) return fail(QStringLiteral("the query expression: %1").arg(compiledTest.message()));

    auto opened = queryCursor(layer, m_mapCrs, searchBox(s, tolerance), s.scaleDenom, s.cancel);
    if (!opened) {
        result.error = opened.message();
        return result;
    }
    const QueryCursor& c = *opened;
    const std::unique_ptr<FeatureCursor>& cursor = c.cursor;
    result.fields = cursor->fields();
    FeatureClassifier classifier(variant.expressions);
    if (const Status bound = classifier.bind(result.fields); !bound) return fail(bound.message());
    if (s.attributeTest.isSet()) {
        auto bound = compiledTest->bind(result.fields, s.attributeItem);
        if (!bound) return fail(QStringLiteral("the query expression: %1").arg(bound.message()));
        test = std::move(bound).value();
    }
    const bool layerTemplate = !layer.templ.isEmpty();
    const Geometry area = s.by == FeatureSelection::By::Rect ? rectGeometry(s.rect) : Geometry();

    Feature f;
    while (!s.cancel.isCancelled() && cursor->next(f)) {
        if (s.by == FeatureSelection::By::Index && f.id != s.index) continue;
        if (!classifier.passesFilter(f.values)) continue;
        if (test && !test->matches(f.values)) continue;
        const int cls = classifier.classify(f.values, s.scaleDenom);
        if (!layerTemplate && (cls < 0 || layer.classes[cls].templ.isEmpty())) continue;
        c.toTargetCrs(f.geometry);
        double distance = 0;
        switch (s.by) {
        case FeatureSelection::By::Rect: {
            // A feature whose box lies inside (edges included) is in, as msQueryByRect decides first.
            const Rect b = f.geometry.bounds();
            const bool inside = b.minx >= s.rect.minx && b.maxx <= s.rect.maxx && b.miny >= s.rect.miny && b.maxy <= s.rect.maxy;
            if (!inside && !intersectsPolygon(f.geometry, area)) continue;
            break;
        }
        case FeatureSelection::By::Point:
            distance = distanceToPoint(f.geometry, s.x, s.y);
            if (distance > tolerance) continue;
            break;
        case FeatureSelection::By::Shape:
            distance = s.shape.type == Geometry::Type::Polygon && intersectsPolygon(f.geometry, s.shape) ? 0
                                                                                                       : distanceBetween(f.geometry, s.shape);
            if (distance > tolerance) continue;
            break;
        case FeatureSelection::By::Attributes:
        case FeatureSelection::By::Index: break;
        }
        if (s.nearestOnly && !result.features.isEmpty()) {
            if (distance > result.distances.first()) continue;
            result.features.clear();
            result.classes.clear();
            result.distances.clear();
        }
        result.features << f;
        result.classes << cls;
        result.distances << distance;
        if (s.maxFeatures > 0 && result.features.size() >= s.maxFeatures && !s.nearestOnly) break;
    }
    if (!cursor->error().isEmpty()) return fail(cursor->error());
    if (s.cancel.isCancelled()) return fail(QStringLiteral("the query was cancelled (time limit)"));
    return result;
}

Result<std::optional<Rect>> PreparedVectorLayer::extent() const
{
    return layerExtentInMapCrs(m_map, m_variants.at(0).def, m_context);
}

}  // namespace maptune

namespace maptune {

Result<std::vector<PreparedVectorLayer::WeightedVertex>>
PreparedVectorLayer::weightedVertices(const Crs& crs, const Rect& box, double scaleDenom, const CancelToken& cancel) const
{
    const LayerVariant& variant = m_variants.at(scaleDenom);
    const LayerDef& layer = variant.def;
    if (!variant.expressions) return Error(variant.error);
    auto opened = queryCursor(layer, crs.isValid() ? std::optional<Crs>(crs) : m_mapCrs, box, scaleDenom, cancel, true);
    if (!opened) return opened.error();
    const QueryCursor& c = *opened;
    FeatureClassifier classifier(variant.expressions);
    if (const Status bound = classifier.bind(c.cursor->fields()); !bound)
        return Error(QStringLiteral("layer '%1': %2").arg(layer.name, bound.message()));
    const QStringList& fields = c.cursor->fields();

    std::vector<WeightedVertex> out;
    Feature f;
    while (!cancel.isCancelled() && c.cursor->next(f)) {
        if (!classifier.passesFilter(f.values)) continue;
        double weight = 1;
        if (!layer.classes.isEmpty()) {
            const int cls = classifier.classify(f.values, scaleDenom);
            if (cls < 0) continue;
            const auto& styles = layer.classes[cls].styles;
            const auto style = std::find_if(styles.begin(), styles.end(), [scaleDenom](const StyleDef& s) {
                return inDrawScaleRange(s.minScaleDenom, s.maxScaleDenom, scaleDenom);
            });
            if (style == styles.end()) continue;
            weight = style->size.value;
            if (style->size.isBound()) {
                const int at = exprstr::fieldIndex(fields, style->size.attribute);
                weight = at >= 0 && at < f.values.size() ? exprstr::leadingNumber(f.values[at]) : 0;
            }
        }
        c.toTargetCrs(f.geometry);
        for (int i = 0; i < f.geometry.pointCount(); ++i)
            out.push_back({f.geometry.xy[size_t(2 * i)], f.geometry.xy[size_t(2 * i + 1)], weight});
    }
    if (!c.cursor->error().isEmpty()) return Error(QStringLiteral("layer '%1': %2").arg(layer.name, c.cursor->error()));
    return out;
}

}  // namespace maptune

namespace maptune {

bool PreparedVectorLayer::renderChart(const LayerDrawRequest& request) const
{
    Stopwatch clock;
    LayerTrace& trace = request.trace;
    const MapView& view = request.view;
    const LayerVariant& variant = m_variants.at(view.scaleDenom);
    const LayerDef& layer = variant.def;
    const auto fail = [&](const QString& message) {
        trace.error = message.startsWith(QLatin1String("layer '")) ? message : QStringLiteral("layer '%1': %2").arg(layer.name, message);
        trace.totalMs += clock.elapsedMs();
        return false;
    };
    if (!variant.expressions) return fail(variant.error);
    const Result<ChartSettings> settings = ChartSettings::fromLayer(layer);
    if (!settings) return fail(settings.message());
    auto opened = queryCursor(layer, view.crs.isValid() ? std::optional<Crs>(view.crs) : m_mapCrs, view.extent,
                              view.scaleDenom, request.cancel);
    if (!opened) return fail(opened.message());
    const QueryCursor& c = *opened;
    const QStringList& fields = c.cursor->fields();
    FeatureClassifier classifier(variant.expressions);
    if (const Status bound = classifier.bind(fields); !bound) return fail(bound.message());
    const auto column = [&fields](const QString& name) { return exprstr::fieldIndex(fields, name); };
    // A bound SIZE is 1 when the attribute is empty, else its leading number.
    const auto sizeOf = [&column](const NumberOrAttr& size, const QStringList& values) {
        if (!size.isBound()) return size.value;
        const int at = column(size.attribute);
        const QString v = at >= 0 && at < values.size() ? values[at] : QString();
        return v.isEmpty() ? 1.0 : exprstr::leadingNumber(v);
    };
    const int sizeColumn = settings->sizeRange ? column(settings->sizeRange->attribute) : -1;
    if (settings->sizeRange && sizeColumn < 0)
        return fail(QStringLiteral("CHART_SIZE_RANGE names attribute '%1', which the data lacks").arg(settings->sizeRange->attribute));
    trace.openMs += clock.restartMs();

    const StyleResolver resolver(m_map, layer, view, fields);
    ChartPainter painter(*settings, view, request.canvas);
    Feature f;
    while (!request.cancel.isCancelled() && c.cursor->next(f)) {
        if (!classifier.passesFilter(f.values)) continue;
        QList<ChartPainter::Slice> slices;
        for (qsizetype k = 0; k < layer.classes.size(); ++k) {
            const ClassDef& cls = layer.classes[k];
            if (cls.styles.isEmpty() || !classifier.expressionMatches(int(k), f.values)) continue;
            slices.append({sizeOf(cls.styles[0].size, f.values), &cls.styles[0]});
        }
        c.toTargetCrs(f.geometry);
        const double sizeValue = sizeColumn >= 0 && sizeColumn < f.values.size() ? exprstr::leadingNumber(f.values[sizeColumn]) : 0;
        if (const Status drawn = painter.draw(f.geometry, slices, sizeValue, resolver, f.values); !drawn)
            return fail(QStringLiteral("feature %1: %2").arg(f.id).arg(drawn.message()));
        ++trace.features;
    }
    if (!c.cursor->error().isEmpty()) return fail(c.cursor->error());
    trace.drawMs += clock.restartMs();
    trace.totalMs += trace.openMs + trace.drawMs;
    return true;
}

}  // namespace maptune
