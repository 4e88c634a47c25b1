#include "encode/palette_quantizer.h"

#include "encode/pixel_rows.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>

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

// ---- median cut (MapServer's msQuantizeRasterBuffer, after pngquant 1.0) ----

struct Pam {
    uint8_t r = 0, g = 0, b = 0, a = 0;
    bool operator==(const Pam&) const = default;
};
struct HistItem {
    Pam color;
    int value = 0;
};
struct CutBox {
    int ind = 0, colors = 0, sum = 0;
};

constexpr int kHashSize = 20023;
constexpr int kMaxHistColors = 32767;

int pamHash(const Pam& p)
{
    return int(((long(p.r) * 33023 + long(p.g) * 30013 + long(p.b) * 27011 + long(p.a) * 24007) & 0x7fffffff) % kHashSize);
}

// pam_computeacolorhist: the distinct colours with their counts, in the
// order pngquant's hash table lists them (by bucket, newest first); empty
// when there are more than kMaxHistColors.
std::vector<HistItem> colorHistogram(const std::vector<Pam>& pixels)
{
    std::vector<std::vector<HistItem>> buckets(kHashSize);
    int distinct = 0;
    for (const Pam& p : pixels) {
        std::vector<HistItem>& bucket = buckets[size_t(pamHash(p))];
        auto it = std::find_if(bucket.begin(), bucket.end(), [&p](const HistItem& h) { return h.color == p; });
        if (it != bucket.end()) {
            ++it->value;
            continue;
        }
        if (++distinct > kMaxHistColors) return {};
        bucket.push_back({p, 1});
    }
    std::vector<HistItem> out;
    out.reserve(size_t(distinct));
    for (const std::vector<HistItem>& bucket : buckets) out.insert(out.end(), bucket.rbegin(), bucket.rend());
    return out;
}

// Heckbert's median cut as pngquant splits: the first box of two colours or
// more, along its widest channel (alpha first on ties, then red, green,
// blue), at the median pixel; boxes kept sorted by pixel count. glibc's
// qsort is a stable merge sort, so stable sorts reproduce its order.
std::vector<Pam> medianCut(std::vector<HistItem>& hist, int sum, int maxval, int newColors)
{
    std::vector<CutBox> boxes{{0, int(hist.size()), sum}};
    while (int(boxes.size()) < newColors) {
        size_t bi = 0;
        while (bi < boxes.size() && boxes[bi].colors < 2) ++bi;
        if (bi == boxes.size()) break;
        const int indx = boxes[bi].ind, clrs = boxes[bi].colors, sm = boxes[bi].sum;
        int lo[4] = {255, 255, 255, 255}, hi[4] = {0, 0, 0, 0};
        for (int i = 0; i < clrs; ++i) {
            const Pam& c = hist[size_t(indx + i)].color;
            const int v[4] = {c.r, c.g, c.b, c.a};
            for (int k = 0; k < 4; ++k) lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
        }
        const int dr = hi[0] - lo[0], dg = hi[1] - lo[1], db = hi[2] - lo[2], da = hi[3] - lo[3];
        const int channel = (da >= dr && da >= dg && da >= db) ? 3 : (dr >= dg && dr >= db) ? 0 : (dg >= db) ? 1 : 2;
        const auto component = [channel](const HistItem& h) {
            return channel == 0 ? h.color.r : channel == 1 ? h.color.g : channel == 2 ? h.color.b : h.color.a;
        };
        std::stable_sort(hist.begin() + indx, hist.begin() + indx + clrs,
                         [&](const HistItem& x, const HistItem& y) { return component(x) < component(y); });
        int lowerSum = hist[size_t(indx)].value;
        const int halfSum = sm / 2;
        int i = 1;
        for (; i < clrs - 1; ++i) {
            if (lowerSum >= halfSum) break;
            lowerSum += hist[size_t(indx + i)].value;
        }
        boxes[bi].colors = i;
        boxes[bi].sum = lowerSum;
        boxes.push_back({indx + i, clrs - i, sm - lowerSum});
        std::stable_sort(boxes.begin(), boxes.end(), [](const CutBox& x, const CutBox& y) { return x.sum > y.sum; });
    }
    // REP_AVERAGE_PIXELS: each box's pixel-weighted mean.
    std::vector<Pam> map;
    for (const CutBox& box : boxes) {
        long r = 0, g = 0, b = 0, a = 0, n = 0;
        for (int i = 0; i < box.colors; ++i) {
            const HistItem& h = hist[size_t(box.ind + i)];
            r += long(h.color.r) * h.value, g += long(h.color.g) * h.value, b += long(h.color.b) * h.value, a += long(h.color.a) * h.value;
            n += h.value;
        }
        const auto mean = [n, maxval](long v) { return uint8_t(n > 0 ? std::min<long>(v / n, maxval) : maxval); };
        map.push_back({mean(r), mean(g), mean(b), mean(a)});
    }
    return map;
}

// msQuantizeRasterBuffer + msClassifyRasterBuffer: when the image has more
// colours than pngquant's histogram holds, its depth is halved until it
// fits; the palette is then at that depth (`maxval`), scaled up later.
void quantizeMedianCut(const QImage& img, int maxColors, uint32_t alphaMask, std::vector<uint32_t>& colors,
                       std::vector<uint8_t>& indices, int& maxval)
{
    const int w = img.width();
    std::vector<Pam> pixels;
    pixels.reserve(size_t(w) * size_t(img.height()));
    for (int y = 0; y < img.height(); ++y) {
        const auto* row = reinterpret_cast<const uint32_t*>(img.constScanLine(y));
        for (int x = 0; x < w; ++x) {
            const uint32_t p = pixelAt(row, x, alphaMask);
            pixels.push_back({uint8_t(p >> 16), uint8_t(p >> 8), uint8_t(p), uint8_t(p >> 24)});
        }
    }
    maxval = 255;
    std::vector<HistItem> hist;
    for (;;) {
        hist = colorHistogram(pixels);
        if (!hist.empty()) break;
        const int newMax = maxval / 2;
        for (Pam& p : pixels) {
            const auto depth = [&](uint8_t v) { return uint8_t((int(v) * newMax + maxval / 2) / maxval); };
            p = {depth(p.r), depth(p.g), depth(p.b), depth(p.a)};
        }
        maxval = newMax;
    }
    const int newColors = std::min(int(hist.size()), maxColors);
    const std::vector<Pam> palette = medianCut(hist, int(pixels.size()), maxval, newColors);
    colors.clear();
    for (const Pam& c : palette) colors.push_back(uint32_t(c.a) << 24 | uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b);
    // Each pixel to its nearest entry (the first of equals), colours cached.
    std::unordered_map<uint32_t, uint8_t> nearest;
    for (size_t i = 0; i < pixels.size(); ++i) {
        const Pam& p = pixels[i];
        const uint32_t key = uint32_t(p.a) << 24 | uint32_t(p.r) << 16 | uint32_t(p.g) << 8 | p.b;
        auto found = nearest.find(key);
        if (found == nearest.end()) {
            long best = 2000000000;
            uint8_t index = 0;
            for (size_t k = 0; k < palette.size(); ++k) {
                const Pam& c = palette[k];
                const long d = long(p.r - c.r) * (p.r - c.r) + long(p.g - c.g) * (p.g - c.g) + long(p.b - c.b) * (p.b - c.b)
                    + long(p.a - c.a) * (p.a - c.a);
                if (d < best) best = d, index = uint8_t(k);
            }
            found = nearest.emplace(key, index).first;
        }
        indices[i] = found->second;
    }
}

// Un-premultiplies the palette, puts non-opaque entries first and remaps indices.
// remapPaletteForPNG: a palette at depth `maxval` scaled back to 255 first.
QList<QRgb> finishPalette(const std::vector<uint32_t>& colors, bool premultiplied, std::vector<uint8_t>& indices, int maxval = 255) {
    const uint8_t* table = unpremultiplyTable(Unpremultiply::ScaleByInverse);
    std::array<uint8_t, 256> remap{};
    QList<QRgb> palette(static_cast<qsizetype>(colors.size()));
    int front = 0, back = static_cast<int>(colors.size()) - 1;
    bool moved = false;
    for (int i = 0; i < static_cast<int>(colors.size()); ++i) {
        uint32_t p = colors[i];
        if (maxval != 255) {
            const auto up = [maxval](uint32_t v) { return std::min<uint32_t>(255, (v * 255 + uint32_t(maxval >> 1)) / uint32_t(maxval)); };
            p = up(p >> 24) << 24 | up((p >> 16) & 0xFF) << 16 | up((p >> 8) & 0xFF) << 8 | up(p & 0xFF);
        }
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
    int maxval = 255;
    result.exact = tryExact(canvas, maxColors, alphaMask, colors, result.indices);
    if (!result.exact) quantizeMedianCut(canvas, maxColors, alphaMask, colors, result.indices, maxval);
    result.palette = finishPalette(colors, premultiplied, result.indices, maxval);
    return result;
}

}  // namespace maptune
