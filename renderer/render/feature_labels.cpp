#include "render/feature_labels.h"

#include "expr/expression.h"
#include "expr/feature_classifier.h"
#include "mapfile/processing.h"
#include "render/draw_item.h"
#include "render/label_cache.h"
#include "render/label_line_clip.h"
#include "render/line_offset.h"
#include "render/polygon_label_point.h"
#include "render/scale_range.h"
#include "render/style_resolver.h"
#include "render/symbol_painter.h"
#include "text/font_face.h"
#include "text/html_entities.h"

#include <QHash>
#include <QLineF>
#include <QRegularExpression>

#include <optional>

namespace maptune {

namespace {

// "[item]" references replaced by the feature's values (case-insensitive names).
// A reference to an item the feature does not have reads as nothing, as in
// MapServer (issue 5558): "[Missing]" alone is no label, not the literal text.
QString substituteItems(const QString& text, const QStringList& fields, const QStringList& values)
{
    if (!text.contains(QLatin1Char('['))) return text;
    static const QRegularExpression binding(QStringLiteral("\\[([^\\]]*)\\]"));
    QString out;
    qsizetype from = 0;
    for (QRegularExpressionMatchIterator it = binding.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(from, m.capturedStart() - from);
        const QStringView name = m.capturedView(1);
        for (qsizetype i = 0; i < fields.size() && i < values.size(); ++i)
            if (name.compare(fields[i], Qt::CaseInsensitive) == 0) {
                out += values[i];
                break;
            }
        from = m.capturedEnd();
    }
    out += QStringView(text).mid(from);
    return out;
}

// MINFEATURESIZE `minDimension`: polygons smaller on a side get no label.
std::optional<QPointF> labelPoint(const DrawItem& item, double minDimension)
{
    if (item.parts.isEmpty() || item.parts.first().isEmpty()) return QPointF();
    const QPolygonF& p = item.parts.first();
    if (item.type == Geometry::Type::Polygon) return polygonLabelPoint(item.parts, minDimension);
    if (item.type == Geometry::Type::Line) {
        double total = 0;
        for (qsizetype i = 1; i < p.size(); ++i) total += QLineF(p[i - 1], p[i]).length();
        double walked = 0;
        for (qsizetype i = 1; i < p.size(); ++i) {
            const double len = QLineF(p[i - 1], p[i]).length();
            if (walked + len >= total / 2 && len > 0) return p[i - 1] + (p[i] - p[i - 1]) * ((total / 2 - walked) / len);
            walked += len;
        }
    }
    return p.first();
}

MarkerStyle markerStyle(const StyleResolver& resolver, const StyleDef& s, const QStringList& values, const MapDef& map)
{
    const ResolvedStyle r = resolver.resolve(s, values);
    MarkerStyle m{r.symbol, r.size, r.angle, r.width, r.color, r.outline, r.outlineWidth, map.baseDir(), {}, false, false, {}};
    if (r.symbol && !r.symbol->font.isEmpty()) m.fontPath = map.fonts.value(r.symbol->font, {});
    // OFFSET x -99 / -999 (offset lines) does not apply to a point.
    if (r.offsetY != LineOffset::SingleSided && r.offsetY != LineOffset::DoubleSided) m.offset = QPointF(r.offsetX, r.offsetY);
    return m;
}

// A point's marker as the label cache knows it: its class's first style
// (msGetMarkerSize on the bottom style).
QSizeF pointMarkerSize(const ClassDef& c, const StyleResolver& resolver, const QStringList& values, const MapDef& map)
{
    if (c.styles.isEmpty()) return {0, 0};
    return SymbolPainter::markerSize(markerStyle(resolver, c.styles.first(), values, map));
}

// A label's STYLEs drawn at its point: GEOMTRANSFORM labelpnt, which is
// also what a label style without GEOMTRANSFORM does.
QList<MarkerStyle> labelPointMarkers(const LabelDef& l, const StyleResolver& resolver, const QStringList& values, const MapDef& map)
{
    QList<MarkerStyle> markers;
    for (const StyleDef& s : l.styles)
        if (s.geomTransform.isEmpty() || s.geomTransform.compare(QLatin1String("labelpnt"), Qt::CaseInsensitive) == 0)
            markers << markerStyle(resolver, s, values, map);
    return markers;
}

// One layer's labelling: what every feature's labels share.
class FeatureLabeller {
public:
    FeatureLabeller(QImage& canvas, const MapDef& map, const LayerDef& layer, const MapView& view,
                    const FeatureClassifier& classifier, const StyleResolver& resolver, const QStringList& fields,
                    double symbolScale, LabelCache& labels)
        : m_canvas(canvas), m_map(map), m_layer(layer), m_view(view), m_classifier(classifier), m_resolver(resolver),
          m_fields(fields), m_labels(labels),
          m_rf(view.defResolution > 0 ? view.resolution / view.defResolution : 1), m_scaleFactor(symbolScale * m_rf),
          // msOGRLayerGetAutoStyle turns the layer's label cache off.
          m_cached(layer.labelCache && !layer.postLabelCache
                   && layer.styleItem.compare(QLatin1String("AUTO"), Qt::CaseInsensitive) != 0),
          m_noClip(ProcessingOptions(layer.processing).has(QStringLiteral("LABEL_NO_CLIP")))
    {
    }

    void queue(const DrawItem& item)
    {
        const ClassDef& c = m_layer.classes[item.cls];
        // STYLEITEM "AUTO": the feature's LABEL part replaces the class's labels.
        const QList<LabelDef>& labels = item.ownLabels ? *item.ownLabels : c.labels;
        if (labels.isEmpty()) return;
        m_pointMarker.reset();
        // msShapeGetLabelAnnotation: the feature's own TEXT before the class TEXT and LABELITEM.
        const QString classText = item.text.isEmpty() ? m_classifier.labelText(item.cls, item.values) : item.text;
        // A POINT layer labels every point of a feature, each on its own in
        // the cache (pointLayerDrawShape: msAddLabelGroup per point).
        if (m_layer.type == LayerType::Point) {
            for (const QPolygonF& part : item.parts)
                for (const QPointF& p : part) queueAt(item, c, labels, classText, p, m_labels.nextGroup());
        } else {
            queueAt(item, c, labels, classText, std::nullopt, m_labels.nextGroup());
        }
    }

private:
    // `at`: the point to label (a POINT layer's); none: the feature's label point.
    void queueAt(const DrawItem& item, const ClassDef& c, const QList<LabelDef>& labels, const QString& classText,
                 const std::optional<QPointF>& at, int group)
    {
        for (qsizetype index = 0; index < labels.size(); ++index) {
            const LabelDef& l = labels[index];
            if (!item.ownLabels && !labelMatches(item.cls, index, l, item.values)) continue;
            // LABEL TEXT overrides the class TEXT / LABELITEM for this label;
            // an OGR style string's text is taken as it is.
            const QString text = item.ownLabels                                    ? l.text.text
                                 : l.text.type == ExpressionDef::Type::String ? substituteItems(l.text.text, m_fields, item.values)
                                                                              : classText;
            QList<MarkerStyle> labelMarkers = labelPointMarkers(l, m_resolver, item.values, m_map);
            // A label without text still draws its markers.
            if (text.isEmpty() && labelMarkers.isEmpty()) continue;
            if (!inDrawScaleRange(l.minScaleDenom, l.maxScaleDenom, m_view.scaleDenom)) continue;
            const std::optional<QPointF> anchor = at ? at : labelPoint(item, l.minFeatureSize > 0 ? l.minFeatureSize * m_rf : 0);
            if (!anchor) continue;
            LabelCandidate cand;
            cand.text = decodeHtmlEntities(text);
            cand.anchor = *anchor;
            cand.style = l;
            cand.style.color.color = m_resolver.color(l.color, item.values);
            cand.style.outlineColor.color = m_resolver.color(l.outlineColor, item.values);
            cand.style.shadowColor.color = m_resolver.color(l.shadowColor, item.values);
            cand.glyphSize = labelGlyphSize(l, m_resolver.number(l.size, item.values), m_scaleFactor, m_rf);
            // A set ANGLE is relative to the map's north: a rotated map turns it back.
            cand.angle = m_resolver.number(l.angle, item.values);
            if (cand.angle != 0) cand.angle -= m_view.angle;
            cand.fonts = FontList::forLabel(l.font, m_map.fonts, l.type == LabelType::TrueType);
            cand.layerType = m_layer.type;
            if (m_layer.type == LayerType::Point) {
                cand.marker = markerOfPoint(item, c);
                cand.markerOnMap = !cand.marker.isEmpty();
            }
            for (const MarkerStyle& m : labelMarkers) cand.marker = cand.marker.expandedTo(SymbolPainter::markerSize(m));
            cand.labelMarkers = std::move(labelMarkers);
            // A class's labels go into the cache together (all or none) on
            // points and polygons; on lines each goes in on its own, as
            // MapServer adds them (msAddLabel per label, not msAddLabelGroup).
            cand.group = m_layer.type == LayerType::Line ? m_labels.nextGroup() : group;
            cand.scaleFactor = m_scaleFactor;
            cand.resolutionFactor = m_rf;
            cand.leader = leaderOf(item.cls, c);
            // ANGLE FOLLOW/AUTO/AUTO2: the cache lays the label along the line, knowing the font.
            if (!l.angleMode.isEmpty() && m_layer.type == LayerType::Line) {
                cand.line = item.parts;
                cand.lineClip = m_noClip ? QRectF()
                                         : labelLineClip(c, m_resolver, item.values, m_scaleFactor, m_rf, m_view.width, m_view.height);
            }
            if (m_cached) m_labels.add(std::move(cand));
            else LabelCache::drawDirect(m_canvas, cand);
        }
    }

    // The point's marker, once per feature, and once per class when its
    // first style's size and symbol are not read from attributes.
    QSizeF markerOfPoint(const DrawItem& item, const ClassDef& c)
    {
        if (m_pointMarker) return *m_pointMarker;
        const bool fixed = c.styles.isEmpty() || (c.styles.first().size.attribute.isEmpty() && c.styles.first().symbolAttr.isEmpty());
        if (fixed && m_classMarkers.contains(item.cls)) {
            m_pointMarker = m_classMarkers.value(item.cls);
        } else {
            m_pointMarker = pointMarkerSize(c, m_resolver, item.values, m_map);
            if (fixed) m_classMarkers.insert(item.cls, *m_pointMarker);
        }
        return *m_pointMarker;
    }

    // LABEL EXPRESSION (msGetLabelStatus): the label is drawn for the
    // features it matches, tested as a CLASS EXPRESSION is, against
    // CLASSITEM. One that does not compile or bind matches nothing.
    bool labelMatches(int cls, qsizetype index, const LabelDef& l, const QStringList& values)
    {
        if (!l.expression.isSet()) return true;
        const qint64 key = (qint64(cls) << 32) | qint64(index);
        auto found = m_labelExpressions.find(key);
        if (found == m_labelExpressions.end()) {
            std::optional<BoundExpression> bound;
            if (const Result<Expression> compiled = Expression::compile(l.expression))
                bound = compiled->bind(m_fields, m_layer.classItem).toOptional();
            found = m_labelExpressions.insert(key, bound);
        }
        return found.value() && found.value()->matches(values);
    }

    // A class's LEADER, read once per class and render.
    std::shared_ptr<const LabelLeader> leaderOf(int cls, const ClassDef& c)
    {
        auto found = m_leaders.find(cls);
        if (found == m_leaders.end()) {
            const std::optional<LabelLeader> leader = LabelLeader::fromClass(c);
            found = m_leaders.insert(cls, leader ? std::make_shared<const LabelLeader>(*leader) : nullptr);
        }
        return found.value();
    }

    QImage& m_canvas;
    const MapDef& m_map;
    const LayerDef& m_layer;
    const MapView& m_view;
    const FeatureClassifier& m_classifier;
    const StyleResolver& m_resolver;
    const QStringList& m_fields;
    LabelCache& m_labels;
    const double m_rf;           // RESOLUTION / DEFRESOLUTION
    const double m_scaleFactor;  // symbol scale x m_rf
    const bool m_cached;
    const bool m_noClip;         // PROCESSING LABEL_NO_CLIP
    QHash<int, QSizeF> m_classMarkers;
    QHash<int, std::shared_ptr<const LabelLeader>> m_leaders;
    QHash<qint64, std::optional<BoundExpression>> m_labelExpressions;
    std::optional<QSizeF> m_pointMarker;  // the current feature's
};

}  // namespace

void queueLabels(QImage& canvas, const DrawItemQueue& items, const MapDef& map, const LayerDef& layer, const MapView& view,
                 const FeatureClassifier& classifier, const StyleResolver& resolver, const QStringList& fields,
                 double symbolScale, LabelCache& labels)
{
    FeatureLabeller labeller(canvas, map, layer, view, classifier, resolver, fields, symbolScale, labels);
    for (qsizetype i = 0; i < items.size(); ++i) labeller.queue(items[i]);
}

QString labelFontError(const MapDef& map, const LayerDef& layer)
{
    for (const ClassDef& c : layer.classes)
        for (const LabelDef& l : c.labels) {
            if (l.type != LabelType::TrueType || l.font.isEmpty() || l.font.startsWith(QLatin1Char('['))) continue;
            const QString key = l.font.section(QLatin1Char(','), 0, 0).section(QLatin1Char(':'), -1).trimmed();
            // The first file of its list the FONTSET has (the text layout tries them in turn).
            QString path;
            for (const FontList::Entry& e : FontList::parse(l.font, map.fonts).entries)
                if (path.isEmpty()) path = e.path;
            if (path.isEmpty())
                return QStringLiteral("msGetFontFace(): General error message. Could not find font with key \"%1\" in fontset").arg(key);
            if (!FontFace::forThread(path))
                return QStringLiteral("msGetFontFace(): General error message. Freetype was unable to load font file \"%1\" for key \"%2\"")
                    .arg(path, key);
        }
    return {};
}

}  // namespace maptune
