#include "wms/get_map_params.h"

#include "wms/kml_output.h"
#include "wms/vector_tile_output.h"
#include "wms/wms_dimensions.h"
#include "wms/wms_filter_param.h"

#include "encode/output_format.h"
#include "geo/proj_context.h"

#include <proj.h>

#include <cmath>

namespace maptune {

bool crsAxisInverted(const QString& srs)
{
    if (!srs.startsWith(QLatin1String("EPSG:"), Qt::CaseInsensitive)) return false;
    PJ_CONTEXT* ctx = threadProjContext();
    PJ* crs = proj_create(ctx, srs.toUpper().toUtf8().constData());
    if (!crs) return false;
    bool inverted = false;
    PJ* cs = proj_crs_get_coordinate_system(ctx, crs);
    if (!cs && proj_get_type(crs) == PJ_TYPE_COMPOUND_CRS) {
        if (PJ* horiz = proj_crs_get_sub_crs(ctx, crs, 0)) {
            cs = proj_crs_get_coordinate_system(ctx, horiz);
            proj_destroy(horiz);
        }
    }
    if (cs) {
        const char* direction = nullptr;
        if (proj_cs_get_axis_info(ctx, cs, 0, nullptr, nullptr, &direction, nullptr, nullptr, nullptr, nullptr)
            && direction)
            inverted = qstrnicmp(direction, "north", 5) == 0 || qstrnicmp(direction, "south", 5) == 0;
        proj_destroy(cs);
    }
    proj_destroy(crs);
    return inverted;
}

namespace {

struct Loader {
    Loader(const WmsContext& c, const QString& r) : ctx(c), request(r) {}
    const WmsContext& ctx;
    QString request;  // the operation whose enable_request settings apply
    GetMapParams p;
    bool srsFound = false, bboxFound = false, formatFound = false, widthFound = false, heightFound = false;
    std::optional<QString> styles;
    QStringList wmsLayers;
    QList<std::pair<int, QString>> classGroups;  // STYLES: layer index -> the class group it draws
    bool layersGiven = false;
    int validLayers = 0, invalidLayers = 0;

    ExceptionImageSize imageSize() const
    {
        const int max = ctx.map.maxSize;
        if (p.width < 1 || p.height < 1 || p.width > max || p.height > max) return {};
        return {p.width, p.height};
    }
    Response fail(const QString& code, const QString& message) const
    {
        return ctx.error(code, QStringLiteral("msWMSLoadGetMapParams(): WMS server error. ") + message, imageSize());
    }

    std::optional<Response> readLayers(const QString& value)
    {
        layersGiven = true;
        wmsLayers = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (wmsLayers.isEmpty()) return fail({}, QStringLiteral("At least one layer name required in LAYERS."));
        if (ctx.version >= Wms130) {
            if (auto limit = wmsMetadata(ctx.map.web.metadata, QStringLiteral("layerlimit"));
                limit && wmsLayers.size() > limit->toInt())
                return fail({}, QStringLiteral("Number of layers requested exceeds LayerLimit."));
        }
        const QSet<int> enabled = enabledLayers(ctx.map, request);
        QList<int> order;
        for (int j = 0; j < ctx.map.layers.size(); ++j)
            if (ctx.map.layers[j].status == LayerStatus::Default) order << j;
        for (const QString& name : wmsLayers) {
            bool found = false;
            for (int j = 0; j < ctx.map.layers.size(); ++j) {
                if (!enabled.contains(j) || !layerMatches(ctx.map, ctx.map.layers[j], name)) continue;
                if (!order.contains(j)) order << j;
                ++validLayers;
                found = true;
            }
            if (!found) ++invalidLayers;
        }
        p.layers = order;
        return std::nullopt;
    }

    std::optional<Response> readSrs(const QString& value)
    {
        srsFound = true;
        QString v = value;
        const bool v13 = ctx.version >= Wms130;
        bool ok = false;
        if (v.startsWith(QLatin1String("EPSG:"), Qt::CaseInsensitive)) {
            ok = true;
            if (v13 && v.endsWith(QLatin1Char(','))) v.chop(1);
        } else if (v.startsWith(QLatin1String("AUTO:"), Qt::CaseInsensitive)) {
            ok = !v13;
        } else if (v.startsWith(QLatin1String("AUTO2:"), Qt::CaseInsensitive)
                   || v.startsWith(QLatin1String("CRS:"), Qt::CaseInsensitive)) {
            ok = v13;
        } else {
            const qsizetype colon = v.indexOf(QLatin1Char(':'));
            ok = colon >= 0 && v.indexOf(QLatin1Char(':'), colon + 1) < 0;
        }
        if (!ok)
            return v13 ? fail(QStringLiteral("InvalidCRS"), QStringLiteral("Unsupported CRS namespace (CRS must be in the format AUTH:XXXX)."))
                       : fail(QStringLiteral("InvalidSRS"), QStringLiteral("Unsupported SRS namespace (SRS must be in the format AUTH:XXXX)."));
        p.srs = v;
        return std::nullopt;
    }

    std::optional<Response> readBbox(const QString& value)
    {
        bboxFound = true;
        const QStringList parts = value.split(QLatin1Char(','));
        if (parts.size() != 4) return fail({}, QStringLiteral("Wrong number of arguments for BBOX."));
        p.bbox = {parts[0].toDouble(), parts[1].toDouble(), parts[2].toDouble(), parts[3].toDouble()};
        // NaN and infinities (which toDouble() yields for "nan", "inf", "1e400") draw nothing sensible.
        if (!std::isfinite(p.bbox.minx) || !std::isfinite(p.bbox.miny) || !std::isfinite(p.bbox.maxx) || !std::isfinite(p.bbox.maxy))
            return fail({}, QStringLiteral("Invalid values for BBOX."));
        if (ctx.version < Wms130 && (p.bbox.minx >= p.bbox.maxx || p.bbox.miny >= p.bbox.maxy))
            return fail({}, QStringLiteral("Invalid values for BBOX."));
        return std::nullopt;
    }

    std::optional<Response> readFormat(const QString& value)
    {
        formatFound = true;
        if (value.compare(QLatin1String("application/openlayers"), Qt::CaseInsensitive) == 0) return std::nullopt;
        const auto invalid = [&] {
            return fail(QStringLiteral("InvalidFormat"), QStringLiteral("Unsupported output format (%1).").arg(value));
        };
        if (auto list = wmsMetadata(ctx.map.web.metadata, QStringLiteral("getmap_formatlist"))) {
            bool listed = false;
            for (const QString& entry : list->split(QLatin1Char(',')))
                if (entry.trimmed().compare(value, Qt::CaseInsensitive) == 0) listed = true;
            if (!listed) return invalid();
        }
        if (!findImageFormat(ctx.map, value) && !isKmlFormat(ctx.map, value) && !findVectorTileFormat(ctx.map, value)) return invalid();
        p.format = value;
        return std::nullopt;
    }

    std::optional<Response> readParam(const QString& key, const QString& value)
    {
        const auto is = [&](const char* k) { return key.compare(QLatin1String(k), Qt::CaseInsensitive) == 0; };
        const bool v13 = ctx.version >= Wms130;
        if (is("LAYERS")) return readLayers(value);
        if (is("STYLES")) styles = value;
        else if ((is("SRS") && !v13) || (is("CRS") && v13)) return readSrs(value);
        else if (is("BBOX")) return readBbox(value);
        else if (is("WIDTH")) { widthFound = true; p.width = value.toInt(); }
        else if (is("HEIGHT")) { heightFound = true; p.height = value.toInt(); }
        else if (is("FORMAT")) return readFormat(value);
        else if (is("TRANSPARENT")) p.transparent = value.compare(QLatin1String("TRUE"), Qt::CaseInsensitive) == 0;
        else if (is("BGCOLOR")) {
            const long c = value.toLong(nullptr, 16);
            p.background = Color::rgb(int((c >> 16) & 0xff), int((c >> 8) & 0xff), int(c & 0xff));
        }
        return std::nullopt;
    }

    std::optional<Response> checkStyles()
    {
        if (!styles || styles->isEmpty()) return std::nullopt;
        const QStringList tokens = styles->split(QLatin1Char(','));
        // A layer named twice in LAYERS is drawn once here, with the style of
        // its first mention (MapServer draws a copy per mention).
        QSet<int> styled;
        for (int i = 0; i < tokens.size(); ++i) {
            const QString& style = tokens[i];
            if (style.isEmpty() || style.compare(QLatin1String("default"), Qt::CaseInsensitive) == 0) {
                for (int li = 0; li < ctx.map.layers.size() && i < wmsLayers.size(); ++li)
                    if (ctx.map.layers[li].name.compare(wmsLayers[i], Qt::CaseInsensitive) == 0) styled.insert(li);
                continue;
            }
            if (tokens.size() != wmsLayers.size())
                return fail(QStringLiteral("StyleNotDefined"), QStringLiteral("Invalid style (%1).").arg(*styles));
            // The root layer (the map's NAME) has one style: wms_style_name.
            if (!ctx.map.name.isEmpty() && ctx.map.name.compare(wmsLayers[i], Qt::CaseInsensitive) == 0) {
                const QString rootStyle = wmsMetadata(ctx.map.web.metadata, QStringLiteral("style_name")).value_or(QStringLiteral("default"));
                if (style.compare(rootStyle, Qt::CaseInsensitive) != 0)
                    return fail(QStringLiteral("StyleNotDefined"), QStringLiteral("Style (%1) not defined on root layer.").arg(style));
                continue;
            }
            for (int li = 0; li < ctx.map.layers.size(); ++li) {
                const LayerDef& l = ctx.map.layers[li];
                const bool named = l.name.compare(wmsLayers[i], Qt::CaseInsensitive) == 0
                                   || (!l.group.isEmpty() && l.group.compare(wmsLayers[i], Qt::CaseInsensitive) == 0);
                if (!named) continue;
                QString group;
                for (const ClassDef& c : l.classes)
                    if (!c.group.isEmpty() && c.group.compare(style, Qt::CaseInsensitive) == 0) group = c.group;
                if (group.isEmpty())
                    return fail(QStringLiteral("StyleNotDefined"), QStringLiteral("Style (%1) not defined on layer.").arg(style));
                if (!styled.contains(li)) classGroups.append({li, group});
                styled.insert(li);
            }
        }
        return std::nullopt;
    }

    std::optional<Response> finish(const QString& request, bool isGetMap)
    {
        if (ctx.version >= Wms130 && ctx.exceptions) {
            const QString& e = *ctx.exceptions;
            if (e.compare(QLatin1String("INIMAGE"), Qt::CaseInsensitive) != 0
                && e.compare(QLatin1String("BLANK"), Qt::CaseInsensitive) != 0
                && e.compare(QLatin1String("XML"), Qt::CaseInsensitive) != 0)
                return fail(QStringLiteral("InvalidFormat"), QStringLiteral("Invalid format %1 for the EXCEPTIONS parameter.").arg(e));
        }
        if (bboxFound && ctx.version >= Wms130) {
            if (!p.srs.isEmpty() && crsAxisInverted(p.srs)) {
                std::swap(p.bbox.minx, p.bbox.miny);
                std::swap(p.bbox.maxx, p.bbox.maxy);
            }
            if (p.bbox.minx >= p.bbox.maxx || p.bbox.miny >= p.bbox.maxy)
                return fail({}, QStringLiteral("Invalid values for BBOX."));
        }
        const bool describe = request.compare(QLatin1String("DescribeLayer"), Qt::CaseInsensitive) == 0;
        if (!describe) {
            const int w = widthFound ? p.width : ctx.map.width, h = heightFound ? p.height : ctx.map.height;
            if (w > ctx.map.maxSize || h > ctx.map.maxSize || w < 1 || h < 1)
                return fail({}, QStringLiteral("Image size out of range, WIDTH and HEIGHT must be between 1 and %1 pixels.")
                                    .arg(ctx.map.maxSize));
        }
        if (!p.srs.isEmpty()) {
            if (!ctx.map.projection.isSet())
                return ctx.version >= Wms130
                           ? fail(QStringLiteral("InvalidCRS"), QStringLiteral("Cannot set new CRS on a map that doesn't have any projection set."))
                           : fail(QStringLiteral("InvalidSRS"), QStringLiteral("Cannot set new SRS on a map that doesn't have any projection set."));
            const Result<Crs> crs = Crs::fromUserInput(p.srs);
            if (!crs)
                return fail(ctx.version >= Wms130 ? QStringLiteral("InvalidCRS") : QStringLiteral("InvalidSRS"), crs.message());
            p.crs = *crs;
        }
        if (auto e = checkStyles()) return e;
        if (!describe) {
            const QString srsName = ctx.version >= Wms130 ? QStringLiteral("CRS") : QStringLiteral("SRS");
            const auto missing = [&](const QString& what) {
                return fail(QStringLiteral("MissingParameterValue"), QStringLiteral("Missing required parameter ") + what);
            };
            if (!srsFound) return missing(srsName);
            if (!bboxFound) return missing(QStringLiteral("BBOX"));
            if (!formatFound && isGetMap) return missing(QStringLiteral("FORMAT"));
            if (!widthFound) return missing(QStringLiteral("WIDTH"));
            if (!heightFound) return missing(QStringLiteral("HEIGHT"));
            // MapServer 8 requires STYLES (an empty value is fine) unless the map allows its absence.
            const bool allowed = ctx.map.web.metadata.value(QStringLiteral("wms_allow_getmap_without_styles"))
                                     .value_or(QString()).compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
            if (!styles && isGetMap && !allowed)
                return missing(QStringLiteral("STYLES. Note to service administrators: defining the \"wms_allow_getmap_without_styles\" "
                                              "\"true\" MAP.WEB.METADATA item will disable this check (backward compatibility with "
                                              "behaviour of MapServer < 8.0)"));
        }
        if (!layersGiven) return fail(QStringLiteral("MissingParameterValue"), QStringLiteral("Missing required parameter LAYERS"));
        if (invalidLayers > 0 || validLayers == 0)
            return fail(QStringLiteral("LayerNotDefined"),
                        QStringLiteral("Invalid layer(s) given in the LAYERS parameter. A layer might be disabled for "
                                       "this request. Check wms/ows_enable_request settings."));
        return std::nullopt;
    }
};

}  // namespace

GetMapParamsResult loadGetMapParams(const WmsContext& ctx, const QString& request, bool isGetMap)
{
    Loader loader(ctx, request);
    GetMapParamsResult result;
    for (const auto& [key, value] : ctx.request.params) {
        if (auto e = loader.readParam(key, value)) {
            result.error = std::move(e);
            return result;
        }
    }
    result.error = loader.finish(request, isGetMap);
    result.params = loader.p;
    result.params.prepared = ctx.prepared.shared_from_this();
    if (result.error) return result;
    DimensionFilters dimensions = applyWmsDimensions(ctx, result.params.layers);
    result.error = std::move(dimensions.error);
    result.params.prepared = std::move(dimensions.map);
    if (!result.error && isGetMap) {
        WmsFilterResult filtered = applyWmsFilter(ctx, result.params.prepared, loader.wmsLayers, loader.p.srs);
        result.error = std::move(filtered.error);
        result.params.prepared = std::move(filtered.map);
    }
    // DPI / MAP_RESOLUTION (vendor, as QGIS sends them): the map's RESOLUTION
    // for this request, so symbols and labels scale with it.
    if (!result.error) {
        std::optional<QString> dpi = ctx.request.value(QStringLiteral("MAP_RESOLUTION"));
        if (!dpi) dpi = ctx.request.value(QStringLiteral("DPI"));
        bool ok = false;
        const double resolution = dpi ? dpi->toDouble(&ok) : 0;
        if (ok && resolution >= 1 && resolution <= 2400 && resolution != ctx.map.resolution) {
            const PreparedMap& base = *result.params.prepared;
            result.params.prepared = base.derived(QStringLiteral("resolution\x01") + QString::number(resolution), [&base, resolution] {
                MapDef map = base.map();
                map.resolution = resolution;
                return PreparedMap::Derivation{std::move(map), {}};
            });
        }
    }
    // STYLES draws each named layer with that class group (its CLASSGROUP for this request).
    if (!result.error && !loader.classGroups.isEmpty()) {
        const PreparedMap& base = *result.params.prepared;
        QString key = QStringLiteral("styles");
        for (const auto& [layer, group] : loader.classGroups) key += QStringLiteral("\x01%1:%2").arg(layer).arg(group);
        const auto& groups = loader.classGroups;
        result.params.prepared = base.derived(key, [&base, &groups] {
            MapDef map = base.map();
            for (const auto& assignment : groups) map.layers[assignment.first].classGroup = assignment.second;
            return PreparedMap::Derivation{std::move(map), {}};
        });
    }
    return result;
}

}  // namespace maptune
