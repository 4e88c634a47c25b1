#include "render/prepared_union_layer.h"

#include "mapfile/processing.h"

#include <algorithm>

namespace maptune {

PreparedUnionLayer::PreparedUnionLayer(const MapDef& map, const EngineContext& context, const LayerDef& def, int index,
                                       const std::optional<Crs>& mapCrs)
    : PreparedLayer(def, index)
{
    const ProcessingOptions options(def.processing);
    m_statusCheck = options.value(QStringLiteral("UNION_STATUS_CHECK"), QString()).compare(QLatin1String("TRUE"), Qt::CaseInsensitive) == 0;
    m_scaleCheck = options.value(QStringLiteral("UNION_SCALE_CHECK"), QString()).compare(QLatin1String("FALSE"), Qt::CaseInsensitive) != 0;
    const QStringList names = def.connection.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (names.isEmpty()) m_error = QStringLiteral("layer '%1': CONNECTIONTYPE UNION needs a CONNECTION listing its source layers").arg(def.name);
    const bool autoStyle = !def.styleItem.isEmpty();
    for (const QString& raw : names) {
        const QString name = raw.trimmed();
        const LayerDef* source = nullptr;
        for (const LayerDef& l : map.layers)
            if (!source && l.name == name) source = &l;
        if (!source || source == &def) {
            m_error = QStringLiteral("layer '%1': CONNECTION names no layer '%2'").arg(def.name, name);
            break;
        }
        if (source->type != def.type) {
            m_error = QStringLiteral("layer '%1': the type of source layer '%2' differs from the union's").arg(def.name, name);
            break;
        }
        Source s;
        s.original = source;
        s.drawn = std::make_unique<LayerDef>(*source);
        LayerDef& drawn = *s.drawn;
        drawn.name = def.name;
        drawn.status = LayerStatus::On;
        drawn.minScaleDenom = drawn.maxScaleDenom = -1;  // the union's own range was tested
        drawn.composites = def.composites;
        drawn.labelCache = def.labelCache;
        if (!autoStyle) {
            drawn.classes = def.classes;
            drawn.classItem = def.classItem;
            drawn.labelItem = def.labelItem;
            drawn.classGroup = def.classGroup;
        }
        s.layer = std::make_unique<PreparedVectorLayer>(map, context, drawn, index, mapCrs);
        m_sources.push_back(std::move(s));
    }
}

bool PreparedUnionLayer::takesPart(const Source& source, double scale) const
{
    const LayerDef& l = *source.original;
    if (m_statusCheck && l.status == LayerStatus::Off) return false;
    if (!m_scaleCheck || scale <= 0) return true;
    // isScaleInRange: the layer's range, then at least one class in range.
    if ((l.maxScaleDenom > 0 && scale > l.maxScaleDenom) || (l.minScaleDenom > 0 && scale <= l.minScaleDenom)) return false;
    if (l.classes.isEmpty()) return true;
    for (const ClassDef& c : l.classes)
        if (!(c.maxScaleDenom > 0 && scale > c.maxScaleDenom) && !(c.minScaleDenom > 0 && scale <= c.minScaleDenom)) return true;
    return false;
}

bool PreparedUnionLayer::render(const LayerDrawRequest& request) const
{
    LayerTrace& trace = request.trace;
    if (!m_error.isEmpty()) {
        trace.error = m_error;
        return false;
    }
    for (const Source& s : m_sources) {
        if (!takesPart(s, request.view.scaleDenom)) continue;
        LayerTrace part;
        const LayerDrawRequest partRequest{request.view, request.canvas, part, request.cancel, request.labels,
                                           request.onlyFeatures, request.highlight};
        const bool drawn = s.layer->render(partRequest);
        trace.layer = def().name;
        trace.openMs += part.openMs;
        trace.readMs += part.readMs;
        trace.drawMs += part.drawMs;
        trace.labelMs += part.labelMs;
        trace.totalMs += part.totalMs;
        trace.features += part.features;
        trace.db += part.db;
        if (!drawn) {
            trace.error = QStringLiteral("%1 (source layer '%2')").arg(part.error, s.original->name);
            return false;
        }
    }
    return true;
}

PointQueryResult PreparedUnionLayer::queryPoint(const PointQuery& query) const
{
    PointQueryResult out;
    if (!m_error.isEmpty()) {
        out.error = m_error;
        return out;
    }
    for (const Source& s : m_sources) {
        if (!takesPart(s, query.scaleDenom)) continue;
        PointQueryResult part = s.layer->queryPoint(query);
        if (!part.error.isEmpty()) {
            out.error = part.error;
            return out;
        }
        if (out.fields.isEmpty()) out.fields = part.fields;
        // Sources share the union's attributes by name.
        for (Feature& f : part.features) {
            QStringList values;
            for (const QString& field : std::as_const(out.fields)) {
                const qsizetype at = part.fields.indexOf(field);
                values << (at >= 0 ? f.values.value(at) : QString());
            }
            f.values = values;
            out.features << f;
        }
        if (query.maxFeatures > 0 && out.features.size() >= query.maxFeatures) break;
    }
    if (query.maxFeatures > 0 && out.features.size() > query.maxFeatures) out.features.resize(query.maxFeatures);
    return out;
}

Result<std::optional<Rect>> PreparedUnionLayer::extent() const
{
    if (!m_error.isEmpty()) return Error(m_error);
    std::optional<Rect> all;
    for (const Source& s : m_sources) {
        auto e = s.layer->extent();
        if (!e) return e.error();
        if (!*e) continue;
        const Rect& r = **e;
        all = all ? Rect{std::min(all->minx, r.minx), std::min(all->miny, r.miny), std::max(all->maxx, r.maxx),
                         std::max(all->maxy, r.maxy)}
                  : r;
    }
    return all;
}

}  // namespace maptune
