// OGR feature style strings as STYLEITEM "AUTO" reads them (through GDAL's
// parser, then MapTune's mapping onto styles), and the same bytes as the
// PROCESSING values of CHART, KERNELDENSITY and IDW layers.

#include "fuzz_targets.h"

#include "mapfile/map_def.h"
#include "mapfile/processing.h"
#include "raster/interpolation_grid.h"
#include "render/chart_layer.h"
#include "render/ogr_auto_style.h"

#include <QString>

#include <cmath>

namespace maptune::fuzz {

int ogrStyle(const uint8_t* data, size_t size)
{
    if (size > 2048) return -1;
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    static const MapDef map = [] {
        MapDef m;
        SymbolDef s;
        s.name = QStringLiteral("rectsymbol");
        m.symbols << s;
        return m;
    }();
    for (LayerType type : {LayerType::Point, LayerType::Line, LayerType::Polygon}) {
        const OgrAutoStyle own = ogrAutoStyle(text, type, map);
        check(own.styles.size() <= 3, "a style string gives a background, a fill and an outline at most");
        for (const StyleDef& s : own.styles) check(s.symbolName.isEmpty() || s.symbolName == QLatin1String("rectsymbol"), "only mapfile symbols");
        check(own.labels.size() <= 1, "one label at most");
        for (const LabelDef& l : own.labels) check(!l.text.text.isEmpty(), "a label has text");
    }
    LayerDef layer;
    for (const char* key : {"CHART_TYPE", "CHART_SIZE", "CHART_SIZE_RANGE", "CHART_SCALE", "CHART_BAR_MAXVAL"})
        layer.processing << QLatin1String(key) + QLatin1Char('=') + text.section(QLatin1Char(';'), 0, 0);
    const Result<ChartSettings> chart = ChartSettings::fromLayer(layer);
    if (chart && chart->sizeRange) {
        // A diameter from a sane range stays in it (give or take MS_NINT's rounding).
        const ChartSettings::SizeRange& r = *chart->sizeRange;
        const double d = chart->pieDiameter(double(size % 50));
        if (r.minDiameter >= 0 && r.minDiameter <= r.maxDiameter && std::isfinite(r.maxDiameter) && std::isfinite(r.minValue)
            && std::isfinite(r.maxValue) && std::isfinite(r.exponent))
            check(d >= r.minDiameter - 0.5 && d <= r.maxDiameter + 0.5, "a ranged diameter stays in its range");
    } else if (!chart) {
        check(!chart.message().isEmpty(), "a refused chart says why");
    }
    const ProcessingOptions options({QStringLiteral("KERNELDENSITY_RADIUS=") + text, QStringLiteral("IDW_RADIUS=") + text,
                                     QStringLiteral("KERNELDENSITY_NORMALIZATION=") + text});
    for (auto method : {InterpolationParams::Method::KernelDensity, InterpolationParams::Method::Idw}) {
        InterpolationParams p = InterpolationParams::fromProcessing(method, options, 16, 12);
        check(p.radius >= 0 && p.radius <= 10000, "the radius is bounded");
        p.radius = std::min(p.radius, 8);  // the grid's cost, not its correctness, grows with it
        p.computeBorders = size % 2 == 1;
        InterpolationGrid grid(16, 12, p);
        for (size_t i = 0; i + 1 < std::min<size_t>(size, 64); i += 2) grid.add(data[i] % 40 - 8, data[i + 1] % 30 - 8, double(data[i]) - 100);
        check(grid.values().size() == 16 * 12, "a value per pixel");
    }
    return 0;
}

}  // namespace maptune::fuzz
