#include "raster/raster_classifier.h"
#include "raster/raster_class_expression.h"
#include "mapfile/processing.h"

#include <QStringList>

#include <algorithm>
#include <functional>

namespace maptune {

namespace {

bool hasColorRange(const StyleDef& s) { return s.hasRange && s.colorRangeMin.isSet() && s.colorRangeMax.isSet(); }

enum class RangeSpace { Rgb, Hsl };

struct Hsl {
    double h = 0, s = 0, l = 0;
};

Hsl toHsl(const Color& c)
{
    const double r = c.r / 255.0, g = c.g / 255.0, b = c.b / 255.0;
    const double maxv = std::max({r, g, b}), minv = std::min({r, g, b}), d = maxv - minv;
    Hsl out;
    out.l = (maxv + minv) / 2;
    if (maxv != minv) {
        out.s = out.l > 0.5 ? d / (2 - maxv - minv) : d / (maxv + minv);
        if (maxv == r) out.h = (g - b) / d + (g < b ? 6 : 0);
        else if (maxv == g) out.h = (b - r) / d + 2;
        else out.h = (r - g) / d + 4;
        out.h /= 6;
    }
    return out;
}

double hueToRgb(double p, double q, double t)
{
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1.0 / 6) return p + (q - p) * 6 * t;
    if (t < 0.5) return q;
    if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
    return p;
}

Rgba8 fromHsl(const Hsl& c, double alpha)
{
    double r = c.l, g = c.l, b = c.l;
    if (c.s != 0) {
        const double q = c.l < 0.5 ? c.l * (1 + c.s) : c.l + c.s - c.l * c.s;
        const double p = 2 * c.l - q;
        r = hueToRgb(p, q, c.h + 1.0 / 3);
        g = hueToRgb(p, q, c.h);
        b = hueToRgb(p, q, c.h - 1.0 / 3);
    }
    const auto byte = [](double v) { return uint8_t(int(std::clamp(v, 0.0, 255.0))); };
    return {byte(r * 255), byte(g * 255), byte(b * 255), byte(alpha)};
}

// MapServer's msValueToRange(): linear between the two colours in RGB or in
// HSL (PROCESSING RANGE_COLORSPACE), clamped, truncated.
Rgba8 rangeColor(const StyleDef& s, double value, RangeSpace space)
{
    const double span = s.dataRangeMax - s.dataRangeMin;
    const double t = (value - s.dataRangeMin) / span;
    const auto mixed = [t](double a, double b) { return a + (b - a) * t; };
    const auto mix = [&mixed](int a, int b) { return uint8_t(int(std::clamp(mixed(a, b), 0.0, 255.0))); };
    const uint8_t alpha = mix(s.colorRangeMin.a, s.colorRangeMax.a);
    if (space == RangeSpace::Hsl) {
        const Hsl a = toHsl(s.colorRangeMin), b = toHsl(s.colorRangeMax);
        return fromHsl({mixed(a.h, b.h), mixed(a.s, b.s), mixed(a.l, b.l)}, alpha);
    }
    return {mix(s.colorRangeMin.r, s.colorRangeMax.r), mix(s.colorRangeMin.g, s.colorRangeMax.g),
            mix(s.colorRangeMin.b, s.colorRangeMax.b), alpha};
}

uint8_t opacityAlpha(const StyleDef& s) { return uint8_t(255 * int(s.opacity.value) / 100); }

class ClassTable final : public RasterClassifier {
public:
    struct Entry {
        const ClassDef* cls;
        RasterClassMatch match;  // empty: matches everything (no EXPRESSION)
    };
    ClassTable(std::vector<Entry> entries, RangeSpace space) : m_entries(std::move(entries)), m_space(space) {}

    Rgba8 classifyIndex(int index, int r, int g, int b) const override
    {
        const ClassDef* c = find(index, r, g, b);
        if (!c || c->styles.isEmpty()) return {};
        const StyleDef& s0 = c->styles[0];
        if (hasColorRange(s0)) {
            for (const StyleDef& s : c->styles) {
                if (!hasColorRange(s) || r < s.dataRangeMin || r > s.dataRangeMax) continue;
                Rgba8 col = rangeColor(s, r, m_space);
                if (col.a == 255) col.a = opacityAlpha(s0);
                return col;
            }
            return {};
        }
        if (s0.color.color.a == 0 && s0.color.isSet()) return {};
        if (s0.color.color.isSet())
            return {uint8_t(s0.color.color.r), uint8_t(s0.color.color.g), uint8_t(s0.color.color.b), opacityAlpha(s0)};
        return {uint8_t(r), uint8_t(g), uint8_t(b), 255};  // no colour: keep the raster's
    }

    Rgba8 classifyValue(double value, double rangeValue, double halfWidth) const override
    {
        const ClassDef* c = find(value, -1, -1, -1);
        if (!c || c->styles.isEmpty()) return {};
        const StyleDef* style = &c->styles[0];
        Rgba8 col;
        if (hasColorRange(c->styles[0])) {
            style = nullptr;
            for (const StyleDef& s : c->styles) {
                if (hasColorRange(s) && rangeValue + halfWidth >= s.dataRangeMin
                    && rangeValue - halfWidth <= s.dataRangeMax) {
                    style = &s;
                    col = rangeColor(s, rangeValue, m_space);
                    break;
                }
            }
            if (!style) return {};
        } else {
            if (!style->color.color.isSet()) return {};
            col = {uint8_t(style->color.color.r), uint8_t(style->color.color.g), uint8_t(style->color.color.b), 0};
            if (style->color.color.a == 0) return {};
        }
        col.a = opacityAlpha(*style);
        return col;
    }

private:
    const ClassDef* find(double pixel, int r, int g, int b) const
    {
        for (const Entry& e : m_entries)
            if (!e.match || e.match(pixel, r, g, b)) return e.cls;
        return nullptr;
    }
    std::vector<Entry> m_entries;
    RangeSpace m_space;
};

}  // namespace

Result<std::unique_ptr<RasterClassifier>> RasterClassifier::create(const LayerDef& layer)
{
    bool classified = false;
    for (const ClassDef& c : layer.classes) {
        for (const StyleDef& s : c.styles) classified = classified || hasColorRange(s);
        classified = classified || c.expression.isSet();
    }
    if (!classified) return std::unique_ptr<RasterClassifier>();
    RangeSpace space = RangeSpace::Rgb;
    const QString named = ProcessingOptions(layer.processing).value(QStringLiteral("RANGE_COLORSPACE"), QStringLiteral("RGB"));
    if (named.compare(QLatin1String("HSL"), Qt::CaseInsensitive) == 0) space = RangeSpace::Hsl;
    else if (named.compare(QLatin1String("RGB"), Qt::CaseInsensitive) != 0)
        return Error(QStringLiteral("unknown RANGE_COLORSPACE \"%1\", expecting RGB or HSL").arg(named));
    std::vector<ClassTable::Entry> entries;
    for (const ClassDef& c : layer.classes) {
        if (c.status == 0) continue;
        ClassTable::Entry e{&c, {}};
        if (c.expression.isSet()) {
            auto m = compileRasterExpression(c.expression);
            if (!m) return m.error();
            e.match = std::move(m).value();
        }
        entries.push_back(std::move(e));
    }
    return std::unique_ptr<RasterClassifier>(std::make_unique<ClassTable>(std::move(entries), space));
}

}  // namespace maptune
