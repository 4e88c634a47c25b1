#include "lut_curve_widget.h"

#include "raster/lut_curves.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace maptune {

namespace {

constexpr double kMargin = 8;
constexpr double kGrab = 7;  // pixels: how close a click must be to take a point

}  // namespace

LutCurveWidget::LutCurveWidget(QWidget* parent) : QWidget(parent), m_points(LutCurves::identity())
{
    setFocusPolicy(Qt::ClickFocus);
    setMinimumSize(160, 160);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void LutCurveWidget::setPoints(const QList<QPoint>& points)
{
    m_points = LutCurves::normalized(points);
    m_selected = std::min(m_selected, int(m_points.size()) - 1);
    update();
}

void LutCurveWidget::setCurveColour(const QColor& colour)
{
    m_colour = colour;
    update();
}

QRectF LutCurveWidget::plotRect() const
{
    const double side = std::min(width(), height()) - 2 * kMargin;
    return {kMargin, kMargin, side, side};
}

QPointF LutCurveWidget::toWidget(const QPoint& v) const
{
    const QRectF r = plotRect();
    return {r.left() + v.x() / 255.0 * r.width(), r.bottom() - v.y() / 255.0 * r.height()};
}

QPoint LutCurveWidget::toValue(const QPointF& pos) const
{
    const QRectF r = plotRect();
    return {std::clamp(qRound((pos.x() - r.left()) / r.width() * 255), 0, 255),
            std::clamp(qRound((r.bottom() - pos.y()) / r.height() * 255), 0, 255)};
}

void LutCurveWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = plotRect();
    p.fillRect(r, palette().color(QPalette::Base));
    p.setPen(QPen(palette().color(QPalette::Mid), 0, Qt::DotLine));
    for (int i = 1; i < 4; ++i) {
        p.drawLine(QPointF(r.left() + r.width() * i / 4, r.top()), QPointF(r.left() + r.width() * i / 4, r.bottom()));
        p.drawLine(QPointF(r.left(), r.top() + r.height() * i / 4), QPointF(r.right(), r.top() + r.height() * i / 4));
    }
    p.drawLine(r.bottomLeft(), r.topRight());  // identity
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r);

    // The curve is the table MapServer builds, not our idea of the segments.
    const Lut lut = Lut::fromPoints(LutCurves::pointsText(m_points).toLatin1());
    QPainterPath path(toWidget(QPoint(0, lut[0])));
    for (int i = 1; i < 256; ++i) path.lineTo(toWidget(QPoint(i, lut[i])));
    p.setPen(QPen(m_colour, 2));
    p.drawPath(path);

    for (int i = 0; i < m_points.size(); ++i) {
        p.setBrush(i == m_selected ? m_colour : palette().color(QPalette::Base));
        p.setPen(QPen(m_colour, 1.5));
        p.drawEllipse(toWidget(m_points[i]), 4.5, 4.5);
    }
    if (m_selected >= 0) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(r.adjusted(4, 2, -4, -2), Qt::AlignLeft | Qt::AlignTop,
                   QStringLiteral("%1 → %2").arg(m_points[m_selected].x()).arg(m_points[m_selected].y()));
    }
}

int LutCurveWidget::pointAt(const QPointF& pos) const
{
    int best = -1;
    double bestDist = kGrab;
    for (int i = 0; i < m_points.size(); ++i) {
        const double d = QLineF(pos, toWidget(m_points[i])).length();
        if (d <= bestDist) {
            best = i;
            bestDist = d;
        }
    }
    return best;
}

void LutCurveWidget::moveSelected(const QPoint& value)
{
    if (m_selected < 0) return;
    QPoint v = value;
    // Inputs stay strictly increasing; the end points keep their input.
    const int last = int(m_points.size()) - 1;
    if (m_selected == 0) v.setX(0);
    else if (m_selected == last) v.setX(255);
    else v.setX(std::clamp(v.x(), m_points[m_selected - 1].x() + 1, m_points[m_selected + 1].x() - 1));
    if (v == m_points[m_selected]) return;
    m_points[m_selected] = v;
    update();
    Q_EMIT pointsChanged(m_points);
}

void LutCurveWidget::removePoint(int index)
{
    if (index <= 0 || index >= m_points.size() - 1) return;  // end points stay
    m_points.removeAt(index);
    m_selected = -1;
    update();
    Q_EMIT pointsChanged(m_points);
    Q_EMIT editFinished();
}

void LutCurveWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    m_selected = pointAt(event->position());
    if (m_selected < 0) {
        const QPoint v = toValue(event->position());
        auto it = std::lower_bound(m_points.begin(), m_points.end(), v,
                                   [](const QPoint& a, const QPoint& b) { return a.x() < b.x(); });
        if (it != m_points.end() && it->x() == v.x()) return;  // one output per input
        m_selected = int(it - m_points.begin());
        m_points.insert(m_selected, v);
        Q_EMIT pointsChanged(m_points);
    }
    m_dragging = true;
    update();
}

void LutCurveWidget::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging) moveSelected(toValue(event->position()));
}

void LutCurveWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_dragging) return;
    m_dragging = false;
    Q_EMIT editFinished();
}

void LutCurveWidget::mouseDoubleClickEvent(QMouseEvent* event) { removePoint(pointAt(event->position())); }

void LutCurveWidget::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) removePoint(m_selected);
    else QWidget::keyPressEvent(event);
}

}  // namespace maptune
