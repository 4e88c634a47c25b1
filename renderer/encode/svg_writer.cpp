#include "encode/svg_writer.h"

#include "encode/output_format.h"
#include "encode/image_encoder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace maptune {

namespace {

// A point on cairo's fixed-point grid (24.8).
struct Fixed {
    int x = 0, y = 0;
    bool operator==(const Fixed& o) const { return x == o.x && y == o.y; }
};

// cairo's 24.8 fixed point holds about +-8.4 million pixels: a vertex
// farther out (a feature far beyond a deeply zoomed view) is held at that
// limit rather than wrapped round.
int fixedCoordinate(double v)
{
    constexpr double Limit = 8388607.0;
    if (!std::isfinite(v)) return 0;
    return int(std::lrint(std::clamp(v, -Limit, Limit) * 256));
}

Fixed toFixed(QPointF p) { return {fixedCoordinate(p.x()), fixedCoordinate(p.y())}; }

// cairo_path_fixed_t's rules for what a sequence of moves, lines, curves
// and closes becomes (cairo-path-fixed.c).
class CairoPath {
public:
    void moveTo(Fixed p)
    {
        if (!m_ops.empty() && m_ops.back().op == 'M') m_ops.back().pts[0] = p;
        else m_ops.push_back({'M', {p}});
        m_current = m_lastMove = p;
        m_hasCurrent = true;
        m_needsMove = false;
    }

    void lineTo(Fixed p)
    {
        if (!m_hasCurrent) return moveTo(p);
        applyPendingMove();
        if (lastOp() != 'M' && p == m_current) return;
        if (lastOp() == 'L') {
            const Fixed prev = penultimate();
            if (prev == m_current) {
                dropLine();
            } else {
                const long long dx1 = m_current.x - prev.x, dy1 = m_current.y - prev.y;
                const long long dx2 = p.x - m_current.x, dy2 = p.y - m_current.y;
                const bool backwards = ((dx1 ^ dx2) < 0) || ((dy1 ^ dy2) < 0);
                if (dy1 * dx2 == dy2 * dx1 && !backwards) dropLine();
            }
        }
        m_ops.push_back({'L', {p}});
        m_current = p;
    }

    void curveTo(Fixed a, Fixed b, Fixed c)
    {
        if (!m_hasCurrent) moveTo(a);
        applyPendingMove();
        if (m_current == c && a == c && b == c) return lineTo(c);
        if (lastOp() == 'L' && penultimate() == m_current) dropLine();
        m_ops.push_back({'C', {a, b, c}});
        m_current = c;
    }

    void close()
    {
        if (!m_hasCurrent) return;
        lineTo(m_lastMove);
        if (lastOp() == 'L') dropLine();
        m_ops.push_back({'Z', {}});
        m_current = m_lastMove;
        m_needsMove = true;
    }

    QByteArray data() const
    {
        QByteArray out;
        auto point = [&out](Fixed p) { out += cairoNumber(p.x / 256.0) + ' ' + cairoNumber(p.y / 256.0) + ' '; };
        for (const Op& o : m_ops) {
            out += o.op;
            out += ' ';
            for (int i = 0; i < (o.op == 'C' ? 3 : o.op == 'Z' ? 0 : 1); ++i) point(o.pts[size_t(i)]);
        }
        if (m_needsMove && m_hasCurrent) {
            out += "M ";
            point(m_current);
        }
        return out;
    }

private:
    struct Op {
        char op;
        std::array<Fixed, 3> pts;
    };

    char lastOp() const { return m_ops.empty() ? 0 : m_ops.back().op; }
    Fixed penultimate() const
    {
        const Op& o = m_ops[m_ops.size() - 2];
        return o.op == 'C' ? o.pts[2] : o.pts[0];
    }
    void dropLine()
    {
        m_ops.pop_back();
        m_current = penultimate0();
    }
    // The current point once the last op is gone.
    Fixed penultimate0() const
    {
        const Op& o = m_ops.back();
        return o.op == 'C' ? o.pts[2] : o.op == 'Z' ? m_lastMove : o.pts[0];
    }
    void applyPendingMove()
    {
        if (!m_needsMove) return;
        m_ops.push_back({'M', {m_current}});
        m_lastMove = m_current;
        m_needsMove = false;
    }

    std::vector<Op> m_ops;
    Fixed m_current, m_lastMove;
    bool m_hasCurrent = false, m_needsMove = false;
};

// With closeRings, subpaths that return to their start end with a close
// (QPainterPath has no close element of its own).
QByteArray pathData(const QPainterPath& path, bool closeRings)
{
    CairoPath out;
    const int n = path.elementCount();
    int start = -1;
    auto closeIfRing = [&](int end) {
        if (!closeRings || start < 0 || end <= start) return;
        const QPointF a = path.elementAt(start), b = path.elementAt(end);
        if (toFixed(a) == toFixed(b)) out.close();
    };
    for (int i = 0; i < n; ++i) {
        const QPainterPath::Element& e = path.elementAt(i);
        switch (e.type) {
        case QPainterPath::MoveToElement:
            closeIfRing(i - 1);
            start = i;
            out.moveTo(toFixed(e));
            break;
        case QPainterPath::LineToElement: out.lineTo(toFixed(e)); break;
        case QPainterPath::CurveToElement:
            if (i + 2 < n) {
                out.curveTo(toFixed(e), toFixed(path.elementAt(i + 1)), toFixed(path.elementAt(i + 2)));
                i += 2;
            }
            break;
        case QPainterPath::CurveToDataElement: break;
        }
    }
    closeIfRing(n - 1);
    return out.data();
}

QByteArray percent(int component) { return cairoNumber(component / 255.0 * 100.0) + '%'; }

QByteArray rgb(const QColor& c)
{
    return "rgb(" + percent(c.red()) + ',' + percent(c.green()) + ',' + percent(c.blue()) + ')';
}

QByteArray fillStyle(const QColor& c, bool evenOdd)
{
    return QByteArray("fill-rule:") + (evenOdd ? "evenodd" : "nonzero") + ";fill:" + rgb(c)
         + ";fill-opacity:" + cairoNumber(c.alphaF()) + ';';
}

QByteArray strokeStyle(const QPen& pen)
{
    const char* cap = pen.capStyle() == Qt::RoundCap ? "round" : pen.capStyle() == Qt::SquareCap ? "square" : "butt";
    const char* join = pen.joinStyle() == Qt::RoundJoin ? "round" : pen.joinStyle() == Qt::BevelJoin ? "bevel" : "miter";
    QByteArray s = "stroke-width:" + cairoNumber(pen.widthF()) + ";stroke-linecap:" + cap + ";stroke-linejoin:" + join
                 + ";stroke:" + rgb(pen.color()) + ";stroke-opacity:" + cairoNumber(pen.color().alphaF()) + ';';
    if (pen.style() == Qt::CustomDashLine) {
        // Qt's dashes are in pen widths; SVG's in pixels.
        const QList<qreal> dashes = pen.dashPattern();
        s += "stroke-dasharray:";
        for (qsizetype i = 0; i < dashes.size(); ++i) s += (i ? "," : "") + cairoNumber(dashes[i] * pen.widthF());
        s += ';';
        if (pen.dashOffset() != 0) s += "stroke-dashoffset:" + cairoNumber(pen.dashOffset() * pen.widthF()) + ';';
    }
    return s + "stroke-miterlimit:10;";  // cairo's default: MapServer never sets it
}

QByteArray imageElement(const VectorItem& item)
{
    ImageFormat png = fallbackImageFormat();
    png.rgba = true;
    png.transparent = true;
    const QByteArray encoded = encodeImage(item.image, png).valueOr(QByteArray());
    const QRectF& r = item.imageRect;
    return "<image x=\"" + cairoNumber(r.x()) + "\" y=\"" + cairoNumber(r.y()) + "\" width=\"" + cairoNumber(r.width())
         + "\" height=\"" + cairoNumber(r.height()) + "\" xlink:href=\"data:image/png;base64," + encoded.toBase64() + "\"/>\n";
}

}  // namespace

QByteArray cairoNumber(double d)
{
    if (d == 0.0) d = 0.0;  // no "-0"
    char buffer[64];
    if (std::fabs(d) >= 0.1) {
        std::snprintf(buffer, sizeof buffer, "%f", d);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.18f", d);
        const char* p = buffer;
        if (*p == '+' || *p == '-') ++p;
        while (*p >= '0' && *p <= '9') ++p;
        if (*p == '.') ++p;
        int zeros = 0;
        while (*p++ == '0') ++zeros;
        if (zeros + 6 < 18) std::snprintf(buffer, sizeof buffer, "%.*f", zeros + 6, d);
    }
    size_t len = std::strlen(buffer);
    if (std::strchr(buffer, '.')) {
        while (len > 0 && buffer[len - 1] == '0') --len;
        if (len > 0 && buffer[len - 1] == '.') --len;
    }
    return QByteArray(buffer, qsizetype(len));
}

QByteArray writeSvg(const VectorSurface& surface)
{
    const std::optional<QColor>& background = surface.background();
    const QByteArray w = QByteArray::number(surface.size().width()), h = QByteArray::number(surface.size().height());
    QByteArray out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\""
                   + w + "pt\" height=\"" + h + "pt\" viewBox=\"0 0 " + w + ' ' + h + "\" version=\"1.1\">\n<g id=\"surface2\">\n";
    if (background)
        out += "<rect x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" style=\"fill:" + rgb(*background)
             + ";fill-opacity:" + cairoNumber(background->alphaF()) + ";stroke:none;\"/>\n";
    for (const VectorItem& item : surface.items()) {
        if (!item.image.isNull()) {
            out += imageElement(item);
            continue;
        }
        QByteArray style;
        if (item.fill && item.stroke) style = fillStyle(*item.fill, item.evenOdd) + strokeStyle(*item.stroke);
        else if (item.fill) style = " stroke:none;" + fillStyle(*item.fill, item.evenOdd);
        else style = "fill:none;" + strokeStyle(*item.stroke);
        const QByteArray d = pathData(item.path, item.closeRings);
        if (d.isEmpty()) continue;
        out += "<path style=\"" + style + "\" d=\"" + d + "\"/>\n";
    }
    return out + "</g>\n</svg>\n";
}

}  // namespace maptune
