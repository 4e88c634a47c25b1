// WMS GetCapabilities in MapServer's layout (msWMSGetCapabilities): element
// names, order and optional parts follow mapwms.cpp so that clients and the
// msautotest references see the same document.

#include "wms/capabilities_writer.h"
#include "wms/inspire_capabilities.h"
#include "wms/ows_layer_info.h"

#include "encode/output_format.h"
#include "render/legend_layout.h"

#include <algorithm>

namespace maptune {

namespace {

const char* const kXlink = "http://www.w3.org/1999/xlink";

// MapServer 8's built-in output formats as advertised (msApplyDefaultOutputFormats),
// driver family first: what WMS clients of a MapServer expect to see listed.
struct AdvertisedFormat {
    const char* name;
    const char* mime;
    bool image;  // listed for GetLegendGraphic too
};
const AdvertisedFormat kDefaultFormats[] = {
    {"png", "image/png", true},
    {"jpeg", "image/jpeg", true},
    {"png8", "image/png; mode=8bit", true},
    {"jpegpng", "image/vnd.jpeg-png", true},
    {"jpegpng8", "image/vnd.jpeg-png8", true},
    {"pdf", "application/x-pdf", false},
    {"svg", "image/svg+xml", false},
    {"GTiff", "image/tiff", false},
    {"kml", "application/vnd.google-earth.kml+xml", false},
    {"kmz", "application/vnd.google-earth.kmz", false},
    {"mvt", "application/vnd.mapbox-vector-tile", false},
    {"mvtpbf", "application/x-protobuf", false},
    {"geojson", "application/json", false},
};
// Formats msSelectOutputFormat can create on demand from a name or MIME type.
const AdvertisedFormat kOnDemandFormats[] = {
    {"png24", "image/png; mode=24bit", true},
};

bool imageDriver(const QString& driver)
{
    return driver.startsWith(QLatin1String("AGG/"), Qt::CaseInsensitive)
           || driver.startsWith(QLatin1String("GD/"), Qt::CaseInsensitive);
}

void addUnique(QStringList& list, const QString& mime)
{
    if (!mime.isEmpty() && !list.contains(mime, Qt::CaseInsensitive)) list << mime;
}

// msGetOutputFormatMimeListWMS / msGetOutputFormatMimeListImg.
QStringList formatList(const MapDef& map, bool imagesOnly)
{
    QStringList all;
    QStringList userNames;
    for (const OutputFormatDef& f : map.outputFormats) {
        userNames << f.name;
        if (!imagesOnly || imageDriver(f.driver)) addUnique(all, f.mimeType);
    }
    for (const AdvertisedFormat& f : kDefaultFormats)
        if (!userNames.contains(QLatin1String(f.name), Qt::CaseInsensitive) && (!imagesOnly || f.image))
            addUnique(all, QLatin1String(f.mime));
    const auto wanted = map.web.metadata.value(QStringLiteral("wms_getmap_formatlist"));
    if (imagesOnly || !wanted || wanted->trimmed().isEmpty()) return all;

    QStringList out;
    for (QString token : wanted->split(QLatin1Char(','))) {
        token = token.trimmed();
        for (const OutputFormatDef& f : map.outputFormats)
            if (f.name.compare(token, Qt::CaseInsensitive) == 0 || f.mimeType.compare(token, Qt::CaseInsensitive) == 0)
                token = f.mimeType;
        if (all.contains(token, Qt::CaseInsensitive)) {
            addUnique(out, token);
            continue;
        }
        for (const auto* table : {kDefaultFormats, kOnDemandFormats}) {
            const int n = table == kDefaultFormats ? int(std::size(kDefaultFormats)) : int(std::size(kOnDemandFormats));
            for (int i = 0; i < n; ++i)
                if (token.compare(QLatin1String(table[i].name), Qt::CaseInsensitive) == 0
                    || token.compare(QLatin1String(table[i].mime), Qt::CaseInsensitive) == 0)
                    addUnique(out, QLatin1String(table[i].mime));
        }
    }
    return out;
}

void onlineResource(QXmlStreamWriter& xml, const QString& href)
{
    xml.writeStartElement(QStringLiteral("OnlineResource"));
    xml.writeAttribute(QStringLiteral("xmlns:xlink"), QLatin1String(kXlink));
    xml.writeAttribute(QStringLiteral("xlink:href"), href);
    xml.writeEndElement();
}

void requestCap(CapabilitiesWriter& w, const QString& name, const QStringList& formats)
{
    QXmlStreamWriter& xml = w.xml;
    xml.writeStartElement(name);
    for (const QString& f : formats) w.text(QStringLiteral("Format"), f);
    xml.writeStartElement(QStringLiteral("DCPType"));
    xml.writeStartElement(QStringLiteral("HTTP"));
    for (const char* method : {"Get", "Post"}) {
        xml.writeStartElement(QLatin1String(method));
        onlineResource(xml, w.url);
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndElement();
}

// msOWSPrintContactInfo.
void contactInformation(CapabilitiesWriter& w)
{
    const KeyValues& md = w.ctx.map.web.metadata;
    const auto get = [&](const char* key) { return wmsMetadata(md, QLatin1String(key)); };
    const auto put = [&](const char* element, const char* key) {
        if (auto v = get(key)) w.text(QLatin1String(element), *v);
    };
    w.xml.writeStartElement(QStringLiteral("ContactInformation"));
    if (get("contactperson") || get("contactorganization")) {
        w.xml.writeStartElement(QStringLiteral("ContactPersonPrimary"));
        // Both children are mandatory (DTD and schema): where MapServer only
        // warns in a comment, an empty element keeps the document valid.
        w.text(QStringLiteral("ContactPerson"), get("contactperson").value_or(QString()));
        w.text(QStringLiteral("ContactOrganization"), get("contactorganization").value_or(QString()));
        w.xml.writeEndElement();
    }
    put("ContactPosition", "contactposition");
    if (get("addresstype") || get("address") || get("city") || get("stateorprovince") || get("postcode") || get("country")) {
        w.xml.writeStartElement(QStringLiteral("ContactAddress"));
        // All six are mandatory, as above.
        const auto all = [&](const char* element, const char* key) { w.text(QLatin1String(element), get(key).value_or(QString())); };
        all("AddressType", "addresstype");
        all("Address", "address");
        all("City", "city");
        all("StateOrProvince", "stateorprovince");
        all("PostCode", "postcode");
        all("Country", "country");
        w.xml.writeEndElement();
    }
    put("ContactVoiceTelephone", "contactvoicetelephone");
    put("ContactFacsimileTelephone", "contactfacsimiletelephone");
    put("ContactElectronicMailAddress", "contactelectronicmailaddress");
    w.xml.writeEndElement();
}

void service(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const KeyValues& md = map.web.metadata;
    QXmlStreamWriter& xml = w.xml;
    xml.writeStartElement(QStringLiteral("Service"));
    w.text(QStringLiteral("Name"), w.v130() ? QStringLiteral("WMS") : QStringLiteral("OGC:WMS"));
    w.text(QStringLiteral("Title"), w.meta(md, QStringLiteral("title")).value_or(map.name));
    if (auto v = w.meta(md, QStringLiteral("abstract"))) w.text(QStringLiteral("Abstract"), *v);
    w.keywordList(md, QStringLiteral("keywordlist"));
    onlineResource(xml, wmsMetadata(md, QStringLiteral("service_onlineresource")).value_or(w.url));
    contactInformation(w);
    if (auto v = wmsMetadata(md, QStringLiteral("fees"))) w.text(QStringLiteral("Fees"), *v);
    if (auto v = wmsMetadata(md, QStringLiteral("accessconstraints"))) w.text(QStringLiteral("AccessConstraints"), *v);
    if (w.v130()) {
        if (auto v = wmsMetadata(md, QStringLiteral("layerlimit"))) w.text(QStringLiteral("LayerLimit"), *v);
        w.text(QStringLiteral("MaxWidth"), QString::number(map.maxSize));
        w.text(QStringLiteral("MaxHeight"), QString::number(map.maxSize));
    }
    xml.writeEndElement();
}

QStringList featureInfoFormats(const MapDef& map)
{
    auto list = map.web.metadata.value(QStringLiteral("wms_getfeatureinfo_formatlist"));
    if (!list) list = wmsMetadata(map.web.metadata, QStringLiteral("feature_info_mime_type"));
    if (!list || list->trimmed().isEmpty()) return {QStringLiteral("text/plain"), QStringLiteral("application/vnd.ogc.gml")};
    QStringList out;
    for (const QString& t : list->split(QLatin1Char(',')))
        if (!t.trimmed().isEmpty()) out << t.trimmed();
    if (!list->contains(QLatin1String("GML"), Qt::CaseInsensitive)) out << QStringLiteral("application/vnd.ogc.gml");
    if (!list->contains(QLatin1String("text/plain"), Qt::CaseInsensitive) && !list->contains(QLatin1String("MIME"), Qt::CaseInsensitive))
        out << QStringLiteral("text/plain");
    return out;
}

void requests(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const auto on = [&](const char* r, bool anyLayer = false) { return requestEnabledForMap(map, QLatin1String(r), anyLayer); };
    w.xml.writeStartElement(QStringLiteral("Request"));
    if (on("GetCapabilities", true))
        requestCap(w, QStringLiteral("GetCapabilities"),
                   {w.v130() ? QStringLiteral("text/xml") : QStringLiteral("application/vnd.ogc.wms_xml")});
    if (on("GetMap")) requestCap(w, QStringLiteral("GetMap"), formatList(map, false));
    if (on("GetFeatureInfo")) requestCap(w, QStringLiteral("GetFeatureInfo"), featureInfoFormats(map));
    const bool sld = wmsMetadata(map.web.metadata, QStringLiteral("sld_enabled")).value_or(QStringLiteral("true"))
                         .compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
    if (sld) {
        if (on("DescribeLayer"))
            requestCap(w, w.v130() ? QStringLiteral("sld:DescribeLayer") : QStringLiteral("DescribeLayer"), {QStringLiteral("text/xml")});
        if (w.version >= Wms111) {
            if (on("GetLegendGraphic"))
                requestCap(w, w.v130() ? QStringLiteral("sld:GetLegendGraphic") : QStringLiteral("GetLegendGraphic"),
                           formatList(map, true));
            if (on("GetStyles"))
                requestCap(w, w.v130() ? QStringLiteral("ms:GetStyles") : QStringLiteral("GetStyles"), {QStringLiteral("text/xml")});
        }
    }
    w.xml.writeEndElement();

    w.xml.writeStartElement(QStringLiteral("Exception"));
    const QStringList exceptions = w.v130()
        ? QStringList{QStringLiteral("XML"), QStringLiteral("INIMAGE"), QStringLiteral("BLANK")}
        : QStringList{QStringLiteral("application/vnd.ogc.se_xml"), QStringLiteral("application/vnd.ogc.se_inimage"),
                      QStringLiteral("application/vnd.ogc.se_blank")};
    for (const QString& f : exceptions) w.text(QStringLiteral("Format"), f);
    w.xml.writeEndElement();
    if (!w.v130()) {
        if (w.inspire) {
            w.xml.writeStartElement(QStringLiteral("VendorSpecificCapabilities"));
            writeInspireExtendedCapabilities(w, true);
            w.xml.writeEndElement();
        } else {
            w.xml.writeEmptyElement(QStringLiteral("VendorSpecificCapabilities"));
        }
    }
    if (sld) {
        w.xml.writeEmptyElement(w.v130() ? QStringLiteral("sld:UserDefinedSymbolization") : QStringLiteral("UserDefinedSymbolization"));
        w.xml.writeAttribute(QStringLiteral("SupportSLD"), QStringLiteral("1"));
        w.xml.writeAttribute(QStringLiteral("UserLayer"), QStringLiteral("0"));
        w.xml.writeAttribute(QStringLiteral("UserStyle"), QStringLiteral("1"));
        w.xml.writeAttribute(QStringLiteral("RemoteWFS"), QStringLiteral("0"));
        if (w.v130()) {
            w.xml.writeAttribute(QStringLiteral("InlineFeature"), QStringLiteral("0"));
            w.xml.writeAttribute(QStringLiteral("RemoteWCS"), QStringLiteral("0"));
        }
    }
    if (w.v130() && w.inspire) writeInspireExtendedCapabilities(w, false);
}

// WMS 1.0.0 (OGC 00-028) as MapServer writes it: format names as empty
// elements, DCPType URLs as onlineResource attributes, no xlink.
void requestCap100(CapabilitiesWriter& w, const QString& name, const QStringList& formats)
{
    QXmlStreamWriter& xml = w.xml;
    xml.writeStartElement(name);
    xml.writeStartElement(QStringLiteral("Format"));
    for (const QString& f : formats) xml.writeEmptyElement(f);
    xml.writeEndElement();
    xml.writeStartElement(QStringLiteral("DCPType"));
    xml.writeStartElement(QStringLiteral("HTTP"));
    for (const char* method : {"Get", "Post"}) {
        xml.writeEmptyElement(QLatin1String(method));
        xml.writeAttribute(QStringLiteral("onlineResource"), w.url);
    }
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndElement();
}

void service100(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const KeyValues& md = map.web.metadata;
    w.xml.writeStartElement(QStringLiteral("Service"));
    w.text(QStringLiteral("Name"), QStringLiteral("GetMap"));
    w.text(QStringLiteral("Title"), w.meta(md, QStringLiteral("title")).value_or(map.name));
    if (auto v = w.meta(md, QStringLiteral("abstract"))) w.text(QStringLiteral("Abstract"), *v);
    if (auto v = wmsMetadata(md, QStringLiteral("keywordlist"))) w.text(QStringLiteral("Keywords"), QString(*v).replace(QLatin1Char(','), QLatin1Char(' ')));
    w.text(QStringLiteral("OnlineResource"), wmsMetadata(md, QStringLiteral("service_onlineresource")).value_or(w.url));
    if (auto v = wmsMetadata(md, QStringLiteral("fees"))) w.text(QStringLiteral("Fees"), *v);
    if (auto v = wmsMetadata(md, QStringLiteral("accessconstraints"))) w.text(QStringLiteral("AccessConstraints"), *v);
    w.xml.writeEndElement();
}

void requests100(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const auto on = [&](const char* r, bool anyLayer = false) { return requestEnabledForMap(map, QLatin1String(r), anyLayer); };
    w.xml.writeStartElement(QStringLiteral("Request"));
    // The 1.0.0 names of the image formats MapServer 8 writes (AGG PNG and JPEG, Cairo SVG).
    if (on("GetMap")) requestCap100(w, QStringLiteral("Map"), {QStringLiteral("PNG"), QStringLiteral("JPEG"), QStringLiteral("SVG")});
    if (on("GetCapabilities", true)) requestCap100(w, QStringLiteral("Capabilities"), {QStringLiteral("WMS_XML")});
    if (on("GetFeatureInfo")) requestCap100(w, QStringLiteral("FeatureInfo"), {QStringLiteral("MIME"), QStringLiteral("GML.1")});
    w.xml.writeEndElement();
    w.xml.writeStartElement(QStringLiteral("Exception"));
    w.xml.writeStartElement(QStringLiteral("Format"));
    for (const char* f : {"BLANK", "INIMAGE", "WMS_XML"}) w.xml.writeEmptyElement(QLatin1String(f));
    w.xml.writeEndElement();
    w.xml.writeEndElement();
    w.xml.writeEmptyElement(QStringLiteral("VendorSpecificCapabilities"));
}

// MapServer's root style of an INSPIRE service (wms_style_name, "default"
// unless set): the legend of every layer the capabilities list.
void inspireRootStyle(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const KeyValues& md = map.web.metadata;
    if (!w.inspire || map.name.isEmpty()) return;
    const QString name = wmsMetadata(md, QStringLiteral("style_name")).value_or(QStringLiteral("default"));
    w.xml.writeStartElement(QStringLiteral("Style"));
    w.text(QStringLiteral("Name"), name);
    w.text(QStringLiteral("Title"), w.meta(md, QStringLiteral("style_title")).value_or(name));
    QString width, height, format, href;
    if (auto given = wmsMetadata(md, QStringLiteral("style_legendurl_href"))) {
        width = wmsMetadata(md, QStringLiteral("style_legendurl_width")).value_or(QString());
        height = wmsMetadata(md, QStringLiteral("style_legendurl_height")).value_or(QString());
        format = wmsMetadata(md, QStringLiteral("style_legendurl_format")).value_or(QStringLiteral("image/png"));
        href = *given;
    } else {
        QList<int> layers(w.enabled.begin(), w.enabled.end());
        std::sort(layers.begin(), layers.end());
        const QSize size = legendSize(map, layers);
        width = QString::number(size.width());
        height = QString::number(size.height());
        format = wmsMetadata(md, QStringLiteral("getlegendgraphic_formatlist")).value_or(QStringLiteral("image/png")).section(QLatin1Char(','), 0, 0).trimmed();
        href = w.url + QStringLiteral("version=%1&service=WMS&request=GetLegendGraphic&%2layer=%3&format=%4&STYLE=%5")
                           .arg(wmsVersionString(w.version), w.v130() ? QStringLiteral("sld_version=1.1.0&") : QString(), map.name,
                                format, name);
    }
    w.xml.writeStartElement(QStringLiteral("LegendURL"));
    w.xml.writeAttribute(QStringLiteral("width"), width);
    w.xml.writeAttribute(QStringLiteral("height"), height);
    w.text(QStringLiteral("Format"), format);
    w.xml.writeStartElement(QStringLiteral("OnlineResource"));
    w.xml.writeAttribute(QStringLiteral("xmlns:xlink"), QLatin1String(kXlink));
    w.xml.writeAttribute(QStringLiteral("xlink:type"), QStringLiteral("simple"));
    w.xml.writeAttribute(QStringLiteral("xlink:href"), href);
    w.xml.writeEndElement();
    w.xml.writeEndElement();
    w.xml.writeEndElement();
}

// The root layer's MetadataURL: type, format and href are all needed.
void rootMetadataUrl(CapabilitiesWriter& w)
{
    const KeyValues& md = w.ctx.map.web.metadata;
    const auto type = wmsMetadata(md, QStringLiteral("metadataurl_type"));
    const auto format = wmsMetadata(md, QStringLiteral("metadataurl_format"));
    const auto href = wmsMetadata(md, QStringLiteral("metadataurl_href"));
    if (!type || !format || !href) return;
    w.xml.writeStartElement(QStringLiteral("MetadataURL"));
    w.xml.writeAttribute(QStringLiteral("type"), *type);
    w.text(QStringLiteral("Format"), *format);
    w.xml.writeStartElement(QStringLiteral("OnlineResource"));
    w.xml.writeAttribute(QStringLiteral("xmlns:xlink"), QLatin1String(kXlink));
    w.xml.writeAttribute(QStringLiteral("xlink:type"), QStringLiteral("simple"));
    w.xml.writeAttribute(QStringLiteral("xlink:href"), *href);
    w.xml.writeEndElement();
    w.xml.writeEndElement();
}

void rootLayer(CapabilitiesWriter& w)
{
    const MapDef& map = w.ctx.map;
    const KeyValues& md = map.web.metadata;
    if (w.enabled.isEmpty()) {
        w.xml.writeComment(QStringLiteral(" WARNING: No WMS layers are enabled. Check wms/ows_enable_request settings. "));
        return;
    }
    const auto rootName = wmsMetadata(md, QStringLiteral("rootlayer_name"));
    bool queryable = false;
    if (!rootName || !rootName->isEmpty())
        for (int i : w.enabled)
            if (layerQueryable(map.layers[i])) queryable = true;
    w.xml.writeStartElement(QStringLiteral("Layer"));
    if (queryable) w.xml.writeAttribute(QStringLiteral("queryable"), QStringLiteral("1"));
    const QString name = rootName.value_or(map.name);
    if (!name.isEmpty()) w.text(QStringLiteral("Name"), name);
    auto title = w.meta(md, QStringLiteral("rootlayer_title"));
    if (!title) title = w.meta(md, QStringLiteral("title"));
    w.text(QStringLiteral("Title"), title.value_or(map.name));
    auto abstract = w.meta(md, QStringLiteral("rootlayer_abstract"));
    if (!abstract) abstract = w.meta(md, QStringLiteral("abstract"));
    w.text(QStringLiteral("Abstract"), abstract.value_or(map.name));
    const bool rootKeywords = wmsMetadata(md, QStringLiteral("rootlayer_keywordlist")) || wmsMetadata(md, QStringLiteral("rootlayer_keywordlist_items"))
                              || wmsMetadata(md, QStringLiteral("rootlayer_keywordlist_vocabulary"));
    w.keywordList(md, rootKeywords ? QStringLiteral("rootlayer_keywordlist") : QStringLiteral("keywordlist"));
    const QString codes = epsgCodes(map.projection, &md, false);
    for (const QString& code : codes.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        w.text(w.v130() ? QStringLiteral("CRS") : QStringLiteral("SRS"), code);
    w.boundingBoxes(map.extent, map.projection, nullptr);
    w.attribution(md);
    w.authorityAndIdentifier(md);
    rootMetadataUrl(w);
    inspireRootStyle(w);
    w.scaleRange(map.web.minScaleDenom, map.web.maxScaleDenom);
    w.layerTree();
    w.xml.writeEndElement();
}

}  // namespace

Response wmsGetCapabilities(const WmsContext& ctx)
{
    int version = ctx.version;
    if (version < 0) version = Wms110;
    else if (version < Wms110) version = Wms100;
    else if (version < Wms111) version = Wms110;
    else if (version < Wms130) version = Wms111;
    else version = Wms130;

    QByteArray body;
    QXmlStreamWriter xml(&body);
    xml.setAutoFormatting(true);
    xml.setAutoFormattingIndent(2);
    CapabilitiesWriter w{ctx, xml, version, onlineResource(ctx.map, ctx.request.selfUrl), enabledLayers(ctx.map, QStringLiteral("GetCapabilities")), {}};
    const KeyValues& md = ctx.map.web.metadata;
    w.language = wmsLanguage(ctx.map, ctx.request);
    if (w.language) w.url += QStringLiteral("language=%1&").arg(*w.language);
    w.inspire = wmsMetadata(md, QStringLiteral("inspire_capabilities")).has_value();
    const QString schemas = wmsMetadata(md, QStringLiteral("schemas_location")).value_or(QStringLiteral("http://schemas.opengis.net"));

    xml.writeStartDocument();
    if (!w.v130()) {
        const QString dtd = schemas + (schemas == QLatin1String("http://schemas.opengis.net") && version == Wms111
                                           ? QStringLiteral("/wms/1.1.1/WMS_MS_Capabilities.dtd")
                                           : QStringLiteral("/wms/%1/capabilities_%2.dtd")
                                                 .arg(wmsVersionString(version), wmsVersionString(version).replace(QLatin1Char('.'), QLatin1Char('_'))));
        xml.writeDTD(QStringLiteral("<!DOCTYPE WMT_MS_Capabilities SYSTEM \"%1\"\n [\n <!ELEMENT VendorSpecificCapabilities EMPTY>\n ]>").arg(dtd));
    }
    xml.writeStartElement(w.v130() ? QStringLiteral("WMS_Capabilities") : QStringLiteral("WMT_MS_Capabilities"));
    xml.writeAttribute(QStringLiteral("version"), wmsVersionString(version));
    if (auto seq = wmsMetadata(md, QStringLiteral("updatesequence"))) xml.writeAttribute(QStringLiteral("updateSequence"), *seq);
    if (w.v130()) {
        xml.writeAttribute(QStringLiteral("xmlns"), QStringLiteral("http://www.opengis.net/wms"));
        xml.writeAttribute(QStringLiteral("xmlns:sld"), QStringLiteral("http://www.opengis.net/sld"));
        xml.writeAttribute(QStringLiteral("xmlns:xsi"), QStringLiteral("http://www.w3.org/2001/XMLSchema-instance"));
        xml.writeAttribute(QStringLiteral("xmlns:ms"), QStringLiteral("http://mapserver.gis.umn.edu/mapserver"));
        QString inspireSchema;
        if (w.inspire) {
            xml.writeAttribute(QStringLiteral("xmlns:inspire_common"), kInspireCommonNs);
            xml.writeAttribute(QStringLiteral("xmlns:inspire_vs"), kInspireVsNs);
            // A plain key, without wms_/ows_, as MapServer reads it.
            inspireSchema = QStringLiteral(" %1 %2/inspire_vs/1.0/inspire_vs.xsd ")
                                .arg(kInspireVsNs, md.value(QStringLiteral("inspire_schemas_location"), QStringLiteral("http://inspire.ec.europa.eu/schemas")));
        }
        xml.writeAttribute(QStringLiteral("xsi:schemaLocation"),
                           QStringLiteral("http://www.opengis.net/wms %1/wms/1.3.0/capabilities_1_3_0.xsd "
                                          " http://www.opengis.net/sld %1/sld/1.1.0/sld_capabilities.xsd %3"
                                          " http://mapserver.gis.umn.edu/mapserver %2service=WMS&version=1.3.0&request=GetSchemaExtension")
                               .arg(schemas, w.url, inspireSchema));
    }
    const bool v100 = version == Wms100;
    v100 ? service100(w) : service(w);
    xml.writeStartElement(QStringLiteral("Capability"));
    v100 ? requests100(w) : requests(w);
    rootLayer(w);
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();

    Response r;
    r.body = body;
    r.setContentType(w.v130() ? "text/xml; charset=UTF-8" : "application/vnd.ogc.wms_xml; charset=UTF-8");
    return r;
}

}  // namespace maptune
