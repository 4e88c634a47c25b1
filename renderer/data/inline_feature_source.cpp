#include "data/inline_feature_source.h"

#include "data/list_cursor.h"
#include "mapfile/map_def.h"

namespace maptune {

namespace {
Geometry::Type typeForLayer(LayerType t)
{
    switch (t) {
    case LayerType::Point: return Geometry::Type::Point;
    case LayerType::Line: return Geometry::Type::Line;
    default: return Geometry::Type::Polygon;
    }
}
}  // namespace

Result<std::unique_ptr<InlineFeatureSource>> InlineFeatureSource::create(const LayerDef& layer)
{
    auto src = std::unique_ptr<InlineFeatureSource>(new InlineFeatureSource);
    // ITEMS values pair with the layer's METADATA "items"-less schema: MapServer
    // names them by PROCESSING "ITEMS=a,b,c".
    for (const QString& p : layer.processing) {
        if (p.startsWith(QLatin1String("ITEMS="), Qt::CaseInsensitive))
            src->m_fields = p.mid(6).split(QLatin1Char(','));
    }
    qint64 id = 0;
    for (const InlineFeatureDef& fd : layer.features) {
        Feature f;
        f.id = id++;
        if (!fd.wkt.isEmpty()) {
            auto g = geometryFromWkt(fd.wkt);
            if (!g) return g.error();  // openFeatureSource names the layer
            f.geometry = std::move(*g);
        } else {
            f.geometry.type = typeForLayer(layer.type);
            for (const auto& part : fd.parts) {
                f.geometry.partStart.push_back(f.geometry.pointCount());
                for (const auto& [x, y] : part) {
                    f.geometry.xy.push_back(x);
                    f.geometry.xy.push_back(y);
                }
            }
        }
        if (!fd.items.isEmpty()) f.values = fd.items.split(QLatin1Char(';'));
        f.text = fd.text;
        while (f.values.size() < src->m_fields.size()) f.values << QString();
        src->m_features << f;
    }
    return src;
}

Result<std::unique_ptr<FeatureCursor>> InlineFeatureSource::query(const FeatureQuery& q)
{
    QList<Feature> hits;
    for (const Feature& f : m_features) {
        if (q.bbox.isValid()) {
            const Rect b = f.geometry.bounds();
            if (b.maxx < q.bbox.minx || b.minx > q.bbox.maxx || b.maxy < q.bbox.miny || b.miny > q.bbox.maxy) continue;
        }
        hits << f;
    }
    return std::unique_ptr<FeatureCursor>(std::make_unique<ListCursor>(m_fields, std::move(hits)));
}

}  // namespace maptune
