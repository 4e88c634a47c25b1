#pragma once
// A curve editor for one LUT channel: control points joined by MapServer's
// linear interpolation (the drawn curve is the Lut table itself). Click adds
// a point, drag moves it, double click or Delete removes it; the end points
// move vertically only.

#include <QList>
#include <QPoint>
#include <QWidget>

namespace maptune {

class LutCurveWidget : public QWidget {
    Q_OBJECT
public:
    explicit LutCurveWidget(QWidget* parent = nullptr);

    void setPoints(const QList<QPoint>& points);
    const QList<QPoint>& points() const { return m_points; }
    void setCurveColour(const QColor& colour);
    // Widget position of a LUT value pair, and back (for tests and painting).
    QPointF toWidget(const QPoint& value) const;
    QPoint toValue(const QPointF& pos) const;

    QSize sizeHint() const override { return {280, 280}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override { return w; }

Q_SIGNALS:
    void pointsChanged(const QList<QPoint>& points);   // while dragging too
    void editFinished();                               // mouse released

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QRectF plotRect() const;
    int pointAt(const QPointF& pos) const;
    void moveSelected(const QPoint& value);
    void removePoint(int index);

    QList<QPoint> m_points;
    QColor m_colour = Qt::black;
    int m_selected = -1;
    bool m_dragging = false;
};

}  // namespace maptune
