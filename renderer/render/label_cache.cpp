#include "render/label_cache.h"

#include "encode/vector_surface.h"
#include "render/label_footprint.h"
#include "render/line_label_path.h"
#include "render/line_offset.h"
#include "render/stroke_painter.h"
#include "render/text_painter.h"

#include <QPainter>
#include <QPainterPath>
#include <QTransform>

#include <algorithm>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

constexpr double kSlop = 2;  // MapServer's gap between anchor and text for the side positions

QString extra(const LabelDef& l, const char* keyword)
{
    for (const ExtraProperty& e : l.extras)
        if (e.keyword.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0 && !e.args.isEmpty()) return e.args.first();
    return {};
}

bool isWord(const QString& value, const char* word)
{
    return value.compare(QLatin1String(word), Qt::CaseInsensitive) == 0;
}

TextAlign alignOf(const QString& a)
{
    if (isWord(a, "LEFT")) return TextAlign::Left;
    if (isWord(a, "CENTER")) return TextAlign::Center;
    if (isWord(a, "RIGHT")) return TextAlign::Right;
    return TextAlign::Default;
}

TextPath layoutFor(const LabelCandidate& c)
{
    TextLayoutOptions o;
    o.glyphSize = c.glyphSize;
    if (!c.style.wrap.isEmpty()) o.wrap = c.style.wrap.front();
    o.maxLength = c.style.maxLength;
    o.align = alignOf(c.style.align);
    return TextPath::layout(c.text, c.fonts, o);
}

// Where the lower left corner of the text's box goes relative to the
// anchor, for a box w x h and offsets ox, oy (get_metrics).
QPointF cornerOffset(LabelPosition pos, const TextPath& t, double ox, double oy)
{
    const double w = t.bounds.width(), h = t.bounds.height();
    const double sideY = oy > 0 && t.lines == 1 ? oy : h / 2;
    switch (pos) {
    case LabelPosition::UL: return {-w - ox, -oy};
    case LabelPosition::UR: return {ox, -oy};
    case LabelPosition::LL: return {-w - ox, h + oy};
    case LabelPosition::LR: return {ox, h + oy};
    case LabelPosition::UC: return {-w / 2, -oy - kSlop};
    case LabelPosition::LC: return {-w / 2, h + oy + kSlop};
    case LabelPosition::CL: return {-w - ox - kSlop, sideY};
    case LabelPosition::CR: return {ox + kSlop, sideY};
    default: return {-w / 2 + ox, h / 2 + oy};
    }
}

// POSITION AUTO's candidates, in MapServer's order: a label with a marker
// goes around it, whatever its layer's type.
QList<LabelPosition> autoPositions(LayerType type, bool hasMarker)
{
    using P = LabelPosition;
    if (type == LayerType::Polygon && !hasMarker) return {P::CC, P::UC, P::LC, P::CL, P::CR};
    if (type == LayerType::Line && !hasMarker) return {P::UC, P::LC, P::CC};
    return {P::UL, P::LR, P::UR, P::LL, P::CR, P::CL, P::UC, P::LC};
}

// The room a marker of `size` centred on `at` takes (MapServer's marker
// cache: w-1 by h-1 from the corner half a marker up and left).
QRectF markerBox(QPointF at, QSizeF size)
{
    return QRectF(at.x() - size.width() / 2, at.y() - size.height() / 2, std::max(0.0, size.width() - 1),
                  std::max(0.0, size.height() - 1));
}

// What a label's own markers (labelpnt styles) cover around its point.
QRectF labelMarkersBox(const LabelCandidate& c)
{
    QRectF box;
    for (const MarkerStyle& m : c.labelMarkers) {
        const QSizeF size = SymbolPainter::markerSize(m);
        const QRectF r(c.anchor.x() - size.width() / 2, c.anchor.y() - size.height() / 2, size.width(), size.height());
        box = box.isNull() ? r : box.united(r);
    }
    return box;
}

// One label ready to draw: its glyphs, the box its text takes (PARTIALS,
// MINDISTANCE) and what it covers for collisions (with BUFFER).
struct LabelShape {
    QList<GlyphPlacement> glyphs;
    QRectF ink;
    LabelFootprint footprint;
    QPolygonF labelPoly;  // the text's box grown by a pixel: GEOMTRANSFORM labelpoly
    double buffer = 0;    // BUFFER in pixels, counted in PARTIALS FALSE's test (straight labels)
};

QPolygonF boxPolygon(const QTransform& t, const QRectF& r)
{
    QPolygonF box = t.map(QPolygonF(r));
    if (box.size() > 1 && box.first() == box.last()) box.removeLast();
    return box;
}

// A label drawn in one piece at `anchor`, turned by `angle` about it.
LabelShape straightShape(const LabelCandidate& c, const TextPath& text, QPointF anchor, double angle, LabelPosition pos)
{
    const bool followOffset = c.style.offsetY == LineOffset::SingleSided || c.style.offsetY == LineOffset::DoubleSided;
    // Every position but CC keeps clear of the marker by half its size.
    const bool centred = pos == LabelPosition::CC;
    double ox, oy;
    if (c.markerOnMap && c.labelMarkers.isEmpty()) {
        // Off a point's own marker, msDrawLabelCache's integer offsets: the
        // label's OFFSET scaled and truncated, plus half the cached marker's
        // box, which spans w - 1 pixels, and half an outlined label's outline.
        const int labelOx = followOffset ? 0 : int(c.style.offsetX * c.scaleFactor);
        const int labelOy = followOffset ? 0 : int(c.style.offsetY * c.scaleFactor);
        const double outline = c.style.outlineColor.color.isSet() ? c.style.outlineWidth / 2 * c.scaleFactor : 0;
        ox = int(labelOx + (centred ? 0 : (c.marker.width() - 1) / 2 + outline));
        oy = int(labelOy + (centred ? 0 : (c.marker.height() - 1) / 2 + outline));
    } else {
        ox = (followOffset ? 0 : c.style.offsetX * c.scaleFactor) + (centred ? 0 : c.marker.width() / 2);
        oy = (followOffset ? 0 : c.style.offsetY * c.scaleFactor) + (centred ? 0 : c.marker.height() / 2);
    }
    // The text's origin (the last line's baseline start) from the box's corner.
    const QPointF origin = cornerOffset(pos, text, ox, oy) - QPointF(text.bounds.left(), text.bounds.bottom());
    QTransform t;
    t.translate(anchor.x(), anchor.y());
    t.rotate(-angle);
    LabelShape s;
    s.glyphs = TextPainter::place(text, t.map(origin), angle);
    const QRectF box = text.bounds.translated(origin);
    s.ink = t.mapRect(box);
    const double b = c.style.buffer * c.scaleFactor;
    // (Labels turned along a line by ANGLE AUTO/AUTO2 are tested without it: map2img keeps them.)
    s.buffer = c.style.angleMode.isEmpty() ? b : 0;
    s.footprint.add(boxPolygon(t, box.adjusted(-b, -b, b, b)));
    // Unrounded: the box's crisp look comes from the fill's gamma (drawBackgrounds).
    s.labelPoly = boxPolygon(t, box.adjusted(-1, -1, 1, 1));
    return s;
}

LineLabelPath::Mode angleMode(const QString& mode)
{
    if (isWord(mode, "FOLLOW")) return LineLabelPath::Mode::Follow;
    if (isWord(mode, "AUTO2")) return LineLabelPath::Mode::Auto2;
    return LineLabelPath::Mode::Auto;
}

// The lines a label is placed on: clipped as the candidate says (MapServer
// labels the visible part), and for OFFSET x -99 / -999 moved off the line by x
// plus half the text size, -99 to the line's top side.
QList<QPolygonF> labelLines(const LabelCandidate& c, const QRectF& image)
{
    QList<QPolygonF> lines = c.line;
    const LabelDef& l = c.style;
    const bool perpendicular = l.offsetY == LineOffset::SingleSided || l.offsetY == LineOffset::DoubleSided;
    if (perpendicular && l.offsetX != 0 && !lines.isEmpty() && lines.first().size() > 1) {
        double offset = l.offsetX > 0 ? l.offsetX + c.glyphSize / 2.0 : l.offsetX - c.glyphSize / 2.0;
        if (l.offsetY == LineOffset::SingleSided && lines.first().first().x() < lines.first().last().x()) offset = -offset;
        lines = LineOffset::offset(lines, offset);
    }
    if (!c.lineClip) return LineLabelPath::clip(lines, image.adjusted(-2, -2, 2, 2));
    return c.lineClip->isNull() ? lines : LineLabelPath::clip(lines, *c.lineClip);
}

// A label following its line: every glyph turned and placed on it.
LabelShape followShape(const LabelCandidate& c, const TextPath& text, const QList<PathGlyph>& placed, double height)
{
    LabelShape s;
    const double b = c.style.buffer * c.scaleFactor;
    for (qsizetype k = 0; k < placed.size() && k < text.glyphs.size(); ++k) {
        QTransform t;
        t.translate(placed[k].origin.x(), placed[k].origin.y());
        t.rotate(-placed[k].angle);
        s.glyphs << GlyphPlacement{text.glyphs[k].shape, t};
        const QRectF box(0, -height, text.glyphs[k].shape->advance, height);
        s.ink = s.ink.united(t.mapRect(box));
        s.footprint.add(boxPolygon(t, box.adjusted(-b, -b, b, b)));
    }
    return s;
}

// Where ANGLE FOLLOW / AUTO / AUTO2 put a label on a line feature.
LineLabelLayout lineLayout(const LabelCandidate& c, const TextPath& text, const QRectF& image)
{
    LineLabelPath::Params p;
    for (const PlacedGlyph& g : text.glyphs) {
        p.advances << g.shape->advance;
        p.spaces << g.shape->isSpace;
    }
    p.mode = angleMode(c.style.angleMode);
    p.glyphHeight = c.glyphSize;
    const QString overlap = extra(c.style, "MAXOVERLAPANGLE");
    if (!overlap.isEmpty()) p.maxOverlapAngle = overlap.toDouble();
    p.autoMinFeatureSize = isWord(extra(c.style, "MINFEATURESIZE"), "AUTO");
    if (c.style.minFeatureSize > 0) p.minFeatureSize = c.style.minFeatureSize * c.resolutionFactor;
    p.repeatDistance = c.style.repeatDistance * c.resolutionFactor;
    p.force = c.style.force;
    return LineLabelPath::place(labelLines(c, image), p);
}

// Every placement found on a line, as label cache candidates.
QList<LabelShape> lineShapes(const LabelCandidate& c, const TextPath& text, const QRectF& image)
{
    const LineLabelLayout layout = lineLayout(c, text, image);
    QList<LabelShape> shapes;
    const double height = text.bounds.height();
    for (const QList<PathGlyph>& glyphs : layout.follow) shapes << followShape(c, text, glyphs, height);
    for (const PathPoint& pt : layout.points) shapes << straightShape(c, text, pt.point, pt.angle, LabelPosition::CC);
    return shapes;
}

// Label STYLEs, in their order before the text: markers at the label point
// (labelpnt), boxes around the text (labelpoly).
void drawBackgrounds(QImage& canvas, const LabelCandidate& c, const QPolygonF& poly)
{
    if (!c.labelMarkers.isEmpty()) {
        QPainter p(VectorSurface::deviceFor(canvas));
        p.setRenderHint(QPainter::Antialiasing);
        for (const MarkerStyle& m : c.labelMarkers) SymbolPainter::drawMarker(p, c.anchor, m);
    }
    if (poly.isEmpty()) return;
    for (const StyleDef& s : c.style.styles) {
        if (s.geomTransform.compare(QLatin1String("labelpoly"), Qt::CaseInsensitive) != 0) continue;
        const Color& fill = s.color.color;
        const Color& line = s.outlineColor.color;
        QPainter p(VectorSurface::deviceFor(canvas));
        p.setRenderHint(QPainter::Antialiasing);
        QPainterPath path;
        path.addPolygon(poly);
        path.closeSubpath();
        // Filled as every polygon (agg2RenderPolygon: AGG's 0.75 linear gamma),
        // outlined as a line (no gamma).
        if (fill.isSet()) StrokePainter::fillRings(p, {poly}, QColor(fill.r, fill.g, fill.b, fill.a));
        if (line.isSet()) p.strokePath(path, QPen(QColor(line.r, line.g, line.b, line.a), std::max(1.0, s.width.value * c.scaleFactor)));
    }
}

TextInk inkOf(const LabelCandidate& c)
{
    TextInk ink;
    ink.color = c.style.color.color;
    ink.outline = c.style.outlineColor.color;
    ink.outlineWidth = c.style.outlineWidth * c.scaleFactor;
    ink.shadow = c.style.shadowColor.color;
    ink.shadowX = c.style.shadowSizeX * c.scaleFactor;
    ink.shadowY = c.style.shadowSizeY * c.scaleFactor;
    return ink;
}

struct Placed {
    LabelFootprint footprint;
    QRectF ink;
    QString text;
    QPointF anchor;
    int group = 0;
    QLineF leader;  // from the label point to the moved label; null: none
};

// Items filed under the grid cells their boxes touch, so that a collision
// test visits the neighbours only: with thousands of labels and markers a
// test against every one was most of a label-heavy map's time. Boxes off
// the canvas are filed in its edge cells.
class CellIndex {
public:
    CellIndex(int width, int height)
        : m_cols(std::max(1, (width + kCell - 1) / kCell)), m_rows(std::max(1, (height + kCell - 1) / kCell)),
          m_cells(size_t(m_cols) * size_t(m_rows))
    {
    }
    void insert(const QRectF& box, qsizetype id)
    {
        forCells(box, [&](size_t cell) { m_cells[cell].push_back(id); });
        m_seen.resize(std::max<size_t>(m_seen.size(), size_t(id) + 1), 0);
    }
    // Whether `test` holds for an item filed near `box`; each item tested once.
    template <class Test>
    bool any(const QRectF& box, const Test& test) const
    {
        ++m_stamp;
        bool found = false;
        forCells(box, [&](size_t cell) {
            for (qsizetype id : m_cells[cell]) {
                if (found || m_seen[size_t(id)] == m_stamp) continue;
                m_seen[size_t(id)] = m_stamp;
                found = test(id);
            }
        });
        return found;
    }

private:
    static constexpr int kCell = 64;
    template <class Visit>
    void forCells(const QRectF& box, const Visit& visit) const
    {
        // Written so that NaN lands in cell 0 rather than in undefined behaviour.
        auto clampTo = [](double v, int n) {
            const double q = v / kCell;
            return !(q > 0) ? 0 : q >= n ? n - 1 : int(q);
        };
        const int c0 = clampTo(box.left(), m_cols), c1 = clampTo(box.right(), m_cols);
        const int r0 = clampTo(box.top(), m_rows), r1 = clampTo(box.bottom(), m_rows);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) visit(size_t(r) * size_t(m_cols) + size_t(c));
    }
    int m_cols, m_rows;
    std::vector<std::vector<qsizetype>> m_cells;
    mutable std::vector<unsigned> m_seen;
    mutable unsigned m_stamp = 0;
};

// A box covering a point too (a placed label's anchor, for MINDISTANCE).
QRectF covering(QRectF box, QPointF p)
{
    if (box.isNull()) return QRectF(p, p).adjusted(-0.5, -0.5, 0.5, 0.5);
    return QRectF(QPointF(std::min(box.left(), p.x()), std::min(box.top(), p.y())),
                  QPointF(std::max(box.right(), p.x()), std::max(box.bottom(), p.y())));
}

class Placement {
public:
    Placement(const QImage& canvas, double gutter)
        : m_width(canvas.width()), m_height(canvas.height()), m_gutter(gutter), m_placedIndex(m_width, m_height),
          m_markerIndex(m_width, m_height)
    {
    }

    // Markers already on the map, with the priority and group of the label
    // that brought them.
    void addMarker(const QRectF& box, int priority, qsizetype group)
    {
        LabelFootprint f;
        f.add(QPolygonF(box));
        m_markerIndex.insert(f.bounds(), m_markers.size());
        m_markers.push_back(MarkerRoom{f, priority, group});
    }

    bool fits(const LabelCandidate& c, const LabelShape& s, const QList<Placed>& pending, bool forceGroup, int priority,
              qsizetype group) const
    {
        // PARTIALS FALSE (msTestLabelCacheCollisions, labelInImage): a
        // straight label's bounds with its BUFFER must lie inside the image.
        const QRectF whole = s.ink.adjusted(-s.buffer, -s.buffer, s.buffer, s.buffer);
        if (!c.style.partials
            && (whole.left() < m_gutter || whole.top() < m_gutter || whole.right() >= m_width - m_gutter
                || whole.bottom() >= m_height - m_gutter))
            return false;
        if (c.style.force) return true;
        const QRectF near = s.footprint.bounds();
        // Labels may cover their own marker and those of lower priorities.
        if (m_markerIndex.any(near, [&](qsizetype i) {
                const MarkerRoom& m = m_markers[size_t(i)];
                return m.priority >= priority && m.group != group && m.footprint.intersects(s.footprint);
            }))
            return false;
        auto clashes = [&](const Placed& p) { return p.footprint.intersects(s.footprint); };
        if (m_placedIndex.any(near, [&](qsizetype i) { return clashes(m_placed[i]); })) return false;
        // Placed labels' leader lines are obstacles too.
        for (const QLineF& leader : m_leaders)
            if (s.footprint.crossedBy(leader)) return false;
        if (!forceGroup && std::any_of(pending.cbegin(), pending.cend(), clashes)) return false;
        if (c.style.minDistance > 0) {
            const double d = c.style.minDistance * c.resolutionFactor;
            const QRectF grown = s.ink.adjusted(-d, -d, d, d);
            if (m_placedIndex.any(grown, [&](qsizetype i) {
                    const Placed& p = m_placed[i];
                    return p.text == c.text && (grown.contains(p.anchor) || grown.intersects(p.ink));
                }))
                return false;
        }
        return true;
    }
    void commit(const QList<Placed>& placed)
    {
        for (const Placed& p : placed) {
            m_placedIndex.insert(covering(p.footprint.bounds().united(p.ink), p.anchor), m_placed.size());
            m_placed << p;
            if (!p.leader.isNull()) m_leaders << p.leader;
        }
    }

    // msTestLabelCacheLeaderCollision: a leader line may not cross a placed
    // label's edges, nor the leader of a placed label whose box it meets.
    bool leaderFits(const QLineF& leader) const
    {
        const QRectF box = QRectF(leader.p1(), leader.p2()).normalized().adjusted(-0.5, -0.5, 0.5, 0.5);
        return !m_placedIndex.any(box, [&](qsizetype i) {
            const Placed& p = m_placed[i];
            if (!p.footprint.bounds().intersects(box)) return false;
            return p.footprint.crossedBy(leader) || (!p.leader.isNull() && segmentsIntersect(leader, p.leader));
        });
    }

    // Whether a point is off the map's edge buffer (labelcache_map_edge_buffer).
    bool insideGutter(QPointF p) const
    {
        return p.x() >= m_gutter && p.y() >= m_gutter && p.x() < m_width - m_gutter && p.y() < m_height - m_gutter;
    }

private:
    struct MarkerRoom {
        LabelFootprint footprint;
        int priority;
        qsizetype group;
    };
    int m_width, m_height;
    double m_gutter;
    QList<Placed> m_placed;
    QList<QLineF> m_leaders;
    std::vector<MarkerRoom> m_markers;
    CellIndex m_placedIndex, m_markerIndex;
};

struct Group {
    qsizetype first = 0, count = 0;
    int priority = 1;
};

QList<Group> groupsOf(const QList<LabelCandidate>& candidates)
{
    QList<Group> groups;
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        if (!groups.isEmpty() && candidates[i].group != 0 && candidates[i].group == candidates[groups.last().first].group) {
            ++groups.last().count;
            continue;
        }
        groups << Group{i, 1, std::clamp(candidates[i].style.priority, 1, 10)};
    }
    return groups;
}

// A group that did not fit at its label point, kept for its LEADER: each
// label with the position it had there (none: markers only).
struct Deferred {
    qsizetype first = 0;
    int priority = 1;
    QList<std::pair<qsizetype, std::optional<LabelPosition>>> members;
};

// msDrawOffsettedLabels: the group moved as a whole to each of its leader's
// offsets in turn; where every label fits (not against each other), and the
// leader line crosses no placed label, the group and its line are placed
// and drawn, the line first. Returns the labels drawn.
int placeWithLeader(QImage& canvas, const Deferred& d, const QList<LabelCandidate>& candidates, Placement& placement,
                    QList<LayerTrace>* layers)
{
    const LabelCandidate& head = candidates[d.first];
    const QPointF origin = head.anchor;
    if (!placement.insideGutter(origin)) return 0;
    struct Moved {
        LabelCandidate candidate;
        LabelShape shape;
    };
    for (const QPoint& offset : head.leader->offsets()) {
        const QPointF to = origin + offset;
        if (!placement.insideGutter(to)) continue;
        QList<Moved> moved;
        bool fits = true;
        for (const auto& [index, position] : d.members) {
            LabelCandidate c = candidates[index];
            c.anchor += offset;
            const QRectF ownMarkers = labelMarkersBox(c);
            LabelShape s;
            const TextPath text = layoutFor(c);
            if (!position || text.isEmpty()) {
                if (ownMarkers.isNull()) continue;
                s.ink = ownMarkers;
                s.footprint.add(QPolygonF(ownMarkers));
            } else {
                s = straightShape(c, text, c.anchor, c.angle, *position);
                if (!ownMarkers.isNull()) s.footprint.add(QPolygonF(ownMarkers));
            }
            if (layers && c.layer >= 0 && c.layer < layers->size()) ++(*layers)[c.layer].labelsTried;
            if (!placement.fits(c, s, {}, true, d.priority, d.first)) {
                fits = false;
                break;
            }
            moved.append({std::move(c), std::move(s)});
        }
        const QLineF leader(origin, to);
        if (!fits || moved.isEmpty() || !placement.leaderFits(leader)) continue;
        QList<Placed> placed;
        for (const Moved& m : moved)
            placed << Placed{m.shape.footprint, m.shape.ink, m.candidate.text, m.candidate.anchor, int(d.first), {}};
        placed.first().leader = leader;
        placement.commit(placed);
        head.leader->draw(canvas, leader, head.scaleFactor);
        for (const Moved& m : moved) {
            drawBackgrounds(canvas, m.candidate, m.shape.labelPoly);
            TextPainter::draw(canvas, m.shape.glyphs, inkOf(m.candidate));
            if (layers && m.candidate.layer >= 0 && m.candidate.layer < layers->size()) ++(*layers)[m.candidate.layer].labelsPlaced;
        }
        return int(moved.size());
    }
    return 0;
}

}  // namespace

int labelGlyphSize(const LabelDef& label, double size, double scaleFactor, double resolutionFactor)
{
    if (size <= 0) {
        static const QStringList words{QStringLiteral("TINY"), QStringLiteral("SMALL"), QStringLiteral("MEDIUM"),
                                       QStringLiteral("LARGE"), QStringLiteral("GIANT")};
        static const double sizes[] = {5, 7, 10, 13, 16};
        const qsizetype i = words.indexOf(label.bitmapSize.toUpper());
        size = sizes[i < 0 ? 2 : i];
    }
    const double lo = label.minSize * resolutionFactor, hi = std::max(lo, label.maxSize * resolutionFactor);
    return std::max(1, int(std::lround(std::clamp(size * scaleFactor, lo, hi))));
}

void LabelCache::drawDirect(QImage& canvas, const LabelCandidate& c)
{
    const TextPath text = layoutFor(c);
    if (text.isEmpty()) {
        drawBackgrounds(canvas, c, {});
        return;
    }
    const LabelPosition pos = c.style.position == LabelPosition::Auto ? LabelPosition::CC : c.style.position;
    if (c.layerType != LayerType::Line) {
        const LabelShape s = straightShape(c, text, c.anchor, c.angle, pos);
        drawBackgrounds(canvas, c, s.labelPoly);
        TextPainter::draw(canvas, s.glyphs, inkOf(c));
        return;
    }
    // On lines MapServer draws the text itself at each label point: the
    // last line's baseline starts there (no POSITION, no label styles).
    if (c.line.isEmpty()) {
        TextPainter::draw(canvas, TextPainter::place(text, c.anchor, c.angle), inkOf(c));
        return;
    }
    const LineLabelLayout layout = lineLayout(c, text, QRectF(canvas.rect()));
    const double height = text.bounds.height();
    for (const QList<PathGlyph>& glyphs : layout.follow) TextPainter::draw(canvas, followShape(c, text, glyphs, height).glyphs, inkOf(c));
    for (const PathPoint& pt : layout.points) TextPainter::draw(canvas, TextPainter::place(text, pt.point, pt.angle), inkOf(c));
}

int LabelCache::draw(QImage& canvas, const MapDef& map, QList<LayerTrace>* layers)
{
    auto traceOf = [&](const LabelCandidate& c) -> LayerTrace* {
        return layers && c.layer >= 0 && c.layer < layers->size() ? &(*layers)[c.layer] : nullptr;
    };
    if (m_candidates.isEmpty()) return 0;
    const double gutter = map.web.metadata.value(QStringLiteral("labelcache_map_edge_buffer"), QString()).toDouble();
    Placement placement(canvas, std::max(0.0, gutter));
    for (const QRectF& area : std::as_const(m_obstacles)) {
        Placed obstacle;
        obstacle.footprint.add(QPolygonF(area));
        obstacle.ink = area;
        placement.commit({obstacle});
    }
    const QRectF bounds(0, 0, canvas.width(), canvas.height());
    const QList<Group> groups = groupsOf(m_candidates);
    for (const Group& g : groups) {
        const LabelCandidate& c = m_candidates[g.first];
        if (c.markerOnMap && !c.marker.isEmpty()) placement.addMarker(markerBox(c.anchor, c.marker), g.priority, g.first);
    }
    int drawn = 0;
    for (int priority = 10; priority >= 1; --priority) {
        QList<Deferred> waiting;  // groups for their LEADERs, in the order tried
        for (qsizetype gi = groups.size() - 1; gi >= 0; --gi) {
            const Group& g = groups[gi];
            if (g.priority != priority) continue;
            QList<Placed> pending;
            struct Drawing {
                const LabelCandidate* candidate;
                QList<GlyphPlacement> glyphs;
                QPolygonF labelPoly;
            };
            QList<Drawing> toDraw;
            bool ok = true;
            // With a LEADER a label that does not fit fails nothing yet: the
            // group is kept, each label at its position (or CC), for later.
            const bool leader = m_candidates[g.first].leader != nullptr;
            Deferred deferred{g.first, g.priority, {}};
            bool missed = false;
            for (qsizetype i = g.first; i < g.first + g.count && ok; ++i) {
                const LabelCandidate& c = m_candidates[i];
                const TextPath text = layoutFor(c);
                const QRectF ownMarkers = labelMarkersBox(c);
                const bool forceGroup = isWord(extra(c.style, "FORCE"), "GROUP");
                if (text.isEmpty()) {
                    if (ownMarkers.isNull()) continue;
                    // A label of markers only: placed like one without text.
                    LabelShape s;
                    s.ink = ownMarkers;
                    s.footprint.add(QPolygonF(ownMarkers));
                    if (LayerTrace* t = traceOf(c)) ++t->labelsTried;
                    deferred.members.append({i, std::nullopt});
                    if (!placement.fits(c, s, pending, forceGroup, g.priority, g.first)) {
                        if (leader) {
                            missed = true;
                            continue;
                        }
                        ok = false;
                        break;
                    }
                    pending << Placed{s.footprint, s.ink, c.text, c.anchor, int(g.first), {}};
                    toDraw.append({&c, {}, {}});
                    continue;
                }
                if (!c.line.isEmpty()) {
                    // Each placement along a line stands on its own, tried
                    // in the reverse of the order found (msDrawLabelCache
                    // walks its entries backwards): the centre first, then
                    // outwards; FOLLOW placements after the straight ones, last first.
                    const QList<LabelShape> shapes = lineShapes(c, text, bounds);
                    for (auto it = shapes.crbegin(); it != shapes.crend(); ++it) {
                        const LabelShape& s = *it;
                        if (LayerTrace* t = traceOf(c)) ++t->labelsTried;
                        if (!placement.fits(c, s, pending, forceGroup, g.priority, g.first)) continue;
                        placement.commit({Placed{s.footprint, s.ink, c.text, s.ink.center(), int(g.first), {}}});
                        toDraw.append({&c, s.glyphs, s.labelPoly});
                    }
                    continue;
                }
                const QList<LabelPosition> positions = c.style.position == LabelPosition::Auto
                                                           ? autoPositions(c.layerType, !c.marker.isEmpty())
                                                           : QList<LabelPosition>{c.style.position};
                std::optional<LabelShape> chosen;
                LabelPosition at = c.style.position == LabelPosition::Auto ? LabelPosition::CC : c.style.position;
                for (qsizetype k = 0; k < positions.size() && !chosen; ++k) {
                    LabelShape s = straightShape(c, text, c.anchor, c.angle, positions[k]);
                    if (!ownMarkers.isNull()) s.footprint.add(QPolygonF(ownMarkers));
                    if (LayerTrace* t = traceOf(c)) ++t->labelsTried;
                    if (placement.fits(c, s, pending, forceGroup, g.priority, g.first)
                        || (c.style.force && k == positions.size() - 1)) {
                        chosen = std::move(s);
                        at = positions[k];
                    }
                }
                deferred.members.append({i, at});
                if (!chosen && leader) {
                    missed = true;
                    continue;
                }
                if (!chosen) {
                    ok = false;
                    break;
                }
                pending << Placed{chosen->footprint, chosen->ink, c.text, c.anchor, int(g.first), {}};
                toDraw.append({&c, chosen->glyphs, chosen->labelPoly});
            }
            if (!ok) continue;
            if (missed) {
                waiting << deferred;
                continue;
            }
            placement.commit(pending);
            for (const Drawing& d : toDraw) {
                drawBackgrounds(canvas, *d.candidate, d.labelPoly);
                TextPainter::draw(canvas, d.glyphs, inkOf(*d.candidate));
                if (LayerTrace* t = traceOf(*d.candidate)) ++t->labelsPlaced;
                ++drawn;
            }
        }
        for (const Deferred& d : std::as_const(waiting)) drawn += placeWithLeader(canvas, d, m_candidates, placement, layers);
    }
    return drawn;
}

}  // namespace maptune
