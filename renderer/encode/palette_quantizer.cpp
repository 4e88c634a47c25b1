#include "encode/palette_quantizer.h"

#include "encode/pixel_rows.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace maptune {
namespace {

// ---- exact palette ---------------------------------------------------------

// Open-addressing set of up to 256 ARGB values; 1024 slots keep probes short.
class ColorTable {
public:
    static constexpr int kSlots = 1024;
    ColorTable() { m_slot.fill(kEmpty); }
    // Index of p, inserting it; -1 once more than `limit` colours were seen.
    int indexOf(uint32_t p, int limit) {
        uint32_t h = (p * 0x9E3779B1u) >> 22;
        for (;;) {
            const uint16_t s = m_slot[h];
            if (s == kEmpty) break;
            if (m_colors[s] == p) return s;
            h = (h + 1) & (kSlots - 1);
        }
        if (static_cast<int>(m_colors.size()) >= limit) return -1;
        m_slot[h] = static_cast<uint16_t>(m_colors.size());
        m_colors.push_back(p);
        return m_slot[h];
    }
    const std::vector<uint32_t>& colors() const { return m_colors; }

private:
    static constexpr uint16_t kEmpty = 0xFFFF;
    std::array<uint16_t, kSlots> m_slot;
    std::vector<uint32_t> m_colors;
};

uint32_t pixelAt(const uint32_t* row, int x, uint32_t alphaMask) { return row[x] | alphaMask; }

bool tryExact(const QImage& img, int maxColors, uint32_t alphaMask, std::vector<uint32_t>& colors,
              std::vector<uint8_t>& indices) {
    ColorTable table;
    const int w = img.width();
    uint32_t last = ~pixelAt(reinterpret_cast<const uint32_t*>(img.constScanLine(0)), 0, alphaMask);
    int lastIndex = 0;
    uint8_t* out = indices.data();
    for (int y = 0; y < img.height(); ++y) {
        const auto* row = reinterpret_cast<const uint32_t*>(img.constScanLine(y));
        for (int x = 0; x < w; ++x) {
            const uint32_t p = pixelAt(row, x, alphaMask);
            if (p != last) {
                lastIndex = table.indexOf(p, maxColors);
                if (lastIndex < 0) return false;
                last = p;
            }
            *out++ = static_cast<uint8_t>(lastIndex);
        }
    }
    colors = table.colors();
    return true;
}

// ---- median cut ------------------------------------------------------------

struct Bin {
    uint32_t count = 0;
    uint64_t sum[4] = {0, 0, 0, 0};  // a, r, g, b (premultiplied)
    uint32_t key = 0;
    float mean(int channel) const { return static_cast<float>(sum[channel]) / count; }
};

struct Histogram {
    bool withAlpha = false;
    std::vector<Bin> bins;  // indexed by key
    uint32_t key(uint32_t p) const {
        if (!withAlpha)
            return ((p >> 9) & 0x7C00) | ((p >> 6) & 0x03E0) | ((p >> 3) & 0x001F);
        return ((p >> 16) & 0xF000) | ((p >> 12) & 0x0F00) | ((p >> 8) & 0x00F0) | ((p >> 4) & 0x000F);
    }
};

struct Box {
    int begin = 0, end = 0;  // range in the list of non-empty bins
    uint64_t pixels = 0;
    int splitChannel = 0;
    float spread = 0;        // largest channel range
};

void measure(Box& box, const std::vector<const Bin*>& bins) {
    float lo[4] = {1e9f, 1e9f, 1e9f, 1e9f}, hi[4] = {-1, -1, -1, -1};
    box.pixels = 0;
    for (int i = box.begin; i < box.end; ++i) {
        box.pixels += bins[i]->count;
        for (int c = 0; c < 4; ++c) {
            const float m = bins[i]->mean(c);
            lo[c] = std::min(lo[c], m);
            hi[c] = std::max(hi[c], m);
        }
    }
    box.spread = -1;
    for (int c = 0; c < 4; ++c) {
        if (hi[c] - lo[c] > box.spread) {
            box.spread = hi[c] - lo[c];
            box.splitChannel = c;
        }
    }
}

// Splits boxes until maxColors, always the one with the most pixels x spread.
std::vector<Box> medianCut(std::vector<const Bin*>& bins, int maxColors) {
    std::vector<Box> boxes(1);
    boxes[0].end = static_cast<int>(bins.size());
    measure(boxes[0], bins);
    while (static_cast<int>(boxes.size()) < maxColors) {
        int best = -1;
        double bestScore = 0;
        for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
            const double score = static_cast<double>(boxes[i].pixels) * boxes[i].spread;
            if (boxes[i].end - boxes[i].begin > 1 && score > bestScore) {
                best = i;
                bestScore = score;
            }
        }
        if (best < 0) break;
        Box& box = boxes[best];
        const int c = box.splitChannel;
        std::sort(bins.begin() + box.begin, bins.begin() + box.end,
                  [c](const Bin* a, const Bin* b) { return a->mean(c) < b->mean(c); });
        uint64_t below = 0;
        int cut = box.begin + 1;
        for (int i = box.begin; i < box.end - 1; ++i) {
            below += bins[i]->count;
            cut = i + 1;
            if (below * 2 >= box.pixels) break;
        }
        Box upper;
        upper.begin = cut;
        upper.end = box.end;
        box.end = cut;
        measure(box, bins);
        measure(upper, bins);
        boxes.push_back(upper);
    }
    return boxes;
}

Histogram& histogram(bool withAlpha) {
    thread_local Histogram h;
    h.withAlpha = withAlpha;
    h.bins.assign(withAlpha ? 65536 : 32768, Bin{});
    return h;
}

void quantizeMedianCut(const QImage& img, int maxColors, uint32_t alphaMask, bool anyTranslucent,
                       std::vector<uint32_t>& colors, std::vector<uint8_t>& indices) {
    Histogram& hist = histogram(anyTranslucent);
    const int w = img.width();
    for (int y = 0; y < img.height(); ++y) {
        const auto* row = reinterpret_cast<const uint32_t*>(img.constScanLine(y));
        for (int x = 0; x < w; ++x) {
            const uint32_t p = pixelAt(row, x, alphaMask);
            Bin& b = hist.bins[hist.key(p)];
            ++b.count;
            b.sum[0] += p >> 24;
            b.sum[1] += (p >> 16) & 0xFF;
            b.sum[2] += (p >> 8) & 0xFF;
            b.sum[3] += p & 0xFF;
        }
    }
    std::vector<const Bin*> used;
    for (uint32_t k = 0; k < hist.bins.size(); ++k) {
        if (hist.bins[k].count) {
            hist.bins[k].key = k;
            used.push_back(&hist.bins[k]);
        }
    }
    const std::vector<Box> boxes = medianCut(used, maxColors);
    std::vector<uint8_t> binToIndex(hist.bins.size(), 0);
    colors.clear();
    for (const Box& box : boxes) {
        uint64_t sum[4] = {0, 0, 0, 0};
        for (int i = box.begin; i < box.end; ++i) {
            binToIndex[used[i]->key] = static_cast<uint8_t>(colors.size());
            for (int c = 0; c < 4; ++c) sum[c] += used[i]->sum[c];
        }
        uint32_t v[4];
        for (int c = 0; c < 4; ++c) v[c] = static_cast<uint32_t>((sum[c] + box.pixels / 2) / box.pixels);
        colors.push_back((v[0] << 24) | (std::min(v[1], 255u) << 16) | (std::min(v[2], 255u) << 8) | std::min(v[3], 255u));
    }
    uint8_t* out = indices.data();
    for (int y = 0; y < img.height(); ++y) {
        const auto* row = reinterpret_cast<const uint32_t*>(img.constScanLine(y));
        for (int x = 0; x < w; ++x) *out++ = binToIndex[hist.key(pixelAt(row, x, alphaMask))];
    }
}

// Un-premultiplies the palette, puts non-opaque entries first and remaps indices.
QList<QRgb> finishPalette(const std::vector<uint32_t>& colors, bool premultiplied, std::vector<uint8_t>& indices) {
    const uint8_t* table = unpremultiplyTable(Unpremultiply::ScaleByInverse);
    std::array<uint8_t, 256> remap{};
    QList<QRgb> palette(static_cast<qsizetype>(colors.size()));
    int front = 0, back = static_cast<int>(colors.size()) - 1;
    bool moved = false;
    for (int i = 0; i < static_cast<int>(colors.size()); ++i) {
        const uint32_t p = colors[i];
        const uint32_t a = p >> 24;
        uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
        if (a == 0) {
            r = g = b = 0;
        } else if (premultiplied && a != 255) {
            r = table[a * 256 + r];
            g = table[a * 256 + g];
            b = table[a * 256 + b];
        }
        const int slot = a == 255 ? back-- : front++;
        remap[i] = static_cast<uint8_t>(slot);
        moved |= slot != i;
        palette[slot] = qRgba(static_cast<int>(r), static_cast<int>(g), static_cast<int>(b), static_cast<int>(a));
    }
    if (moved)
        for (uint8_t& v : indices) v = remap[v];
    return palette;
}

}  // namespace

IndexedImage quantizeToPalette(const QImage& canvasIn, int maxColors, bool keepAlpha) {
    IndexedImage result;
    QImage canvas = prepareCanvas(canvasIn);
    if (keepAlpha && canvas.format() == QImage::Format_ARGB32)
        canvas = canvas.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    const bool premultiplied = canvas.format() == QImage::Format_ARGB32_Premultiplied;
    const uint32_t alphaMask = (keepAlpha && canvas.format() != QImage::Format_RGB32) ? 0 : 0xFF000000u;
    maxColors = std::clamp(maxColors, 2, 256);
    result.width = canvas.width();
    result.height = canvas.height();
    if (canvas.isNull()) return result;
    result.indices.resize(static_cast<size_t>(result.width) * result.height);

    std::vector<uint32_t> colors;
    result.exact = tryExact(canvas, maxColors, alphaMask, colors, result.indices);
    if (!result.exact) {
        bool anyTranslucent = false;
        for (int y = 0; y < canvas.height() && alphaMask == 0 && !anyTranslucent; ++y) {
            const auto* row = reinterpret_cast<const uint32_t*>(canvas.constScanLine(y));
            for (int x = 0; x < canvas.width(); ++x)
                if ((row[x] >> 24) != 255) {
                    anyTranslucent = true;
                    break;
                }
        }
        quantizeMedianCut(canvas, maxColors, alphaMask, anyTranslucent, colors, result.indices);
    }
    result.palette = finishPalette(colors, premultiplied, result.indices);
    return result;
}

}  // namespace maptune
