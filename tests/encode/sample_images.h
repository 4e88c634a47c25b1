#pragma once
// Deterministic test/benchmark canvases (Format_ARGB32_Premultiplied, like the
// renderer's): a photo-like tile (textured regions plus sensor noise, after
// ../shared/bench/make-data's synthetic orthophoto) and a map-like tile.

#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace maptune::samples {

// Smooth value noise on a periodic grid, smoothstep-interpolated.
class ValueNoise {
public:
    explicit ValueNoise(uint32_t seed, int grid = 256) : m_grid(grid), m_values(grid * grid) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        for (float& v : m_values) v = u(rng);
    }
    float at(float x, float y, float cell) const {
        const float gx = x / cell, gy = y / cell;
        const int ix = static_cast<int>(gx), iy = static_cast<int>(gy);
        float fx = gx - ix, fy = gy - iy;
        fx = fx * fx * (3 - 2 * fx);
        fy = fy * fy * (3 - 2 * fy);
        const float a = v(ix, iy) * (1 - fx) + v(ix + 1, iy) * fx;
        const float b = v(ix, iy + 1) * (1 - fx) + v(ix + 1, iy + 1) * fx;
        return a * (1 - fy) + b * fy;
    }

private:
    float v(int x, int y) const { return m_values[(y % m_grid) * m_grid + (x % m_grid)]; }
    int m_grid;
    std::vector<float> m_values;
};

inline int clampByte(float v) { return static_cast<int>(std::clamp(v + 0.5f, 0.f, 255.f)); }

// Tree canopy and roof blocks with alleys, Gaussian noise sigma 3.5 per channel.
inline QImage photoLike(int w, int h, uint32_t seed = 42) {
    ValueNoise n1(seed), n2(seed + 1), n3(seed + 2);
    std::mt19937 rng(seed + 3);
    std::normal_distribution<float> noise(0.f, 3.5f);
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < h; ++y) {
        auto* row = reinterpret_cast<uint32_t*>(img.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const float c = 0.2f * n1.at(x, y, 2) + 0.4f * n2.at(x, y, 4.5f) + 0.25f * n3.at(x, y, 10)
                          + 0.15f * n1.at(x + 77, y + 33, 40);
            float r, g, b;
            if (n3.at(x + 300, y + 100, 120) > 0.5f) {
                r = 25 + c * 70; g = 55 + c * 85; b = 25 + c * 45;
            } else if (x % 37 < 3 || y % 29 < 3) {
                r = g = b = 80 + c * 30;
            } else {
                const float roof = 120 + ((x / 37 * 7 + y / 29 * 13) % 9) * 12;
                r = roof; g = roof - 5; b = roof - 10;
            }
            row[x] = qRgb(clampByte(r + noise(rng)), clampByte(g + noise(rng)), clampByte(b + noise(rng)));
        }
    }
    return img;
}

// Building polygons, a lake and cased roads on a paper background. Without
// antialiasing it has fewer than 16 colours.
inline QImage mapLike(int w, int h, bool antialiased, uint32_t seed = 7) {
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    img.fill(QColor(242, 239, 233));
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, antialiased);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    p.setBrush(QColor(217, 208, 201));
    p.setPen(QPen(QColor(180, 170, 160), 1));
    for (int i = 0; i < 60; ++i) {
        QPolygonF poly;
        const float cx = u(rng) * w, cy = u(rng) * h;
        for (int k = 0; k < 6; ++k) {
            const float a = k * 3.14159265f / 3 + u(rng) * 0.3f, r = 10 + u(rng) * 30;
            poly << QPointF(cx + r * std::cos(a), cy + r * std::sin(a));
        }
        p.drawPolygon(poly);
    }
    p.setBrush(QColor(170, 211, 223));
    p.setPen(Qt::NoPen);
    p.drawEllipse(QPointF(w * 0.6, h * 0.4), w * 0.15, h * 0.1);
    p.setBrush(Qt::NoBrush);
    for (int i = 0; i < 25; ++i) {
        QPainterPath path;
        path.moveTo(u(rng) * w, u(rng) * h);
        for (int k = 0; k < 3; ++k) path.lineTo(u(rng) * w, u(rng) * h);
        p.setPen(QPen(QColor(150, 150, 150), 6, Qt::SolidLine, Qt::RoundCap));
        p.drawPath(path);
        p.setPen(QPen(i % 3 ? QColor(255, 255, 255) : QColor(247, 250, 191), 4, Qt::SolidLine, Qt::RoundCap));
        p.drawPath(path);
    }
    return img;
}

}  // namespace maptune::samples
