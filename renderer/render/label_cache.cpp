#include "render/label_cache.h"

#include <QFont>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHash>
#include <QMutex>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace maptune {

namespace {

// Application fonts are registered once per process (QFontDatabase is
// thread-safe for this); the family name is what QFont needs.
QString familyForFile(const QString& path)
{
    static QMutex mutex;
    static QHash<QString, QString> families;
    QMutexLocker lock(&mutex);
    if (auto it = families.constFind(path); it != families.constEnd()) return *it;
    QString family;
    const int id = QFontDatabase::addApplicationFont(path);
    if (id >= 0) {
        const QStringList fams = QFontDatabase::applicationFontFamilies(id);
        if (!fams.isEmpty()) family = fams.first();
    }
    families.insert(path, family);
    return family;
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
    QList<QRectF> placed;
    int drawn = 0;
    const QRectF bounds(0, 0, canvas.width(), canvas.height());
    for (const LabelCandidate& c : m_candidates) {
        QFont font;
        if (!c.fontPath.isEmpty()) {
            const QString family = familyForFile(c.fontPath);
            if (!family.isEmpty()) font = QFont(family);
        }
        font.setPixelSize(std::max(1, int(c.size + 0.5)));
        const QFontMetricsF fm(font);
        const QSizeF size(fm.horizontalAdvance(c.text), fm.ascent() + fm.descent());
        const QPointF topLeft = c.anchor + placementOffset(c.style.position, size, 0)
                                + QPointF(c.style.offsetX, c.style.offsetY);
        QRectF box(topLeft, size);
        QRectF collision = box.adjusted(-c.style.buffer, -c.style.buffer, c.style.buffer, c.style.buffer);
        if (!c.style.partials && !bounds.contains(box)) continue;
        if (!c.style.force) {
            bool clash = std::any_of(placed.begin(), placed.end(), [&](const QRectF& r) { return r.intersects(collision); });
            if (clash) continue;
        }
        placed << collision;
        QPainterPath path;
        path.addText(QPointF(0, fm.ascent()), font, c.text);
        p.save();
        p.translate(c.anchor);
        p.rotate(-c.angle);
        p.translate(topLeft - c.anchor);
        const Color& oc = c.style.outlineColor.color;
        if (oc.isSet()) {
            QPen pen(QColor(oc.r, oc.g, oc.b, oc.a), c.style.outlineWidth * 2);
            pen.setJoinStyle(Qt::RoundJoin);
            p.strokePath(path, pen);
        }
        const Color& col = c.style.color.color;
        p.fillPath(path, QColor(col.r, col.g, col.b, col.a));
        p.restore();
        ++drawn;
    }
    return drawn;
}

}  // namespace maptune
