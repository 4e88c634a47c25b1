#include "wms/wms_filter_param.h"

#include "wms/get_map_params.h"
#include "wms/ogc_filter.h"
#include "wms/wms_dimensions.h"

namespace maptune {

namespace {

const QString kPrefix = QStringLiteral("msWMSApplyFilter: WMS server error. ");

// "(a)(b)()" as its parts; a value not starting with '(' is one part.
std::optional<QStringList> splitFilters(const QString& value)
{
    const QString v = value.trimmed();
    if (!v.startsWith(QLatin1Char('('))) return QStringList{v};
    QStringList parts;
    qsizetype i = 0;
    while (i < v.size()) {
        if (v[i].isSpace()) {
            ++i;
            continue;
        }
        if (v[i] != QLatin1Char('(')) return std::nullopt;
        // A filter holds no parentheses of its own outside text; the part
        // ends at the ')' that follows its last '>' (or at once when empty).
        const qsizetype close = v.indexOf(QLatin1String(")("), i + 1);
        const qsizetype end = close >= 0 ? close : (v.endsWith(QLatin1Char(')')) ? v.size() - 1 : -1);
        if (end < 0) return std::nullopt;
        parts << v.mid(i + 1, end - i - 1).trimmed();
        i = end + 1;
    }
    return parts;
}

}  // namespace

WmsFilterResult applyWmsFilter(const WmsContext& ctx, const PreparedMapPtr& base, const QStringList& layers, const QString& crs)
{
    WmsFilterResult out{base, std::nullopt};
    const std::optional<QString> value = ctx.request.value(QStringLiteral("FILTER"));
    if (!value || value->trimmed().isEmpty()) return out;
    const std::optional<QStringList> filters = splitFilters(*value);
    if (!filters || filters->size() != layers.size()) {
        out.error = ctx.error(QStringLiteral("InvalidParameterValue"),
                              kPrefix + QStringLiteral("Wrong number of filter elements, one filter must be specified for each "
                                                       "requested layer or groups."));
        return out;
    }
    const bool swap = ctx.version >= Wms130 && crsAxisInverted(crs);
    const QSet<int> enabled = enabledLayers(ctx.map, QStringLiteral("GetMap"));
    QList<std::pair<int, OgcFilter>> applied;
    QString key = QStringLiteral("filter\x01") + crs;
    // A layer named by several entries is drawn once, with the filter of its
    // first mention (as it takes the style of its first mention).
    QSet<int> mentioned;
    for (qsizetype i = 0; i < filters->size(); ++i) {
        OgcFilter f;
        if (!(*filters)[i].isEmpty()) {
            f = parseOgcFilter((*filters)[i], crs, swap);
            if (!f.error.isEmpty()) {
                out.error = ctx.error(QStringLiteral("InvalidParameterValue"),
                                      kPrefix + QStringLiteral("Invalid or Unsupported FILTER in GetMap : %1").arg(f.error));
                return out;
            }
        }
        for (int j = 0; j < ctx.map.layers.size(); ++j) {
            if (!enabled.contains(j) || !layerMatches(ctx.map, ctx.map.layers[j], layers[i]) || mentioned.contains(j)) continue;
            mentioned.insert(j);
            if (!(*filters)[i].isEmpty()) applied.append({j, f});
        }
        key += QStringLiteral("\x01%1:%2").arg(i).arg((*filters)[i]);
    }
    if (applied.isEmpty()) return out;
    out.map = base->derived(key, [&base, &applied] {
        MapDef map = base->map();
        for (const auto& [index, f] : applied) {
            LayerDef& layer = map.layers[index];
            if (!f.expression.isEmpty()) {
                const QString old = filterAsLogical(layer);
                layer.filter = {ExpressionDef::Type::Logical, old.isEmpty() ? f.expression : QStringLiteral("(%1) AND %2").arg(old, f.expression)};
                layer.filterItem.clear();
            }
            layer.requestSpatialFilters += f.spatial;
        }
        return PreparedMap::Derivation{std::move(map), {}};
    });
    return out;
}

}  // namespace maptune
