#include "raster/raster_classifier.h"
#include "raster/raster_class_expression.h"

#include <QStringList>

#include <algorithm>
#include <functional>

namespace maptune {

namespace {

bool hasColorRange(const StyleDef& s) { return s.hasRange && s.colorRangeMin.isSet() && s.colorRangeMax.isSet(); }

// MapServer's msValueToRange() in RGB: linear between the two colours, clamped, truncated.
Rgba8 rangeColor(const StyleDef& s, double value)
{
    const double span = s.dataRangeMax - s.dataRangeMin;
    const double t = (value - s.dataRangeMin) / span;
    const auto mix = [t](int a, int b) { return uint8_t(int(std::clamp(a + (b - a) * t, 0.0, 255.0))); };
    return {mix(s.colorRangeMin.r, s.colorRangeMax.r), mix(s.colorRangeMin.g, s.colorRangeMax.g),
            mix(s.colorRangeMin.b, s.colorRangeMax.b), mix(s.colorRangeMin.a, s.colorRangeMax.a)};
}

uint8_t opacityAlpha(const StyleDef& s) { return uint8_t(255 * int(s.opacity.value) / 100); }

class ClassTable final : public RasterClassifier {
public:
    struct Entry {
        const ClassDef* cls;
        RasterClassMatch match;  // empty: matches everything (no EXPRESSION)
    };
    explicit ClassTable(std::vector<Entry> entries) : m_entries(std::move(entries)) {}

    Rgba8 classifyIndex(int index, int r, int g, int b) const override
    {
        const ClassDef* c = find(index, r, g, b);
        if (!c || c->styles.isEmpty()) return {};
        const StyleDef& s0 = c->styles[0];
        if (hasColorRange(s0)) {
            for (const StyleDef& s : c->styles) {
                if (!hasColorRange(s) || r < s.dataRangeMin || r > s.dataRangeMax) continue;
                Rgba8 col = rangeColor(s, r);
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
                    col = rangeColor(s, rangeValue);
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
    return std::unique_ptr<RasterClassifier>(std::make_unique<ClassTable>(std::move(entries)));
}

}  // namespace maptune
