#include "wms/mapserv/query_output.h"

#include "encode/output_format.h"
#include "geo/map_view.h"
#include "render/map_renderer.h"
#include "wms/mapserv/cgi_error_page.h"
#include "wms/mapserv/ogr_query_output.h"
#include "wms/mapserv/query_template.h"

namespace maptune {

namespace {

QString queryFormatName(const MapDef& map, const CgiParams& params)
{
    if (params.queryFormat) return *params.queryFormat;
    for (const ExtraProperty& e : map.web.extras)
        if (e.keyword.compare(QLatin1String("QUERYFORMAT"), Qt::CaseInsensitive) == 0 && !e.args.isEmpty()) {
            // Kept as written: a quoted value keeps its quotes.
            const QString v = e.args.first();
            const bool quoted = v.size() >= 2 && (v.front() == QLatin1Char('"') || v.front() == QLatin1Char('\'')) && v.back() == v.front();
            return quoted ? v.mid(1, v.size() - 2) : v;
        }
    return QStringLiteral("text/html");
}

// msGetOutputFormatIndex: by MIME type first, then by NAME.
const OutputFormatDef* outputFormat(const MapDef& map, const QString& name)
{
    for (const OutputFormatDef& f : map.outputFormats)
        if (f.mimeType.compare(name, Qt::CaseInsensitive) == 0) return &f;
    for (const OutputFormatDef& f : map.outputFormats)
        if (f.name.compare(name, Qt::CaseInsensitive) == 0) return &f;
    return nullptr;
}

Response textResponse(const QString& text, const QByteArray& type)
{
    Response r;
    r.body = text.toUtf8();
    r.setContentType(type);
    return r;
}

Response errorPage(const QString& errors)
{
    return cgiErrorPage(errors.split(QLatin1Char('\n')));
}

QueryHighlight::Style highlightStyle(const QString& style)
{
    if (style.compare(QLatin1String("NORMAL"), Qt::CaseInsensitive) == 0) return QueryHighlight::Style::Normal;
    if (style.compare(QLatin1String("SELECTED"), Qt::CaseInsensitive) == 0) return QueryHighlight::Style::Selected;
    return QueryHighlight::Style::Hilite;
}

// msDrawMap with the query: the layers switched on, the query's features
// shown as the QUERYMAP block says, at its SIZE when it gives one.
// msReturnTemplateQuery draws the query map first when QUERYMAP has STATUS
// ON (the image itself is not kept): the map then has the QUERYMAP's SIZE,
// its extent grown to square pixels, and that cell size and scale.
// A map whose IMAGETYPE is no image format (a TEMPLATE one) cannot be drawn,
// and mapserv answers with msDrawMap's error.
Result<CgiQueryResults> withQueryMapDrawn(const PreparedMap& prepared, const CgiQueryResults& found)
{
    const MapDef& map = prepared.map();
    if (map.queryMap.status.compare(QLatin1String("ON"), Qt::CaseInsensitive) != 0) return found;
    if (!defaultImageFormat(map))
        return Error(QStringLiteral("msDrawMap(): Image handling error. Unable to initialize image.\n"
                                    "msPrepareImage(): Image handling error. Unable to initialize image."));
    CgiQueryResults r = found;
    if (map.queryMap.sizeX > 0) r.width = map.queryMap.sizeX;
    if (map.queryMap.sizeY > 0) r.height = map.queryMap.sizeY;
    if (!r.extent.isValid() || r.width < 2 || r.height < 2) return r;
    r.cellSize = adjustExtent(r.extent, r.width, r.height);
    const QString units = r.units.isEmpty() ? effectiveUnits(map, prepared.crs().value_or(Crs())) : r.units;
    r.scaleDenom = r.extent.width() / (r.width - 1) * map.resolution * inchesPerUnit(units);
    return r;
}

Response queryMapImage(const PreparedMap& prepared, const QString& formatName, const CgiQueryResults& results)
{
    const MapDef& map = prepared.map();
    RenderRequest req;
    req.centerExtent = results.extent;
    req.width = map.queryMap.sizeX > 0 ? map.queryMap.sizeX : results.width;
    req.height = map.queryMap.sizeY > 0 ? map.queryMap.sizeY : results.height;
    if (req.width <= 0 || req.height <= 0) {
        req.width = 400;
        req.height = 300;
    }
    req.format = formatName;
    QList<int> order;
    for (int i = 0; i < map.layers.size(); ++i)
        if (results.layersOn.contains(i)) order << i;
    req.layerOrder = order;
    auto query = std::make_shared<QueryHighlight>();
    query->style = highlightStyle(map.queryMap.style);
    if (map.queryMap.color.isSet()) query->color = map.queryMap.color;
    for (const QueryLayerResult& r : results.layers) {
        QSet<qint64>& ids = query->selected[r.layer];
        for (const Feature& f : r.selected.features) ids.insert(f.id);
    }
    req.query = std::move(query);
    const RenderResult drawn = MapRenderer(prepared.shared_from_this()).render(req);
    if (!drawn.ok()) return cgiErrorPage({QStringLiteral("msDrawMap(): Image handling error. %1").arg(drawn.error)});
    Response r;
    r.body = drawn.bytes;
    r.setContentType(drawn.mimeType.toUtf8());
    return r;
}

// msReturnNestedTemplateQuery: a query of one feature (QUERY, ITEMQUERY)
// answers with that feature's template; the others with WEB HEADER, each
// layer's HEADER, a template per feature, FOOTERs.
Response nestedTemplates(const MapDef& map, const WmsRequest& request, const CgiParams& params,
                         const CgiQueryResults& results, const QString& formatName)
{
    TemplateContext ctx{map, results, request, true};
    auto page = [&](const QString& file, const TemplateFeature* feature) -> Result<QString> {
        if (file.isEmpty()) return QString();
        auto text = loadTemplateFile(map, file);
        if (!text) return text;
        return feature ? processFeatureTemplate(*text, ctx, *feature) : processPageTemplate(*text, ctx);
    };
    auto featureTemplate = [&](const QueryLayerResult& layer, int i) {
        const int cls = layer.selected.classes[i];
        const LayerDef& def = map.layers[layer.layer];
        return cls >= 0 && !def.classes[cls].templ.isEmpty() ? def.classes[cls].templ : def.templ;
    };
    if (results.layers.isEmpty()) return cgiErrorPage({QStringLiteral("msReturnNestedTemplateQuery(): Web application error. No query results.")});
    if (params.mode == CgiMode::Query || params.mode == CgiMode::ItemQuery) {
        const QueryLayerResult& last = results.layers.last();
        const QString file = featureTemplate(last, 0);
        if (file.isEmpty())
            return cgiErrorPage({QStringLiteral("msReturnNestedTemplateQuery(): Web application error. No template for layer %1 or it's classes.")
                                     .arg(map.layers[last.layer].name)});
        const TemplateFeature feature{last, 0, 1, 1};
        auto text = page(file, &feature);
        if (!text) return errorPage(text.message());
        return textResponse(*text, formatName.toUtf8());
    }
    QString out;
    auto append = [&](Result<QString> text) {
        if (!text) return false;
        out += *text;
        return true;
    };
    if (auto h = page(map.web.header, nullptr); !append(h)) return errorPage(h.message());
    int resultNumber = 1;
    for (const QueryLayerResult& layer : results.layers) {
        const LayerDef& def = map.layers[layer.layer];
        const TemplateFeature first{layer, 0, resultNumber, 1};
        if (auto h = page(def.header, &first); !append(h)) return errorPage(h.message());
        for (int i = 0; i < layer.selected.features.size(); ++i) {
            const TemplateFeature feature{layer, i, resultNumber++, i + 1};
            if (auto t = page(featureTemplate(layer, i), &feature); !append(t)) return errorPage(t.message());
        }
        if (auto f = page(def.footer, &first); !append(f)) return errorPage(f.message());
    }
    if (auto f = page(map.web.footer, nullptr); !append(f)) return errorPage(f.message());
    return textResponse(out, formatName.toUtf8());
}

}  // namespace

Response queryResponse(const PreparedMap& prepared, const WmsRequest& request, const CgiParams& params,
                       const CgiQueryResults& found)
{
    const MapDef& map = prepared.map();
    const QString name = queryFormatName(map, params);
    const OutputFormatDef* format = outputFormat(map, name);
    if (format && format->driver.startsWith(QLatin1String("OGR/"), Qt::CaseInsensitive)) {
        const QString wkt = prepared.crs() ? QString::fromUtf8(prepared.crs()->wkt()) : QString();
        auto written = ogrQueryResponse(map, *format, found, wkt);
        if (!written) return errorPage(written.message());
        return std::move(written).value();
    }
    const bool templateDriver = format && format->driver.compare(QLatin1String("TEMPLATE"), Qt::CaseInsensitive) == 0;
    if (!templateDriver && findImageFormat(map, name)) return queryMapImage(prepared, name, found);

    // Templates: OGR and image outputs returned before mapserv draws the query map.
    const Result<CgiQueryResults> drawn = withQueryMapDrawn(prepared, found);
    if (!drawn) return cgiErrorPage(drawn.message().split(QLatin1Char('\n')));
    const CgiQueryResults& results = *drawn;
    if (templateDriver) {
        const QString file = format->formatOptions.value(QStringLiteral("FILE"), QString());
        if (file.isEmpty())
            return cgiErrorPage({QStringLiteral("msReturnTemplateQuery(): Web application error. Template driver requires \"FILE\" format option be set.")});
        auto text = loadTemplateFile(map, file);
        if (!text) return errorPage(text.message());
        auto page = processPageTemplate(*text, {map, results, request, false});
        if (!page) return errorPage(page.message());
        return textResponse(*page, format->mimeType.isEmpty() ? QByteArray("text/html") : format->mimeType.toUtf8());
    }
    return nestedTemplates(map, request, params, results, name);
}

}  // namespace maptune
