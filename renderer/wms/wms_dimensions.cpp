#include "wms/wms_dimensions.h"

#include "expr/expr_time.h"

namespace maptune {

namespace {

const QString kInvalid = QStringLiteral("InvalidDimensionValue");
const QString kMissing = QStringLiteral("MissingDimensionValue");

// One entry of a value list: a value, or a range "a/b[/resolution]" (the
// resolution is not checked, as in MapServer).
struct Item {
    QString first;
    std::optional<QString> last;
};

QList<Item> items(const QString& text)
{
    QList<Item> out;
    for (const QString& entry : text.split(QLatin1Char(','))) {
        const QStringList parts = entry.split(QLatin1Char('/'));
        if (parts.size() == 1) out.append({parts[0].trimmed(), std::nullopt});
        else out.append({parts[0].trimmed(), parts[1].trimmed()});
    }
    return out;
}

std::optional<ExprTime> parseTime(const QString& text)
{
    return ExprTime::parse(text);
}

// msValidateTimeValue: every item (value or range) lies in some extent item;
// extent values match exactly. A quote anywhere refuses the value.
// More values than any client needs in one request: refused as invalid
// rather than turned into a filter (and a statement) of that size.
constexpr qsizetype kMaxValues = 100;

bool timeInExtent(const QString& value, const QString& extent)
{
    if (value.contains(QLatin1Char('\'')) || value.count(QLatin1Char(',')) >= kMaxValues) return false;
    const QList<Item> allowed = items(extent);
    for (const Item& r : items(value)) {
        const auto a = parseTime(r.first);
        const auto b = r.last ? parseTime(*r.last) : a;
        // A range that ends before it starts is no range (min <= max).
        if (!a || !b || a->compare(*b) > 0) return false;
        bool inside = false;
        for (const Item& e : allowed) {
            const auto ea = parseTime(e.first);
            if (!ea) continue;
            if (e.last) {
                const auto eb = parseTime(*e.last);
                inside |= eb && ea->compare(*a) <= 0 && b->compare(*eb) <= 0;
            } else {
                inside |= !r.last && *ea == *a;
            }
        }
        if (!inside) return false;
    }
    return true;
}

// wms_timeformat: the resolution the request's values are read at (the
// pattern each value matches first; the last value's counts), 0 for exact
// comparison when no known format is listed, nullopt when a value matches
// none of them.
std::optional<int> timeResolution(const QString& value, const std::optional<QString>& formats)
{
    QList<int> known;
    for (const QString& f : formats.value_or(QString()).split(QLatin1Char(',')))
        if (const int i = ExprTime::formatIndex(f); i >= 0) known << i;
    if (known.isEmpty()) return 0;
    int resolution = 0;
    for (const Item& r : items(value)) {
        for (const QString& end : {r.first, r.last.value_or(r.first)}) {
            int matched = -1;
            for (int i : std::as_const(known))
                if (ExprTime::matchesFormat(end, i)) {
                    matched = i;
                    break;
                }
            if (matched < 0) return std::nullopt;
            resolution = ExprTime::formatResolution(matched);
        }
    }
    return resolution;
}

// The first or last moment that has the same fields as `t` down to
// `resolution` (compared field by field, as MapServer compares times).
ExprTime bound(ExprTime t, int resolution, bool last)
{
    const int low = last ? 99 : 0;
    if (resolution < 2) t.month = last ? 98 : 0;
    if (resolution < 3) t.day = low;
    if (resolution < 4) t.hour = low;
    if (resolution < 5) t.minute = low;
    if (resolution < 6) t.second = low;
    return t;
}

// makeTimeFilter: `[F]` = `v` for values, `[F]` >= `a` AND `[F]` <= `b` for
// ranges, OR-ed; the first item decides whether the request is ranges, and
// items of the other kind are dropped. At a resolution (wms_timeformat) a
// value means every time that has its fields down to that resolution.
QString timeFilter(const QString& item, const QString& value, int resolution, RequestConditionDef* condition)
{
    const QList<Item> requested = items(value);
    const bool ranges = requested.first().last.has_value();
    const QString attr = QStringLiteral("`[%1]`").arg(item);
    *condition = RequestConditionDef{item, RequestConditionDef::Kind::Time, {}};
    QStringList parts;
    for (const Item& r : requested) {
        if (r.last.has_value() != ranges) continue;
        const ExprTime a = *parseTime(r.first);
        const ExprTime b = r.last ? *parseTime(*r.last) : a;
        if (!ranges && resolution == 0) {
            parts << QStringLiteral("(%1 = `%2`)").arg(attr, a.literal());
            condition->ranges.append({a.literal(), a.literal()});
            continue;
        }
        const ExprTime lo = resolution ? bound(a, resolution, false) : a;
        const ExprTime hi = resolution ? bound(b, resolution, true) : b;
        parts << QStringLiteral("(%1 >= `%2` AND %1 <= `%3`)").arg(attr, lo.literal(), hi.literal());
        condition->ranges.append({lo.literal(), hi.literal()});
    }
    return QLatin1Char('(') + parts.join(QLatin1String(" OR ")) + QLatin1Char(')');
}

bool number(const QString& text, double* out)
{
    bool ok = false;
    *out = text.trimmed().toDouble(&ok);
    return ok;
}

// msWMSValidateDimensionValue, and the filter of the values it accepts:
// numbers as numbers, strings as the extent spells them, ranges as ranges.
std::optional<QString> dimensionFilter(const QString& item, const QString& value, const QString& extent, bool forceString,
                                       RequestConditionDef* condition)
{
    if (value.count(QLatin1Char(',')) >= kMaxValues) return std::nullopt;
    const QList<Item> allowed = items(extent);
    double probe = 0;
    const bool numeric = !forceString && !allowed.isEmpty() && number(allowed.first().first, &probe);
    *condition = RequestConditionDef{item, numeric ? RequestConditionDef::Kind::Number : RequestConditionDef::Kind::String, {}};
    QStringList parts;
    // One accepted value or range: its FILTER part, and the same for databases.
    const auto numberRange = [&](double lo, double hi) {
        const QString a = QString::number(lo, 'g', 17), b = QString::number(hi, 'g', 17);
        condition->kind = RequestConditionDef::Kind::Number;
        condition->ranges.append({a, b});
        return lo == hi ? QStringLiteral("([%1] = %2)").arg(item, a) : QStringLiteral("([%1] >= %2 AND [%1] <= %3)").arg(item, a, b);
    };
    for (const Item& r : items(value)) {
        std::optional<QString> part;
        for (const Item& e : allowed) {
            if (r.last) {
                double a = 0, b = 0, ea = 0, eb = 0;
                if (e.last && number(r.first, &a) && number(*r.last, &b) && number(e.first, &ea) && number(*e.last, &eb) && ea <= a
                    && b <= eb && a <= b)
                    part = numberRange(a, b);
            } else if (e.last) {
                double v = 0, ea = 0, eb = 0;
                if (number(r.first, &v) && number(e.first, &ea) && number(*e.last, &eb) && ea <= v && v <= eb) part = numberRange(v, v);
            } else if (numeric) {
                double v = 0, ev = 0;
                if (number(r.first, &v) && number(e.first, &ev) && v == ev) part = numberRange(v, v);
            } else if (r.first == e.first && !e.first.contains(QLatin1Char('"'))) {
                part = QStringLiteral("(\"[%1]\" = \"%2\")").arg(item, e.first);
                condition->kind = RequestConditionDef::Kind::String;
                condition->ranges.append({e.first, e.first});
            }
            if (part) break;
        }
        if (!part) return std::nullopt;
        parts << *part;
    }
    return QLatin1Char('(') + parts.join(QLatin1String(" OR ")) + QLatin1Char(')');
}

struct Failure {
    QString code;
    QString message;
};

class LayerFilters {
public:
    explicit LayerFilters(const WmsContext& ctx) : m_ctx(ctx) {}

    // msWMSApplyTime for the active layers.
    std::optional<Failure> applyTime(const QList<int>& active)
    {
        const std::optional<QString> time = m_ctx.request.value(QStringLiteral("TIME"));
        bool anyDefault = false;
        for (int i : active)
            anyDefault |= timeLayer(i) && wmsMetadata(m_ctx.map.layers[i].metadata, QStringLiteral("timedefault")).has_value();
        if (!time && !anyDefault) return std::nullopt;
        const auto formats = wmsMetadata(m_ctx.map.web.metadata, QStringLiteral("timeformat"));
        for (int i : active) {
            if (!timeLayer(i)) continue;
            const KeyValues& md = m_ctx.map.layers[i].metadata;
            const QString extent = *wmsMetadata(md, QStringLiteral("timeextent"));
            const auto fallback = wmsMetadata(md, QStringLiteral("timedefault"));
            QString value = time.value_or(QString()).trimmed();
            int resolution = 0;
            if (value.isEmpty()) {
                if (!fallback)
                    return Failure{kMissing, QStringLiteral("msWMSApplyTime: WMS server error. No Time value was given, and no default time value defined.")};
                value = *fallback;
            } else {
                const std::optional<int> r = timeResolution(value, formats);
                if (!r || !timeInExtent(value, extent)) {
                    // A value outside the extent falls back to a valid default.
                    if (!fallback || !timeInExtent(*fallback, extent)) return outside(value, extent);
                    value = *fallback;
                } else {
                    resolution = *r;
                }
            }
            if (!timeInExtent(value, extent)) return outside(value, extent);
            RequestConditionDef condition;
            const QString filter = timeFilter(*wmsMetadata(md, QStringLiteral("timeitem")), value, resolution, &condition);
            add(i, filter, condition);
        }
        return std::nullopt;
    }

    // msWMSApplyDimension for the active layers: elevation and dim_<name>.
    std::optional<Failure> applyDimensions(const QList<int>& active)
    {
        for (int i : active) {
            const KeyValues& md = m_ctx.map.layers[i].metadata;
            const auto list = md.value(QStringLiteral("wms_dimensionlist"));
            if (!list) continue;
            for (QString name : list->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                name = name.trimmed();
                const bool elevation = name.compare(QLatin1String("elevation"), Qt::CaseInsensitive) == 0;
                const auto given = m_ctx.request.value(elevation ? QStringLiteral("ELEVATION") : QStringLiteral("DIM_") + name);
                if (!given) continue;
                const auto meta = [&md, &name](const char* key) { return md.value(QStringLiteral("wms_%1_%2").arg(name, QLatin1String(key))); };
                QString value = given->trimmed();
                if (value.isEmpty()) value = meta("default").value_or(QString()).trimmed();
                if (value.isEmpty()) continue;
                const auto item = meta("item"), extent = meta("extent"), units = meta("units");
                const bool character = meta("type").value_or(QString()).compare(QLatin1String("Character"), Qt::CaseInsensitive) == 0;
                std::optional<QString> filter;
                RequestConditionDef condition;
                if (item && extent && units) filter = dimensionFilter(*item, value, *extent, character, &condition);
                if (!filter)
                    return Failure{kInvalid, QStringLiteral("msWMSApplyDimension: WMS server error. Dimension %1 with a value of %2 is "
                                                            "invalid or outside the extents defined").arg(name, *given)};
                add(i, *filter, condition);
            }
        }
        return std::nullopt;
    }

    bool isEmpty() const { return m_filters.isEmpty(); }

    QString key() const
    {
        QString key = QStringLiteral("dimensions");
        for (const auto& [layer, filter] : m_filters) key += QStringLiteral("\x01%1:%2").arg(layer).arg(filter);
        return key;
    }

    // The map with every layer's filters AND-ed to its FILTER.
    MapDef apply() const
    {
        MapDef map = m_ctx.map;
        for (const auto& entry : m_filters) {
            LayerDef& layer = map.layers[entry.first];
            const QString old = filterAsLogical(layer);
            layer.filter = {ExpressionDef::Type::Logical, old.isEmpty() ? entry.second : QStringLiteral("(%1) AND %2").arg(old, entry.second)};
            layer.filterItem.clear();
        }
        for (const auto& [index, condition] : m_conditions) map.layers[index].requestConditions.append(condition);
        return map;
    }

private:
    bool timeLayer(int i) const
    {
        const KeyValues& md = m_ctx.map.layers[i].metadata;
        return wmsMetadata(md, QStringLiteral("timeextent")).has_value() && wmsMetadata(md, QStringLiteral("timeitem")).has_value();
    }

    static Failure outside(const QString& value, const QString& extent)
    {
        return {kInvalid, QStringLiteral("msWMSApplyTime: WMS server error. Time value(s) %1 given is invalid or outside the time "
                                         "extent defined (%2).").arg(value, extent)};
    }

    void add(int layer, const QString& filter, const RequestConditionDef& condition)
    {
        m_conditions.append({layer, condition});
        for (auto& entry : m_filters)
            if (entry.first == layer) {
                entry.second = QStringLiteral("%1 AND %2").arg(entry.second, filter);
                return;
            }
        m_filters.append({layer, filter});
    }

    const WmsContext& m_ctx;
    QList<std::pair<int, QString>> m_filters;  // layer index -> condition
    QList<std::pair<int, RequestConditionDef>> m_conditions;  // the same, for databases
};

}  // namespace

QString filterAsLogical(const LayerDef& layer)
{
    using Type = ExpressionDef::Type;
    const ExpressionDef& f = layer.filter;
    const QString item = QStringLiteral("\"[%1]\"").arg(layer.filterItem);
    const QChar quote = f.text.contains(QLatin1Char('"')) ? QLatin1Char('\'') : QLatin1Char('"');
    const QString text = quote + f.text + quote;
    switch (f.type) {
    case Type::Logical: return f.text;
    case Type::String: return layer.filterItem.isEmpty() ? QString() : item + QStringLiteral(" = ") + text;
    case Type::IString: return layer.filterItem.isEmpty() ? QString() : item + QStringLiteral(" =* ") + text;
    case Type::Regex: return layer.filterItem.isEmpty() ? QString() : item + QStringLiteral(" ~ ") + text;
    case Type::IRegex: return layer.filterItem.isEmpty() ? QString() : item + QStringLiteral(" ~* ") + text;
    case Type::List: return layer.filterItem.isEmpty() ? QString() : item + QStringLiteral(" in ") + text;
    case Type::None: break;
    }
    return QString();
}

DimensionFilters applyWmsDimensions(const WmsContext& ctx, const QList<int>& active)
{
    DimensionFilters out{ctx.prepared.shared_from_this(), std::nullopt};
    LayerFilters filters(ctx);
    std::optional<Failure> failed = filters.applyTime(active);
    if (!failed) failed = filters.applyDimensions(active);
    if (failed) {
        out.error = ctx.error(failed->code, failed->message);
        return out;
    }
    if (filters.isEmpty()) return out;
    out.map = ctx.prepared.derived(filters.key(), [&filters] { return PreparedMap::Derivation{filters.apply(), {}}; });
    return out;
}

QList<LayerDimension> layerDimensions(const LayerDef& layer)
{
    QList<LayerDimension> out;
    const KeyValues& md = layer.metadata;
    if (const auto extent = wmsMetadata(md, QStringLiteral("timeextent")))
        out.append({QStringLiteral("time"), QStringLiteral("ISO8601"), *extent, wmsMetadata(md, QStringLiteral("timedefault")), true});
    const auto list = md.value(QStringLiteral("wms_dimensionlist"));
    for (QString name : list.value_or(QString()).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        name = name.trimmed();
        const auto meta = [&md, &name](const char* key) { return md.value(QStringLiteral("wms_%1_%2").arg(name, QLatin1String(key))); };
        const auto item = meta("item"), extent = meta("extent"), units = meta("units");
        if (item && extent && units) out.append({name, *units, *extent, meta("default"), false});
    }
    return out;
}

}  // namespace maptune
