#pragma once
// Anti-aliased polygon filling straight into an ARGB32 premultiplied image,
// blended with AGG's arithmetic (MapServer's renderer):
// exact-area coverage per pixel from cells (cover, area) in 1/256 pixel
// fixed point, the scanline algorithm of FreeType's gray raster and of AGG,
// which MapServer draws with. It exists because the per-shape overhead of
// QPainter::fillPath (path objects, state, span pipeline) was most of the
// drawing time of a road map with tens of thousands of small strokes.
//
// Usage: reset(), addPolygon() any number of times, fill(). One instance is
// reused for every shape so its buffers are allocated once.
//
// Edges are kept until fill(), which then knows the shape's bounding box:
// cells are summed in place in a grid that size, and each row is filled
// from its first to its last touched cell. The many small shapes of a road
// map (about 30 cells each) spent more time sorting and merging a cell list
// than walking their edges, and a grid the size of the image missed the
// cache on every shape. A shape whose box has more cells than the grid
// limit keeps the cell list (sorted by row and x before filling). Both give
// the same pixels.

#include "render/polygon_sink.h"

#include <QImage>
#include <QPointF>

#include <array>
#include <climits>
#include <cstdint>
#include <vector>

namespace maptune {

class CoverageRasterizer : public PolygonSink {
public:
    enum class FillRule { NonZero, EvenOdd };
    using GammaTable = std::array<std::uint8_t, 256>;
    // 2 MB of grid: a shape covering a 512 x 512 image.
    static constexpr qsizetype DefaultGridLimit = qsizetype(1) << 18;

    explicit CoverageRasterizer(qsizetype gridLimit = DefaultGridLimit) : m_gridLimit(gridLimit) {}
    CoverageRasterizer(const CoverageRasterizer&) = delete;  // m_at points into itself
    CoverageRasterizer& operator=(const CoverageRasterizer&) = delete;

    // Clips to [0, width] x [top, bottom] (pixels; bottom < 0: height) and
    // forgets earlier polygons. A band lets threads share one image by rows.
    void reset(int width, int height, int top = 0, int bottom = -1);
    // A closed ring in pixel coordinates (pixel (0, 0) covers [0,1) x [0,1)).
    void addPolygon(const QPointF* points, int count) override;
    bool isEmpty() const { return m_segments.empty(); }

    // Blends `color` (straight alpha) with the coverage onto `image`, which
    // must be Format_ARGB32_Premultiplied and at least the reset size.
    // `gamma`, when given, remaps coverage 0..255 before blending.
    void fill(QImage& image, QRgb color, FillRule rule, const GammaTable* gamma = nullptr);
    // The same on raw premultiplied ARGB32 rows (no QImage calls: safe from
    // several threads that fill disjoint bands of one image).
    void fill(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
              const GammaTable* gamma = nullptr);

    // A gamma_linear(0, g) table: coverage >= g is opaque, the rest scaled up.
    static GammaTable linearGamma(double g);

private:
    // What an edge leaves in one pixel: the height it crosses and twice the
    // area left of it, in 1/256 pixel units.
    struct Coverage {
        int cover, area;
    };
    struct Cell {
        int x, y;
        Coverage c;
    };
    // An edge clipped to the image, in 1/256 pixel fixed point.
    struct Segment {
        int x1, y1, x2, y2;
    };
    void edge(double x1, double y1, double x2, double y2);
    void addSegment(int x1, int y1, int x2, int y2);
    void line(int x1, int y1, int x2, int y2);
    void hline(int ey, int x1, int fy1, int x2, int fy2);
    void moveTo(int ex, int ey);
    void flush();
    void sortRows();
    void fillGrid(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
                  const GammaTable* gamma);
    void fillCells(uchar* bits, qsizetype bytesPerLine, int width, int height, QRgb color, FillRule rule,
                   const GammaTable* gamma);

    const qsizetype m_gridLimit;
    int m_width = 0, m_height = 0, m_top = 0, m_bottom = 0;
    std::vector<Segment> m_segments;
    int m_segMinX = INT_MAX, m_segMaxX = INT_MIN, m_segMinY = INT_MAX, m_segMaxY = INT_MIN;
    // The cell the walk adds to: in the grid, or the list's pending cell.
    Coverage* m_at = &m_current.c;

    // Grid mode (m_grid set): the cells of rows [m_gridTop, m_gridBottom)
    // and columns from m_gridLeft, all zero between fills, and each row's
    // touched columns (absolute x).
    bool m_grid = false;
    int m_gridLeft = 0, m_gridTop = 0, m_gridBottom = 0, m_stride = 0;
    std::vector<Coverage> m_cellsGrid;
    std::vector<int> m_rowMinX, m_rowMaxX;
    Coverage m_discard{0, 0};  // rows outside the band

    // List mode.
    Cell m_current{0, 0, {0, 0}};
    bool m_haveCurrent = false;
    std::vector<Cell> m_cells, m_sorted;
    std::vector<int> m_rowStart;
    int m_minY = INT_MAX, m_maxY = INT_MIN;
};

}  // namespace maptune
