#include "wms/wms_service.h"

#include "wms/mapserv/cgi_error_page.h"
#include "wms/mapserv/cgi_params.h"
#include "wms/mapserv/mapserv_modes.h"
#include "wms/wms_context.h"
#include "wms/wms_language.h"

#include <QXmlStreamWriter>

namespace maptune {

WmsService::WmsService(PreparedMapPtr map) : m_map(std::move(map)) {}

WmsService::WmsService(MapDefPtr map) : m_map(PreparedMap::prepare(std::move(map))) {}

namespace {

bool isAny(const QString& value, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        if (value.compare(QLatin1String(n), Qt::CaseInsensitive) == 0) return true;
    return false;
}

Response dispatchError(const WmsContext& ctx, const QString& where, const QString& message, const QString& code = {})
{
    return ctx.error(code, where + QStringLiteral(": WMS server error. ") + message);
}

// msOWSNegotiateUpdateSequence: numbers compare as numbers, anything else as text.
std::optional<Response> negotiateUpdateSequence(const WmsContext& ctx)
{
    const auto requested = ctx.request.value(QStringLiteral("UPDATESEQUENCE"));
    const auto server = wmsMetadata(ctx.map.web.metadata, QStringLiteral("updatesequence"));
    if (!requested || requested->isEmpty() || !server) return std::nullopt;
    bool okA = false, okB = false;
    const double a = requested->toDouble(&okA), b = server->toDouble(&okB);
    const int cmp = okA && okB ? (a < b ? -1 : a > b ? 1 : 0) : requested->compare(*server);
    if (cmp == 0)
        return dispatchError(ctx, QStringLiteral("msWMSGetCapabilities()"),
                             QStringLiteral("UPDATESEQUENCE parameter (%1) is equal to server (%2)").arg(*requested, *server),
                             QStringLiteral("CurrentUpdateSequence"));
    if (cmp > 0)
        return dispatchError(ctx, QStringLiteral("msWMSGetCapabilities()"),
                             QStringLiteral("UPDATESEQUENCE parameter (%1) is higher than server (%2)").arg(*requested, *server),
                             QStringLiteral("InvalidUpdateSequence"));
    return std::nullopt;
}

// msWMSGetSchemaExtension: the schema of MapServer's extra operation (GetStyles)
// that 1.3.0 capabilities point to.
Response schemaExtension(const WmsContext& ctx)
{
    const QString schemas = wmsMetadata(ctx.map.web.metadata, QStringLiteral("schemas_location")).value_or(QStringLiteral("http://schemas.opengis.net"));
    QByteArray body;
    QXmlStreamWriter xml(&body);
    xml.setAutoFormatting(true);
    xml.setAutoFormattingIndent(2);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("schema"));
    xml.writeAttribute(QStringLiteral("xmlns"), QStringLiteral("http://www.w3.org/2001/XMLSchema"));
    xml.writeAttribute(QStringLiteral("xmlns:wms"), QStringLiteral("http://www.opengis.net/wms"));
    xml.writeAttribute(QStringLiteral("xmlns:ms"), QStringLiteral("http://mapserver.gis.umn.edu/mapserver"));
    xml.writeAttribute(QStringLiteral("targetNamespace"), QStringLiteral("http://mapserver.gis.umn.edu/mapserver"));
    xml.writeAttribute(QStringLiteral("elementFormDefault"), QStringLiteral("qualified"));
    xml.writeAttribute(QStringLiteral("version"), QStringLiteral("1.0.0"));
    xml.writeEmptyElement(QStringLiteral("import"));
    xml.writeAttribute(QStringLiteral("namespace"), QStringLiteral("http://www.opengis.net/wms"));
    xml.writeAttribute(QStringLiteral("schemaLocation"), schemas + QStringLiteral("/wms/1.3.0/capabilities_1_3_0.xsd"));
    xml.writeEmptyElement(QStringLiteral("element"));
    xml.writeAttribute(QStringLiteral("name"), QStringLiteral("GetStyles"));
    xml.writeAttribute(QStringLiteral("type"), QStringLiteral("wms:OperationType"));
    xml.writeAttribute(QStringLiteral("substitutionGroup"), QStringLiteral("wms:_ExtendedOperation"));
    xml.writeEndElement();
    xml.writeEndDocument();
    Response r;
    r.body = body;
    r.setContentType("text/xml; charset=UTF-8");
    return r;
}

}  // namespace

Response WmsService::handle(const WmsRequest& request) const
{
    QStringList substitutionErrors;
    PreparedMapPtr prepared = m_map->forRequest(request.params, &substitutionErrors);
    if (!isCgiModeRequest(request)) prepared = withLanguage(*prepared, wmsLanguage(prepared->map(), request));
    const MapDef& map = prepared->map();
    std::optional<QString> version = request.value(QStringLiteral("VERSION"));
    if (!version) version = request.value(QStringLiteral("WMTVER"));
    const std::optional<QString> service = request.value(QStringLiteral("SERVICE"));
    const QString op = request.value(QStringLiteral("REQUEST")).value_or(QString());

    WmsContext ctx{*prepared, map, request, parseWmsVersion(version), request.value(QStringLiteral("EXCEPTIONS"))};
    if (isCgiModeRequest(request)) return withEarlierErrors(mapservResponse(*prepared, request), substitutionErrors);
    if (service && service->compare(QLatin1String("WMS"), Qt::CaseInsensitive) != 0)
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"), QStringLiteral("Unsupported SERVICE (%1).").arg(*service),
                             QStringLiteral("ServiceNotDefined"));
    if (ctx.version == WmsVersionBad) {
        ctx.version = WmsVersionNotSet;
        return ctx.error({}, QStringLiteral("msOWSParseVersionString(): OWS error. Invalid version (%1). Version must be "
                                            "in the format 'x.y' or 'x.y.z'").arg(*version));
    }

    if (isAny(op, {"GetCapabilities", "capabilities"})) {
        if (ctx.version == WmsVersionNotSet) {
            const auto v = map.web.metadata.value(QStringLiteral("wms_getcapabilities_version"));
            ctx.version = v ? parseWmsVersion(v) : Wms130;
        }
        if (enabledLayers(map, QStringLiteral("GetCapabilities")).isEmpty()
            && !requestGloballyEnabled(map, QStringLiteral("GetCapabilities")))
            return dispatchError(ctx, QStringLiteral("msWMSGetCapabilities()"),
                                 QStringLiteral("WMS request not enabled. Check wms/ows_enable_request settings."));
        if (auto e = negotiateUpdateSequence(ctx)) return *e;
        return wmsGetCapabilities(ctx);
    }
    if (!service && ctx.version == WmsVersionNotSet && op.isEmpty())
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"), QStringLiteral("Not a WMS request."));
    if (ctx.version == WmsVersionNotSet)
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"), QStringLiteral("Incomplete WMS request: VERSION parameter missing"));
    static const QList<int> supported{Wms100, 10006, Wms107, Wms110, Wms111, Wms130};
    if (!supported.contains(ctx.version)) {
        const int v = ctx.version;
        ctx.version = WmsVersionNotSet;
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"),
                             QStringLiteral("Invalid WMS version: VERSION %1 is not supported. Supported versions are "
                                            "1.0.0, 1.0.6, 1.0.7, 1.1.0, 1.1.1, 1.3.0").arg(wmsVersionString(v)));
    }
    if (op.isEmpty())
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"), QStringLiteral("Incomplete WMS request: REQUEST parameter missing"));

    QString canonical = op;
    if (isAny(op, {"map"})) canonical = QStringLiteral("GetMap");
    if (isAny(op, {"feature_info"})) canonical = QStringLiteral("GetFeatureInfo");
    if (isAny(canonical, {"GetStyles", "GetLegendGraphic", "GetSchemaExtension", "GetMap", "GetFeatureInfo", "DescribeLayer"})
        && enabledLayers(map, canonical).isEmpty())
        return dispatchError(ctx, QStringLiteral("msWMSDispatch()"),
                             QStringLiteral("WMS request not enabled. Check wms/ows_enable_request settings."));

    if (isAny(canonical, {"GetMap"})) return wmsGetMap(ctx);
    if (isAny(canonical, {"GetFeatureInfo"})) return wmsGetFeatureInfo(ctx);
    if (isAny(canonical, {"GetLegendGraphic"})) return wmsGetLegendGraphic(ctx);
    if (isAny(canonical, {"GetSchemaExtension"}) && ctx.version >= Wms130) return schemaExtension(ctx);
    if (isAny(canonical, {"DescribeLayer"})) {
        if (!request.has(QStringLiteral("LAYERS")))
            return dispatchError(ctx, QStringLiteral("msWMSLoadGetMapParams()"),
                                 QStringLiteral("Missing required parameter LAYERS"), QStringLiteral("MissingParameterValue"));
        return dispatchError(ctx, QStringLiteral("msWMSDescribeLayer()"), QStringLiteral("DescribeLayer is not supported."),
                             QStringLiteral("OperationNotSupported"));
    }
    return dispatchError(ctx, QStringLiteral("msWMSDispatch()"), QStringLiteral("Incomplete or unsupported WMS request"),
                         QStringLiteral("OperationNotSupported"));
}

}  // namespace maptune
