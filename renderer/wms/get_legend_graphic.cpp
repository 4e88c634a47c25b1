// WMS GetLegendGraphic (msWMSGetLegendGraphic): one class icon for RULE,
// else the legend of the layer (msDrawLegend: icon, class name; only the
// classes drawn in BBOX when the request carries one).

#include "wms/wms_context.h"
#include "render/legend_icon.h"
#include "render/legend.h"
#include "render/legend_hit_test.h"
#include "wms/ows_layer_info.h"

#include "encode/image_encoder.h"
#include "geo/map_projection.h"
#include "geo/crs.h"

#include <QPainter>
#include <QSet>

#include <cmath>

namespace maptune {

namespace {

// WMS layer groups by path: "wms_layer_group" "/TN/TN.RoadTransportNetwork"
// puts the layer in both groups.
bool inLayerGroupPath(const LayerDef& l, const QString& name)
{
    const QString path = l.metadata.value(QStringLiteral("wms_layer_group"), QString());
    return !path.isEmpty() && path.split(QLatin1Char('/'), Qt::SkipEmptyParts).contains(name, Qt::CaseInsensitive);
}

// The classes a STYLE shows: those of that class GROUP; without a STYLE
// (or "default"), the layer's CLASSGROUP, else all.
bool inStyle(const LayerDef& layer, const ClassDef& cls, const QString& style)
{
    const bool named = !style.isEmpty() && style.compare(QLatin1String("default"), Qt::CaseInsensitive) != 0;
    const QString group = named ? style : layer.classGroup;
    return group.isEmpty() || cls.group == group;
}

std::optional<int> positiveInt(const std::optional<QString>& v)
{
    if (!v) return std::nullopt;
    bool ok = false;
    const int n = v->toInt(&ok);
    return ok && n > 0 ? std::optional<int>(n) : std::nullopt;
}

}  // namespace

Response wmsGetLegendGraphic(const WmsContext& ctx)
{
    const QString where = QStringLiteral("msWMSGetLegendGraphic(): WMS server error. ");
    // SLD 1.1.0 is GetLegendGraphic's home in WMS 1.3.0: its version is required there.
    const auto sldVersion = ctx.request.value(QStringLiteral("SLD_VERSION"));
    if (!sldVersion && ctx.version >= Wms130)
        return ctx.error(QStringLiteral("MissingParameterValue"), where + QStringLiteral("Missing required parameter SLD_VERSION"));
    if (sldVersion && ctx.version >= Wms130 && sldVersion->compare(QLatin1String("1.1.0")) != 0)
        return ctx.error(QStringLiteral("InvalidParameterValue"),
                         where + QStringLiteral("Invalid SLD_VERSION parameter value. 1.1.0 is the only supported value"));
    const auto layerName = ctx.request.value(QStringLiteral("LAYER"));
    if (!layerName || layerName->isEmpty())
        return ctx.error(QStringLiteral("LayerNotDefined"), where + QStringLiteral("Mandatory LAYER parameter missing in GetLegendGraphic request."));
    const auto formatName = ctx.request.value(QStringLiteral("FORMAT"));
    if (!formatName || formatName->isEmpty())
        return ctx.error(QStringLiteral("InvalidFormat"), where + QStringLiteral("Mandatory FORMAT parameter missing in GetLegendGraphic request."));

    const QSet<int> enabled = enabledLayers(ctx.map, QStringLiteral("GetLegendGraphic"));
    QList<int> layers;
    for (int i = 0; i < ctx.map.layers.size(); ++i) {
        const LayerDef& l = ctx.map.layers[i];
        // The map's NAME is the root layer: every layer.
        const bool named = l.name.compare(*layerName, Qt::CaseInsensitive) == 0
                           || (!l.group.isEmpty() && l.group.compare(*layerName, Qt::CaseInsensitive) == 0)
                           || inLayerGroupPath(l, *layerName)
                           || (!ctx.map.name.isEmpty() && ctx.map.name.compare(*layerName, Qt::CaseInsensitive) == 0);
        if (named && enabled.contains(i)) layers << i;
    }
    if (layers.isEmpty())
        return ctx.error(QStringLiteral("LayerNotDefined"), where + QStringLiteral("Invalid layer given in the LAYER parameter."));

    Result<ImageFormat> format = findImageFormat(ctx.map, *formatName);
    if (!format)
        return ctx.error(QStringLiteral("InvalidFormat"), where + QStringLiteral("Unsupported output format (%1).").arg(*formatName));
    if (auto t = ctx.request.value(QStringLiteral("TRANSPARENT")))
        *format = withTransparency(*format, t->compare(QLatin1String("TRUE"), Qt::CaseInsensitive) == 0);

    QImage image;
    if (const auto rule = ctx.request.value(QStringLiteral("RULE"))) {
        const LayerDef& layer = ctx.map.layers[layers.first()];
        int cls = -1;
        for (int c = 0; c < layer.classes.size() && cls < 0; ++c)
            if (layer.classes[c].name == *rule) cls = c;
        if (cls < 0)
            return ctx.error({}, where + QStringLiteral("Invalid rule (%1) given in the RULE parameter.").arg(*rule));
        const int w = positiveInt(ctx.request.value(QStringLiteral("WIDTH"))).value_or(ctx.map.legend.keySizeX);
        const int h = positiveInt(ctx.request.value(QStringLiteral("HEIGHT"))).value_or(ctx.map.legend.keySizeY);
        image = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
        const Color bg = ctx.map.legend.imageColor;
        image.fill(format->transparent ? QColor(Qt::transparent) : QColor(bg.r, bg.g, bg.b));
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        drawLegendIcon(p, ctx.map, layer, layer.classes[cls], QRect(0, 0, w, h));
    } else {
        // With a BBOX (and SRS/CRS) the legend only shows the classes drawn there.
        std::optional<Rect> bbox;
        Crs crs;
        if (auto b = ctx.request.value(QStringLiteral("BBOX"))) {
            const QStringList parts = b->split(QLatin1Char(','));
            bool ok = parts.size() == 4;
            double v[4] = {0, 0, 0, 0};
            for (int i = 0; ok && i < 4; ++i) v[i] = parts[i].toDouble(&ok);
            const auto srs = ctx.request.value(ctx.version >= Wms130 ? QStringLiteral("CRS") : QStringLiteral("SRS"));
            if (ok && v[2] > v[0] && v[3] > v[1]) bbox = Rect{v[0], v[1], v[2], v[3]};
            if (srs) crs = Crs::fromUserInput(*srs).valueOr(Crs());
            if (!crs.isValid()) crs = resolveProjection(ctx.map, ctx.map.projection).valueOr(Crs());
        }
        QList<LegendEntry> entries;
        // STYLE chooses a class group only when LAYER names one layer
        // (msWMSLegendGraphic); for a group or the root it is ignored.
        QString style = ctx.request.value(QStringLiteral("STYLE")).value_or(QString());
        if (layers.size() > 1) style.clear();
        if (!style.isEmpty() && style.compare(QLatin1String("default"), Qt::CaseInsensitive) != 0) {
            const LayerDef& only = ctx.map.layers[layers.first()];
            bool defined = false;
            for (const ClassDef& c : only.classes) defined |= c.group == style;
            if (!defined)
                return ctx.error(QStringLiteral("StyleNotDefined"), where + QStringLiteral("style used in the STYLE parameter is not defined on the layer."));
        }
        // Layers in reverse drawing order, as msDrawLegend lists them.
        for (auto it = layers.crbegin(); it != layers.crend(); ++it) {
            const int index = *it;
            const LayerDef& layer = ctx.map.layers[index];
            std::optional<QSet<int>> hit;
            if (bbox) hit = legendClassesHit(ctx.map, ctx.prepared.context(), layer, *bbox, crs);
            for (int c : legendClasses(layer)) {
                if (!inStyle(layer, layer.classes[c], style)) continue;
                if (hit && !hit->contains(c)) continue;
                entries << legendEntry(ctx.map, layer, c);
            }
        }
        if (entries.isEmpty())
            return ctx.error({}, where + QStringLiteral("Unable to draw legend for this layer: no class has a NAME."));
        image = drawLegend(ctx.map, entries, format->transparent);
    }
    const ImageFormat& written = format->formatFor(image);
    Result<QByteArray> encoded = encodeImage(image, written);
    if (!encoded) return ctx.error({}, where + encoded.message());
    Response r;
    r.body = std::move(encoded).value();
    r.setContentType(written.mimeType.toUtf8());
    return r;
}

}  // namespace maptune
