#include "render/label_cache.h"

#include "render/label_footprint.h"
#include "render/line_label_path.h"
#include "render/line_offset.h"

#include <QFont>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHash>
#include <QMutex>
#include <QPainter>
#include <QPainterPath>
#include <QTextBoundaryFinder>
#include <QTransform>

#include <algorithm>

namespace maptune {

namespace {

// Application fonts are registered once per process (QFontDatabase is
// thread-safe for this); the family name is what QFont needs. Bounded: past
// kMaxFonts distinct files (maps reloaded with ever new FONTSETs) the cache
// starts over rather than grow.
QString familyForFile(const QString& path)
{
    constexpr qsizetype kMaxFonts = 1024;
    static QMutex mutex;
    static QHash<QString, QString> families;
    QMutexLocker lock(&mutex);
    if (auto it = families.constFind(path); it != families.constEnd()) return *it;
    if (families.size() >= kMaxFonts) families.clear();
    QString family;
    const int id = QFontDatabase::addApplicationFont(path);
    if (id >= 0) {
        const QStringList fams = QFontDatabase::applicationFontFamilies(id);
        if (!fams.isEmpty()) family = fams.first();
    }
    families.insert(path, family);
    return family;
}

QFont fontFor(const LabelCandidate& c)
{
    QFont font;
    if (!c.fontPath.isEmpty()) {
        const QString family = familyForFile(c.fontPath);
        if (!family.isEmpty()) font = QFont(family);
    }
    font.setPixelSize(std::max(1, int(c.size + 0.5)));
    return font;
}

QPointF placementOffset(LabelPosition pos, const QSizeF& size, double gap)
{
    // Offset of the text box's top-left from the anchor for each position.
    const double w = size.width(), h = size.height();
    switch (pos) {
    case LabelPosition::UL: return {-w - gap, -h - gap};
    case LabelPosition::UC: return {-w / 2, -h - gap};
    case LabelPosition::UR: return {gap, -h - gap};
    case LabelPosition::CL: return {-w - gap, -h / 2};
    case LabelPosition::CR: return {gap, -h / 2};
    case LabelPosition::LL: return {-w - gap, gap};
    case LabelPosition::LC: return {-w / 2, gap};
    case LabelPosition::LR: return {gap, gap};
    default: return {-w / 2, -h / 2};
    }
}

// One label ready to draw: its outline in pixels, the area its ink takes
// (PARTIALS) and what it covers for collisions (with BUFFER).
struct LabelShape {
    QPainterPath path;
    QRectF ink;
    LabelFootprint footprint;
};

QPolygonF boxPolygon(const QTransform& t, const QRectF& r)
{
    QPolygonF box = t.map(QPolygonF(r));
    if (box.size() > 1 && box.first() == box.last()) box.removeLast();
    return box;
}

// A label drawn in one piece at `anchor`, turned by `angle` about it.
LabelShape straightShape(const LabelCandidate& c, const QFont& font, QPointF anchor, double angle)
{
    const QFontMetricsF fm(font);
    const QSizeF size(fm.horizontalAdvance(c.text), fm.ascent() + fm.descent());
    const QPointF topLeft = placementOffset(c.style.position, size, 0) + QPointF(c.style.offsetX, c.style.offsetY);
    QTransform t;
    t.translate(anchor.x(), anchor.y());
    t.rotate(-angle);
    t.translate(topLeft.x(), topLeft.y());
    LabelShape s;
    QPainterPath text;
    text.addText(QPointF(0, fm.ascent()), font, c.text);
    s.path = t.map(text);
    const QRectF box(QPointF(0, 0), size);
    s.ink = t.mapRect(box);
    const double b = c.style.buffer;
    s.footprint.add(boxPolygon(t, box.adjusted(-b, -b, b, b)));
    return s;
}

// The text split into characters (grapheme clusters) with their advances;
// each advance is the growth of the whole prefix, so kerning is kept.
struct Characters {
    QStringList text;
    LineLabelPath::Params params;
};

Characters characters(const QString& text, const QFontMetricsF& fm)
{
    Characters out;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    qsizetype start = 0;
    double before = 0;
    while (finder.toNextBoundary() != -1) {
        const qsizetype end = finder.position();
        const QString cluster = text.mid(start, end - start);
        const double upTo = fm.horizontalAdvance(text.left(end));
        out.text << cluster;
        out.params.advances << upTo - before;
        out.params.spaces << cluster.trimmed().isEmpty();
        before = upTo;
        start = end;
    }
    return out;
}

QString extra(const LabelDef& l, const char* keyword)
{
    for (const ExtraProperty& e : l.extras)
        if (e.keyword.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0 && !e.args.isEmpty()) return e.args.first();
    return {};
}

LineLabelPath::Mode angleMode(const QString& mode)
{
    if (mode.compare(QLatin1String("FOLLOW"), Qt::CaseInsensitive) == 0) return LineLabelPath::Mode::Follow;
    if (mode.compare(QLatin1String("AUTO2"), Qt::CaseInsensitive) == 0) return LineLabelPath::Mode::Auto2;
    return LineLabelPath::Mode::Auto;
}

// The lines a label is placed on: clipped to the image (MapServer labels
// the visible part), and for OFFSET x -99 / -999 moved off the line by x
// plus half the text size, -99 to the line's top side.
QList<QPolygonF> labelLines(const LabelCandidate& c, const QRectF& image)
{
    QList<QPolygonF> lines = c.line;
    const LabelDef& l = c.style;
    const bool perpendicular = l.offsetY == LineOffset::SingleSided || l.offsetY == LineOffset::DoubleSided;
    if (perpendicular && l.offsetX != 0 && !lines.isEmpty() && lines.first().size() > 1) {
        double offset = l.offsetX > 0 ? l.offsetX + c.size / 2 : l.offsetX - c.size / 2;
        if (l.offsetY == LineOffset::SingleSided && lines.first().first().x() < lines.first().last().x()) offset = -offset;
        lines = LineOffset::offset(lines, offset);
    }
    return LineLabelPath::clip(lines, image.adjusted(-2, -2, 2, 2));
}

// A label following its line: every character turned and placed on it.
LabelShape followShape(const LabelCandidate& c, const QFont& font, const Characters& chars,
                       const QList<PathGlyph>& glyphs)
{
    LabelShape s;
    const double b = c.style.buffer, h = chars.params.glyphHeight;
    for (qsizetype k = 0; k < glyphs.size(); ++k) {
        QTransform t;
        t.translate(glyphs[k].origin.x(), glyphs[k].origin.y());
        t.rotate(-glyphs[k].angle);
        QPainterPath glyph;
        glyph.addText(QPointF(0, 0), font, chars.text[k]);
        s.path.setFillRule(glyph.fillRule());
        s.path.addPath(t.map(glyph));
        const QRectF box(0, -h, chars.params.advances[k], h);
        s.ink = s.ink.united(t.mapRect(box));
        s.footprint.add(boxPolygon(t, box.adjusted(-b, -b, b, b)));
    }
    return s;
}

// ANGLE FOLLOW / AUTO / AUTO2 on a line feature: every placement found.
QList<LabelShape> lineShapes(const LabelCandidate& c, const QFont& font, const QRectF& image)
{
    const QFontMetricsF fm(font);
    Characters chars = characters(c.text, fm);
    LineLabelPath::Params& p = chars.params;
    p.mode = angleMode(c.style.angleMode);
    p.glyphHeight = c.size;
    const QString overlap = extra(c.style, "MAXOVERLAPANGLE");
    if (!overlap.isEmpty()) p.maxOverlapAngle = overlap.toDouble();
    p.autoMinFeatureSize = extra(c.style, "MINFEATURESIZE").compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0;
    if (c.style.minFeatureSize > 0) p.minFeatureSize = c.style.minFeatureSize * c.resolutionFactor;
    p.repeatDistance = c.style.repeatDistance * c.resolutionFactor;
    p.force = c.style.force;
    const LineLabelLayout layout = LineLabelPath::place(labelLines(c, image), p);
    QList<LabelShape> shapes;
    for (const QList<PathGlyph>& glyphs : layout.follow) shapes << followShape(c, font, chars, glyphs);
    for (const PathPoint& pt : layout.points) shapes << straightShape(c, font, pt.point, pt.angle);
    return shapes;
}

void paintLabel(QPainter& p, const LabelShape& s, const LabelDef& style)
{
    const Color& oc = style.outlineColor.color;
    if (oc.isSet()) {
        QPen pen(QColor(oc.r, oc.g, oc.b, oc.a), style.outlineWidth * 2);
        pen.setJoinStyle(Qt::RoundJoin);
        p.strokePath(s.path, pen);
    }
    const Color& col = style.color.color;
    p.fillPath(s.path, QColor(col.r, col.g, col.b, col.a));
}

}  // namespace

int LabelCache::draw(QImage& canvas, const MapDef& map)
{
    Q_UNUSED(map);
    if (m_candidates.isEmpty()) return 0;
    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const LabelCandidate& a, const LabelCandidate& b) { return a.style.priority > b.style.priority; });
    QPainter p(&canvas);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    QList<LabelFootprint> placed;
    int drawn = 0;
    const QRectF bounds(0, 0, canvas.width(), canvas.height());
    for (const LabelCandidate& c : m_candidates) {
        const QFont font = fontFor(c);
        const QList<LabelShape> shapes = c.line.isEmpty() ? QList<LabelShape>{straightShape(c, font, c.anchor, c.angle)}
                                                          : lineShapes(c, font, bounds);
        for (const LabelShape& s : shapes) {
            if (!c.style.partials && !bounds.contains(s.ink)) continue;
            if (!c.style.force) {
                const bool clash = std::any_of(placed.cbegin(), placed.cend(),
                                               [&](const LabelFootprint& f) { return f.intersects(s.footprint); });
                if (clash) continue;
            }
            placed << s.footprint;
            paintLabel(p, s, c.style);
            ++drawn;
        }
    }
    return drawn;
}

}  // namespace maptune
