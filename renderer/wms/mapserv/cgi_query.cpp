#include "wms/mapserv/cgi_query.h"

#include "expr/expr_program.h"

#include "render/scale_tokens.h"
#include "wms/wms_context.h"

#include <QRegularExpression>

#include <algorithm>

namespace maptune {

namespace {

const QString kNotFound = QStringLiteral("%1(): Search returned no results. No matching record(s) found.");
const QString kWebError = QStringLiteral("mapserv(): Web application error. ");

int layerIndex(const MapDef& map, const QString& name)
{
    if (name.isEmpty()) return -1;
    for (int i = 0; i < map.layers.size(); ++i)
        if (map.layers[i].name == name) return i;
    return -1;
}

// msMapServer's cell size for pixel tolerances: the larger of the two axes
// over the map's extent and size.
double cellSize(const Rect& extent, int width, int height)
{
    if (width <= 1 || height <= 1) return 0;
    return std::max(extent.width() / (width - 1), extent.height() / (height - 1));
}

QPointF imageToMap(const QPointF& pixel, const Rect& ext, int width, int height)
{
    const double cx = width > 0 ? ext.width() / width : 0, cy = height > 0 ? ext.height() / height : 0;
    return {ext.minx + cx * pixel.x(), ext.maxy - cy * pixel.y()};
}

// QSTRING must match the layer's VALIDATION "qstring" pattern, or the WEB's.
bool queryStringValid(const MapDef& map, const LayerDef& layer, const std::optional<QString>& qstring)
{
    if (!qstring) return false;
    auto pattern = layer.validation.value(QStringLiteral("qstring"));
    if (!pattern) pattern = map.web.validation.value(QStringLiteral("qstring"));
    if (!pattern) return false;
    const QRegularExpression re = compilePosixRegex(*pattern, false);
    return re.isValid() && re.match(*qstring).hasMatch();
}

struct QueryRun {
    const PreparedMap& prepared;
    const MapDef& map;
    const CgiParams& params;
    CgiQueryResults results;
    FeatureSelection base;  // cell size, cancel token

    bool searchable(int index) const
    {
        const LayerDef& layer = map.layers[index];
        return results.layersOn.contains(index) && layerQueryable(layer) && layer.type != LayerType::Raster;
    }

    // Runs `selection` on one layer; false with the error line set when the layer fails.
    bool selectOn(int index, const FeatureSelection& selection, const QString& routine, QString& error)
    {
        SelectedFeatures found = prepared.layer(index).select(selection);
        if (!found.error.isEmpty()) {
            error = QStringLiteral("%1(): Query error. %2").arg(routine, found.error);
            return false;
        }
        if (!found.features.isEmpty()) results.layers.append({index, std::move(found)});
        return true;
    }

    // msQueryBy* over the query layer, or every layer from the last one down;
    // `single` stops at the first layer with a result.
    Result<bool> over(int only, const FeatureSelection& selection, const QString& routine, bool single)
    {
        QString error;
        for (int i = map.layers.size() - 1; i >= 0; --i) {
            if (only >= 0 && i != only) continue;
            if (!searchable(i)) continue;
            if (!selectOn(i, selection, routine, error)) return Error(error);
            if (single && !results.layers.isEmpty()) break;
        }
        if (results.layers.isEmpty()) return Error(kNotFound.arg(routine));
        return true;
    }

    FeatureSelection selection(FeatureSelection::By by) const
    {
        FeatureSelection s = base;
        s.by = by;
        return s;
    }

    Result<bool> byPoint(int only, QPointF point, bool single)
    {
        FeatureSelection s = selection(FeatureSelection::By::Point);
        s.x = point.x();
        s.y = point.y();
        if (params.buffer > 0) s.tolerance = params.buffer;
        s.nearestOnly = single;
        results.point = point;
        return over(only, s, QStringLiteral("msQueryByPoint"), single);
    }

    Result<bool> byRect(int only, const Rect& rect)
    {
        FeatureSelection s = selection(FeatureSelection::By::Rect);
        s.rect = rect;
        return over(only, s, QStringLiteral("msQueryByRect"), false);
    }

    Result<bool> byShape(int only, const Geometry& shape)
    {
        FeatureSelection s = selection(FeatureSelection::By::Shape);
        s.shape = shape;
        return over(only, s, QStringLiteral("msQueryByShape"), false);
    }

    // msQueryByFilter: QSTRING (with QITEM) on the query layer, within the map extent.
    Result<bool> byAttributes(int index, bool single)
    {
        FeatureSelection s = selection(FeatureSelection::By::Attributes);
        s.rect = results.extent;
        s.attributeTest = ScaleTokens::parseExpression(*params.queryString);
        s.attributeItem = params.queryItem;
        if (single) s.maxFeatures = 1;
        auto found = over(index, s, QStringLiteral("msQueryByFilter"), single);
        if (!found && params.queryItem.isEmpty() && s.attributeTest.type != ExpressionDef::Type::Logical)
            return Error(found.message()
                         + QStringLiteral("\nmsEvalExpression(): General error message. Cannot evaluate expression, no item index defined."));
        return found;
    }

    Result<bool> byIndex(int index)
    {
        if (index < 0) return Error(QStringLiteral("msQueryByIndex(): Query error. No query layer defined."));
        if (!layerQueryable(map.layers[index]))
            return Error(QStringLiteral("msQueryByIndex(): Query error. Requested layer has no templates defined."));
        FeatureSelection s = selection(FeatureSelection::By::Index);
        s.index = params.shapeIndex;
        QString error;
        if (!selectOn(index, s, QStringLiteral("msQueryByIndex"), error)) return Error(error);
        if (results.layers.isEmpty())
            return Error(QStringLiteral("msQueryByIndex(): Search returned no results. Not valid record request."));
        return true;
    }

    // msQueryByFeatures: the selection layer's features, each as a query shape
    // on the query layer (or every other layer), duplicates dropped.
    Result<bool> byFeatures(int selectIndex, int only)
    {
        const QueryLayerResult* chosen = results.layer(selectIndex);
        if (!chosen) return Error(QStringLiteral("msQueryByFeatures(): Query error. Selection layer has not been queried."));
        const QList<Feature> shapes = chosen->selected.features;
        for (const Feature& f : shapes)
            if (f.geometry.type != Geometry::Type::Polygon && f.geometry.type != Geometry::Type::Line)
                return Error(QStringLiteral("msQueryByFeatures(): Query error. Selection features MUST be polygons or lines."));
        bool any = false;
        for (int i = map.layers.size() - 1; i >= 0; --i) {
            if ((only >= 0 && i != only) || i == selectIndex || !searchable(i)) continue;
            QueryLayerResult merged{i, {}};
            QSet<qint64> seen;
            for (const Feature& shape : shapes) {
                FeatureSelection s = selection(FeatureSelection::By::Shape);
                s.shape = shape.geometry;
                SelectedFeatures found = prepared.layer(i).select(s);
                if (!found.error.isEmpty()) return Error(QStringLiteral("msQueryByFeatures(): Query error. %1").arg(found.error));
                merged.selected.fields = found.fields;
                for (int k = 0; k < found.features.size(); ++k) {
                    if (seen.contains(found.features[k].id)) continue;
                    seen.insert(found.features[k].id);
                    merged.selected.features << found.features[k];
                    merged.selected.classes << found.classes[k];
                    merged.selected.distances << found.distances[k];
                }
            }
            if (!merged.selected.features.isEmpty()) {
                results.layers.append(std::move(merged));
                any = true;
            }
        }
        if (!any) return Error(kNotFound.arg(QStringLiteral("msQueryByFeatures")));
        return true;
    }

    // Point, box or shape from the image coordinates IMGEXT and IMGSIZE describe.
    void useImageSpace()
    {
        if (params.imgExt.isValid()) results.extent = params.imgExt;
        if (params.imgWidth > 0) {
            results.width = params.imgWidth;
            results.height = params.imgHeight;
        }
        base.cellSize = cellSize(results.extent, results.width, results.height);
    }

    QPointF imagePoint(QPointF pixel) const { return imageToMap(pixel, results.extent, results.width, results.height); }

    Result<bool> run()
    {
        const int qlayer = layerIndex(map, params.queryLayer);
        if (qlayer >= 0) results.layersOn.insert(qlayer);
        switch (params.mode) {
        case CgiMode::Query:
            if (params.queryCoordSource == CgiSource::ImgPoint) {
                useImageSpace();
                return byPoint(qlayer, imagePoint(params.imgPoint), true);
            }
            if (params.queryCoordSource == CgiSource::UserPoint) return byPoint(qlayer, params.mapPoint, true);
            return Error(kWebError + QStringLiteral("Query mode needs a point, imgxy and mapxy are not set."));
        case CgiMode::NQuery:
            switch (params.queryCoordSource) {
            case CgiSource::ImgPoint:
                useImageSpace();
                return byPoint(qlayer, imagePoint(params.imgPoint), false);
            case CgiSource::ImgBox: {
                useImageSpace();
                const QPointF a = imagePoint({params.imgBox.minx, params.imgBox.maxy});
                const QPointF b = imagePoint({params.imgBox.maxx, params.imgBox.miny});
                return byRect(qlayer, {a.x(), a.y(), b.x(), b.y()});
            }
            case CgiSource::ImgShape: {
                useImageSpace();
                Geometry shape = params.shape;
                for (int k = 0; k < shape.pointCount(); ++k) {
                    const QPointF m = imagePoint({shape.xy[2 * k], shape.xy[2 * k + 1]});
                    shape.xy[2 * k] = m.x();
                    shape.xy[2 * k + 1] = m.y();
                }
                return byShape(qlayer, shape);
            }
            case CgiSource::UserPoint:
                if (params.buffer == 0) return byPoint(qlayer, params.mapPoint, false);
                return byRect(qlayer, {params.mapPoint.x() - params.buffer, params.mapPoint.y() - params.buffer,
                                       params.mapPoint.x() + params.buffer, params.mapPoint.y() + params.buffer});
            case CgiSource::UserShape: return byShape(qlayer, params.shape);
            default: return byRect(qlayer, results.extent);
            }
        case CgiMode::ItemQuery:
        case CgiMode::ItemNQuery:
            if (qlayer < 0) return Error(kWebError + QStringLiteral("Query layer not set or references an invalid layer."));
            if (!queryStringValid(map, map.layers[qlayer], params.queryString))
                return Error(kWebError + QStringLiteral("Parameter 'qstring' value fails to validate."));
            return byAttributes(qlayer, params.mode == CgiMode::ItemQuery);
        case CgiMode::FeatureQuery:
        case CgiMode::FeatureNQuery:
        case CgiMode::ItemFeatureQuery:
        case CgiMode::ItemFeatureNQuery: {
            const int slayer = layerIndex(map, params.selectLayer);
            if (slayer < 0) return Error(kWebError + QStringLiteral("Selection layer not set or references an invalid layer."));
            results.layersOn.insert(slayer);
            Result<bool> selected = true;
            if (params.mode == CgiMode::ItemFeatureQuery || params.mode == CgiMode::ItemFeatureNQuery) {
                if (!queryStringValid(map, map.layers[slayer], params.queryString))
                    return Error(kWebError + QStringLiteral("Parameter 'qstring' value fails to validate."));
                selected = byAttributes(slayer, params.mode == CgiMode::ItemFeatureQuery);
            } else if (params.queryCoordSource == CgiSource::ImgPoint) {
                useImageSpace();
                selected = byPoint(slayer, imagePoint(params.imgPoint), false);
            } else if (params.queryCoordSource == CgiSource::UserPoint) {
                selected = byPoint(slayer, params.mapPoint, false);
            } else if (params.mode == CgiMode::FeatureNQuery) {
                selected = byRect(slayer, results.extent);
            } else {
                return Error(kWebError + QStringLiteral("No way to perform the initial search, not enough information."));
            }
            if (!selected) return selected;
            return byFeatures(slayer, qlayer);
        }
        case CgiMode::IndexQuery: return byIndex(qlayer);
        default: return Error(kWebError + QStringLiteral("Invalid mode."));
        }
    }
};

}  // namespace

const QueryLayerResult* CgiQueryResults::layer(int index) const
{
    for (const QueryLayerResult& r : layers)
        if (r.layer == index) return &r;
    return nullptr;
}

int CgiQueryResults::featureCount() const
{
    int n = 0;
    for (const QueryLayerResult& r : layers) n += r.selected.features.size();
    return n;
}

QSet<int> cgiLayersOn(const MapDef& map, const CgiParams& params)
{
    QSet<int> on;
    for (int i = 0; i < map.layers.size(); ++i) {
        const LayerDef& l = map.layers[i];
        if (l.status == LayerStatus::Default || (!l.name.isEmpty() && params.layers.contains(l.name))
            || (!l.group.isEmpty() && params.layers.contains(l.group)))
            on.insert(i);
    }
    return on;
}

Result<CgiQueryResults> runCgiQuery(const PreparedMap& prepared, const CgiParams& params, const CancelToken& cancel)
{
    const MapDef& map = prepared.map();
    QueryRun run{prepared, map, params, {}, {}};
    run.results.extent = params.mapExt ? *params.mapExt : map.extent;
    run.results.width = params.mapWidth > 0 ? params.mapWidth : (map.width > 0 ? map.width : params.imgWidth);
    run.results.height = params.mapHeight > 0 ? params.mapHeight : (map.height > 0 ? map.height : params.imgHeight);
    run.results.layersOn = cgiLayersOn(map, params);
    if (!run.results.extent.isValid() && run.results.extent.minx == run.results.extent.maxx
        && run.results.extent.miny == run.results.extent.maxy)
        return Error(kWebError + QStringLiteral("No way to generate map extent."));
    run.base.cellSize = cellSize(run.results.extent, run.results.width, run.results.height);
    run.base.cancel = cancel;
    auto done = run.run();
    if (!done) return done.error();
    std::sort(run.results.layers.begin(), run.results.layers.end(),
              [](const QueryLayerResult& a, const QueryLayerResult& b) { return a.layer < b.layer; });
    return std::move(run.results);
}

}  // namespace maptune
