#include "render/coverage_rasterizer.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace maptune {

namespace {

constexpr int Shift = 8;  // 1/256 pixel
constexpr int One = 1 << Shift;
constexpr int Mask = One - 1;

// AGG's rgba8 premultiply(), which MapServer's colours go through.
inline QRgb aggPremultiply(QRgb c)
{
    const unsigned a = qAlpha(c);
    if (a == 255) return c;
    if (a == 0) return 0;
    const auto m = [a](unsigned v) { return (v * a + 255) >> 8; };
    return qRgba(int(m(qRed(c))), int(m(qGreen(c))), int(m(qBlue(c))), int(a));
}

// AGG's blender_rgba_pre with a coverage, as MapServer's AGG renderer
// blends a solid span: its truncations leave an edge pixel on a clear
// canvas one step more opaque than its colour (premultiplied colour =
// alpha - 1), which shows in MapServer's transparent PNGs.
inline void aggBlend(QRgb& dst, QRgb src, unsigned cover)
{
    const unsigned alpha = (unsigned(qAlpha(src)) * (cover + 1)) >> 8;
    if (alpha == 255) {
        dst = src;
        return;
    }
    const unsigned inv = 255 - alpha, cov = cover + 1;
    const unsigned r = (unsigned(qRed(dst)) * inv + unsigned(qRed(src)) * cov) >> 8;
    const unsigned g = (unsigned(qGreen(dst)) * inv + unsigned(qGreen(src)) * cov) >> 8;
    const unsigned b = (unsigned(qBlue(dst)) * inv + unsigned(qBlue(src)) * cov) >> 8;
    const unsigned a = 255 - ((inv * (255 - unsigned(qAlpha(dst)))) >> 8);
    dst = qRgba(int(r), int(g), int(b), int(a));
}

// A colour, fill rule and coverage table: how a cell's area becomes a blend.
class Paint {
public:
    Paint(QRgb color, CoverageRasterizer::FillRule rule, const CoverageRasterizer::GammaTable* gamma)
        : m_src(aggPremultiply(color)), m_evenOdd(rule == CoverageRasterizer::FillRule::EvenOdd), m_gamma(gamma)
    {
    }
    // 0..255 from twice the covered area (1/256 pixel units, signed by winding).
    int coverage(int area) const
    {
        int c = area >> (Shift + 1);
        if (c < 0) c = -c;
        if (m_evenOdd) {
            c &= 2 * One - 1;
            if (c > One) c = 2 * One - c;
        }
        c = std::min(c, 255);
        return m_gamma ? (*m_gamma)[c] : c;
    }
    void blend(QRgb& dst, int c) const { aggBlend(dst, m_src, unsigned(c)); }
    void span(QRgb* from, QRgb* to, int c) const
    {
        if (c == 255 && qAlpha(m_src) == 255) {
            std::fill(from, to, m_src);
        } else if (c) {
            for (QRgb* p = from; p < to; ++p) blend(*p, c);
        }
    }

private:
    const QRgb m_src;
    const bool m_evenOdd;
    const CoverageRasterizer::GammaTable* m_gamma;
};

// Floor division with a non-negative remainder (the DDA steps need it).
inline void divide(long long p, long long d, long long& quotient, long long& remainder)
{
    quotient = p / d;
    remainder = p % d;
    if (remainder < 0) --quotient, remainder += d;
}

}  // namespace

CoverageRasterizer::GammaTable CoverageRasterizer::linearGamma(double g)
{
    GammaTable t{};
    for (int a = 0; a < 256; ++a) t[a] = std::uint8_t(std::min(255.0, std::floor(a / g + 0.5)));
    return t;
}

void CoverageRasterizer::reset(int width, int height, int top, int bottom)
{
    m_width = std::max(width, 0);
    m_height = std::max(height, 0);
    m_top = std::clamp(top, 0, m_height);
    m_bottom = bottom < 0 ? m_height : std::clamp(bottom, m_top, m_height);
    m_segments.clear();
    m_segMinX = m_segMinY = INT_MAX, m_segMaxX = m_segMaxY = INT_MIN;
}

void CoverageRasterizer::addPolygon(const QPointF* points, int count)
{
    if (count < 3) return;
    for (int i = 0, j = count - 1; i < count; j = i++)
        edge(points[j].x(), points[j].y(), points[i].x(), points[i].y());
}

// Clips one edge to the image rows and folds what lies left or right of the
// image onto its border: a vertical edge at the border keeps the winding that
// the pixels inside depend on.
void CoverageRasterizer::edge(double x1, double y1, double x2, double y2)
{
    if (!std::isfinite(x1) || !std::isfinite(y1) || !std::isfinite(x2) || !std::isfinite(y2)) return;
    // An edge wholly above or below the band adds nothing to its rows. One
    // that crosses it is clipped to the image, not the band, so that every
    // band walks it exactly as a whole-image pass would (flush() keeps the
    // band's cells): bands drawn apart join without a seam.
    if (y1 == y2 || (y1 <= m_top && y2 <= m_top) || (y1 >= m_bottom && y2 >= m_bottom)) return;
    const double h = m_height, w = m_width;
    // Coordinates are never negative here, so adding a half rounds.
    auto fixed = [](double v) { return int(v * One + 0.5); };
    if (y1 >= 0 && y2 >= 0 && y1 <= h && y2 <= h && x1 >= 0 && x2 >= 0 && x1 <= w && x2 <= w) {
        addSegment(fixed(x1), fixed(y1), fixed(x2), fixed(y2));
        return;
    }
    auto atY = [&](double y) { return x1 + (x2 - x1) * (y - y1) / (y2 - y1); };
    double ax = x1, ay = y1, bx = x2, by = y2;
    if (ay < 0) ax = atY(0), ay = 0;
    else if (ay > h) ax = atY(h), ay = h;
    if (by < 0) bx = atY(0), by = 0;
    else if (by > h) bx = atY(h), by = h;

    double cuts[4] = {0, 1, 1, 1};
    int n = 1;
    if (ax != bx)
        for (double border : {0.0, w}) {
            const double t = (border - ax) / (bx - ax);
            if (t > 0 && t < 1) cuts[n++] = t;
        }
    if (n == 3 && cuts[1] > cuts[2]) std::swap(cuts[1], cuts[2]);
    cuts[n++] = 1;
    for (int i = 0; i + 1 < n; ++i) {
        const double t0 = cuts[i], t1 = cuts[i + 1];
        if (t1 <= t0) continue;
        double px = ax + (bx - ax) * t0, qx = ax + (bx - ax) * t1;
        const double py = ay + (by - ay) * t0, qy = ay + (by - ay) * t1;
        const double mid = (px + qx) / 2;
        if (mid < 0) px = qx = 0;
        else if (mid > w) px = qx = w;
        px = std::clamp(px, 0.0, w), qx = std::clamp(qx, 0.0, w);
        addSegment(fixed(px), fixed(py), fixed(qx), fixed(qy));
    }
}

void CoverageRasterizer::addSegment(int x1, int y1, int x2, int y2)
{
    m_segments.push_back({x1, y1, x2, y2});
    m_segMinX = std::min({m_segMinX, x1, x2}), m_segMaxX = std::max({m_segMaxX, x1, x2});
    m_segMinY = std::min({m_segMinY, y1, y2}), m_segMaxY = std::max({m_segMaxY, y1, y2});
}

inline void CoverageRasterizer::moveTo(int ex, int ey)
{
    if (m_grid) {
        if (ey < m_gridTop || ey >= m_gridBottom) {
            m_at = &m_discard;
            return;
        }
        const int row = ey - m_gridTop;
        m_at = m_cellsGrid.data() + size_t(row) * size_t(m_stride) + size_t(ex - m_gridLeft);
        m_rowMinX[size_t(row)] = std::min(m_rowMinX[size_t(row)], ex);
        m_rowMaxX[size_t(row)] = std::max(m_rowMaxX[size_t(row)], ex);
        return;
    }
    if (m_haveCurrent && m_current.x == ex && m_current.y == ey) return;
    flush();
    m_current = {ex, ey, {0, 0}};
    m_haveCurrent = true;
}

void CoverageRasterizer::flush()
{
    if (m_haveCurrent && (m_current.c.cover | m_current.c.area) && m_current.y >= m_top && m_current.y < m_bottom) {
        m_cells.push_back(m_current);
        m_minY = std::min(m_minY, m_current.y);
        m_maxY = std::max(m_maxY, m_current.y);
    }
    m_haveCurrent = false;
}

// The part of an edge inside one pixel row `ey`, from (x1, fy1) to (x2, fy2),
// x in fixed point, fy the fraction of the row (0..256): walks the cells it
// crosses, adding each one's cover (height crossed) and area (twice the
// covered trapezoid, scaled).
void CoverageRasterizer::hline(int ey, int x1, int fy1, int x2, int fy2)
{
    const int ex1 = x1 >> Shift, ex2 = x2 >> Shift;
    const int fx1 = x1 & Mask, fx2 = x2 & Mask;
    moveTo(ex1, ey);
    if (fy1 == fy2) {
        moveTo(ex2, ey);
        return;
    }
    if (ex1 == ex2) {
        const int d = fy2 - fy1;
        m_at->cover += d;
        m_at->area += (fx1 + fx2) * d;
        return;
    }
    long long dx = x2 - x1;
    long long p = (One - fx1) * (long long)(fy2 - fy1);
    int first = One, incr = 1;
    if (dx < 0) {
        p = fx1 * (long long)(fy2 - fy1);
        first = 0, incr = -1, dx = -dx;
    }
    long long delta, mod;
    divide(p, dx, delta, mod);
    m_at->area += int((fx1 + first) * delta);
    m_at->cover += int(delta);
    int ex = ex1 + incr;
    moveTo(ex, ey);
    int y = fy1 + int(delta);
    if (ex != ex2) {
        long long lift, rem;
        divide((long long)One * (fy2 - fy1), dx, lift, rem);
        mod -= dx;
        while (ex != ex2) {
            delta = lift;
            mod += rem;
            if (mod >= 0) mod -= dx, ++delta;
            m_at->area += int(One * delta);
            m_at->cover += int(delta);
            y += int(delta);
            ex += incr;
            moveTo(ex, ey);
        }
    }
    const int d = fy2 - y;
    m_at->area += (fx2 + One - first) * d;
    m_at->cover += d;
}

// An edge in fixed point, row by row.
void CoverageRasterizer::line(int x1, int y1, int x2, int y2)
{
    int ey1 = y1 >> Shift;
    const int ey2 = y2 >> Shift;
    const int fy1 = y1 & Mask, fy2 = y2 & Mask;
    if (ey1 == ey2) {
        hline(ey1, x1, fy1, x2, fy2);
        return;
    }
    const long long dx = x2 - x1;
    long long dy = y2 - y1;
    if (dx == 0) {
        // Vertical: one cell per row with the same area weight.
        const int ex = x1 >> Shift;
        const int twoFx = (x1 - (ex << Shift)) << 1;
        const int first = dy > 0 ? One : 0, incr = dy > 0 ? 1 : -1;
        moveTo(ex, ey1);
        int delta = first - fy1;
        m_at->cover += delta;
        m_at->area += twoFx * delta;
        ey1 += incr;
        delta = first + first - One;
        while (ey1 != ey2) {
            moveTo(ex, ey1);
            m_at->cover += delta;
            m_at->area += twoFx * delta;
            ey1 += incr;
        }
        moveTo(ex, ey1);
        delta = fy2 - One + first;
        m_at->cover += delta;
        m_at->area += twoFx * delta;
        return;
    }
    long long p = (One - fy1) * dx;
    int first = One, incr = 1;
    if (dy < 0) {
        p = fy1 * dx;
        first = 0, incr = -1, dy = -dy;
    }
    long long delta, mod;
    divide(p, dy, delta, mod);
    int xFrom = x1 + int(delta);
    hline(ey1, x1, fy1, xFrom, first);
    ey1 += incr;
    if (ey1 != ey2) {
        long long lift, rem;
        divide((long long)One * dx, dy, lift, rem);
        mod -= dy;
        while (ey1 != ey2) {
            delta = lift;
            mod += rem;
            if (mod >= 0) mod -= dy, ++delta;
            const int xTo = xFrom + int(delta);
            hline(ey1, xFrom, One - first, xTo, first);
            xFrom = xTo;
            ey1 += incr;
        }
    }
    hline(ey1, xFrom, One - first, x2, fy2);
}

// Cells grouped by row (counting sort), each row sorted by x.
void CoverageRasterizer::sortRows()
{
    const int rows = m_maxY - m_minY + 1;
    // m_rowStart[r + 1] counts row r, then becomes where row r starts after
    // the prefix sum shifted by one; scattering moves it to row r's end,
    // which is where row r + 1 starts.
    m_rowStart.assign(rows + 2, 0);
    for (const Cell& c : m_cells) ++m_rowStart[c.y - m_minY + 2];
    for (int r = 2; r <= rows + 1; ++r) m_rowStart[r] += m_rowStart[r - 1];
    m_sorted.resize(m_cells.size());
    for (const Cell& c : m_cells) m_sorted[m_rowStart[c.y - m_minY + 1]++] = c;
    for (int r = 0; r < rows; ++r) {
        Cell* b = m_sorted.data() + m_rowStart[r];
        Cell* e = m_sorted.data() + m_rowStart[r + 1];
        if (e - b < 12) {
            for (Cell* i = b + 1; i < e; ++i)
                for (Cell* j = i; j > b && (j - 1)->x > j->x; --j) std::swap(*(j - 1), *j);
        } else {
            std::sort(b, e, [](const Cell& a, const Cell& c) { return a.x < c.x; });
        }
    }
}

void CoverageRasterizer::fill(QImage& image, QRgb color, FillRule rule, const GammaTable* gamma)
{
    if (image.format() != QImage::Format_ARGB32_Premultiplied) return;
    fill(image.bits(), image.bytesPerLine(), image.width(), image.height(), color, rule, gamma);
}

void CoverageRasterizer::fill(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
                              const GammaTable* gamma)
{
    const int left = m_segMinX >> Shift, right = m_segMaxX >> Shift;
    const int top = std::max(m_segMinY >> Shift, m_top), bottom = std::min((m_segMaxY >> Shift) + 1, m_bottom);
    if (m_segments.empty() || qAlpha(color) == 0 || top >= bottom) {
        m_segments.clear();
        return;
    }
    m_grid = qsizetype(right - left + 1) * (bottom - top) <= m_gridLimit;
    if (m_grid) {
        m_gridLeft = left, m_gridTop = top, m_gridBottom = bottom, m_stride = right - left + 1;
        const size_t cells = size_t(m_stride) * size_t(bottom - top);
        if (m_cellsGrid.size() < cells) m_cellsGrid.resize(cells);  // zeros, as the rest
        if (m_rowMinX.size() < size_t(bottom - top)) {
            m_rowMinX.resize(size_t(bottom - top), INT_MAX);
            m_rowMaxX.resize(size_t(bottom - top), INT_MIN);
        }
    } else {
        m_cells.clear();
        m_haveCurrent = false;
        m_minY = INT_MAX, m_maxY = INT_MIN;
        m_at = &m_current.c;
    }
    for (const Segment& s : m_segments) line(s.x1, s.y1, s.x2, s.y2);
    m_segments.clear();
    if (m_grid) fillGrid(bits, bytesPerLine, width, height, color, rule, gamma);
    else fillCells(bits, bytesPerLine, width, height, color, rule, gamma);
}

// Each touched row from its first to its last cell, zeroing the cells
// behind it: a cell without area continues the span before it.
void CoverageRasterizer::fillGrid(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
                                  const GammaTable* gamma)
{
    const Paint paint(color, rule, gamma);
    const int w = std::min(m_width, width);
    for (int y = m_gridTop; y < m_gridBottom; ++y) {
        const size_t r = size_t(y - m_gridTop);
        const int x0 = m_rowMinX[r], x1 = m_rowMaxX[r];
        if (x1 < x0) continue;
        m_rowMinX[r] = INT_MAX, m_rowMaxX[r] = INT_MIN;
        Coverage* cells = m_cellsGrid.data() + r * size_t(m_stride);  // column m_gridLeft
        if (y >= height) {
            std::fill(cells + (x0 - m_gridLeft), cells + (x1 - m_gridLeft) + 1, Coverage{0, 0});
            continue;
        }
        auto* row = reinterpret_cast<QRgb*>(bits + y * bytesPerLine);
        int cover = 0;
        for (int x = x0; x <= x1; ++x) {
            Coverage& at = cells[x - m_gridLeft];
            const Coverage cell = at;
            at = {0, 0};
            cover += cell.cover;
            const int area = (cover << (Shift + 1)) - cell.area;
            if (area == 0) continue;
            const int c = paint.coverage(area);
            if (c && x < w) paint.blend(row[x], c);
        }
        if (cover != 0 && x1 + 1 < w) paint.span(row + x1 + 1, row + w, paint.coverage(cover << (Shift + 1)));
    }
}

void CoverageRasterizer::fillCells(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
                                   const GammaTable* gamma)
{
    flush();
    if (m_cells.empty()) return;
    sortRows();
    const Paint paint(color, rule, gamma);
    const int w = std::min(m_width, width);
    const int yEnd = std::min({m_maxY, m_bottom - 1, height - 1});
    for (int y = std::max(m_minY, m_top); y <= yEnd; ++y) {
        const Cell* cell = m_sorted.data() + m_rowStart[y - m_minY];
        const Cell* end = m_sorted.data() + m_rowStart[y - m_minY + 1];
        auto* row = reinterpret_cast<QRgb*>(bits + y * bytesPerLine);
        int cover = 0;
        while (cell < end) {
            int x = cell->x, area = 0;
            for (; cell < end && cell->x == x; ++cell) area += cell->c.area, cover += cell->c.cover;
            if (area != 0) {
                const int c = paint.coverage((cover << (Shift + 1)) - area);
                if (c && x < w) paint.blend(row[x], c);
                ++x;
            }
            const int stop = std::min(cell < end ? cell->x : w, w);
            if (stop > x && cover != 0) paint.span(row + x, row + stop, paint.coverage(cover << (Shift + 1)));
        }
    }
}

}  // namespace maptune
