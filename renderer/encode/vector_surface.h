#pragma once
// A paint device that keeps what QPainter draws on it as vector items --
// paths with their fill and stroke, and images -- for the SVG writer.
//
// The renderer draws into a QImage canvas; for SVG output the canvas is
// bound to a VectorSurface, and the painters that would blend pixels ask
// deviceFor(canvas) where to paint: on the surface their shapes stay paths
// (MapServer draws SVG the same way, through cairo's SVG surface).

#include <QImage>
#include <QPaintDevice>
#include <QPainterPath>
#include <QPen>

#include <memory>
#include <optional>

namespace maptune {

struct VectorItem {
    QPainterPath path;           // device pixels
    std::optional<QColor> fill;
    bool evenOdd = true;         // the fill's rule
    std::optional<QPen> stroke;  // width in device pixels
    bool closeRings = false;     // subpaths that end at their start are closed (cairo's close_path)
    QImage image;                // an image item when set, drawn in imageRect
    QRectF imageRect;
};

class VectorSurface : public QPaintDevice {
public:
    explicit VectorSurface(QSize size);
    ~VectorSurface() override;
    VectorSurface(const VectorSurface&) = delete;
    VectorSurface& operator=(const VectorSurface&) = delete;

    QPaintEngine* paintEngine() const override;
    QSize size() const { return m_size; }
    void setSize(QSize size) { m_size = size; }
    const QList<VectorItem>& items() const { return m_items; }
    void add(VectorItem item) { m_items.append(std::move(item)); }
    // What the drawing starts from, as an image is filled first; none: transparent.
    void setBackground(const std::optional<QColor>& color) { m_background = color; }
    const std::optional<QColor>& background() const { return m_background; }
    // Another surface's items moved by `offset`, over a rectangle of its
    // size in its background (an embedded legend or scale bar).
    void append(const VectorSurface& other, QPointF offset);
    // Items from `first` on drawn at `opacity` (a layer's OPACITY).
    void fade(qsizetype first, double opacity);

    // Shapes added as MapServer's cairo calls draw them. cairo keeps its
    // state between calls and MapServer sets only part of it: the fill rule
    // turns even-odd at the first polygon and stays so; a line sets the caps
    // and joins that later symbols and glyph outlines are stroked with.
    // `p` gives the transform to device pixels and the opacity.
    // A polygon: rings closed, even-odd from now on.
    void fillPolygon(const QPainter& p, const QPainterPath& rings, const QColor& color);
    // A line or a polygon's outline: its caps and joins become the state's.
    void strokeLine(const QPainter& p, const QPainterPath& path, const QPen& pen);
    // A symbol: filled and/or stroked in one item, with the state's rule, caps and joins.
    void paintSymbol(const QPainter& p, const QPainterPath& path, const std::optional<QColor>& fill, std::optional<QPen> stroke);
    // Glyph outlines (closed contours): the outline stroked first with the state's caps and joins.
    void paintGlyphs(const QPainter& p, const QPainterPath& glyphs, const std::optional<QColor>& fill,
                     std::optional<QPen> outline);

    // The surface `p` paints on, if it is one.
    static VectorSurface* of(const QPainter& p);
    // The surface `canvas` is bound to, else the canvas itself.
    static QPaintDevice* deviceFor(QImage& canvas);
    static VectorSurface* boundTo(const QImage& canvas);
    // Whether p paints on a VectorSurface (shapes go there as paths, not pixels).
    static bool isVector(const QPainter& p);

    // While alive, painters asking deviceFor(canvas) get the surface.
    class Binding {
    public:
        Binding(const QImage& canvas, VectorSurface& surface);
        ~Binding();
        Binding(const Binding&) = delete;
        Binding& operator=(const Binding&) = delete;

    private:
        const QImage* m_canvas;
    };

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QPen withState(const QPainter& p, QPen pen) const;

    QSize m_size;
    std::optional<QColor> m_background;
    QList<VectorItem> m_items;
    bool m_evenOdd = false;  // cairo's initial fill rule is non-zero
    Qt::PenCapStyle m_cap = Qt::RoundCap;  // MapServer's cairo context starts round
    Qt::PenJoinStyle m_join = Qt::RoundJoin;
    std::unique_ptr<QPaintEngine> m_engine;
};

}  // namespace maptune
