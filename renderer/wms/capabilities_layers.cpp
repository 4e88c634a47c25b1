// The layer tree of WMS capabilities (msDumpLayer, msWMSPrintNestedGroups and
// the GROUP blocks of msWMSGetCapabilities) and the bounding boxes of mapows.c.

#include "wms/capabilities_writer.h"
#include "wms/wms_dimensions.h"
#include "wms/get_map_params.h"
#include "render/legend_layout.h"
#include "wms/ows_layer_info.h"

#include "geo/coordinate_transform.h"
#include "geo/crs.h"
#include "geo/map_projection.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

const QString kXlink = QStringLiteral("http://www.w3.org/1999/xlink");

QString fixed6(double v) { return QString::asprintf("%.6f", v); }
QString general(double v) { return QString::asprintf("%g", v); }

void linkElement(QXmlStreamWriter& xml, const QString& href)
{
    xml.writeStartElement(QStringLiteral("OnlineResource"));
    xml.writeAttribute(QStringLiteral("xmlns:xlink"), kXlink);
    xml.writeAttribute(QStringLiteral("xlink:type"), QStringLiteral("simple"));
    xml.writeAttribute(QStringLiteral("xlink:href"), href);
    xml.writeEndElement();
}

struct Nesting {
    QList<QStringList> groups;   // per layer: its wms_layer_group path
    QList<bool> usedAsGroup;     // per layer: its NAME is a group of some layer
};

Nesting nesting(const MapDef& map)
{
    Nesting n;
    for (const LayerDef& l : map.layers) n.groups << nestedGroups(l);
    for (const LayerDef& l : map.layers) {
        bool used = false;
        for (const QStringList& g : n.groups)
            for (const QString& name : g)
                if (name.compare(l.name, Qt::CaseInsensitive) == 0) used = true;
        n.usedAsGroup << used;
    }
    return n;
}

bool isSubGroup(const QStringList& current, int level, const QStringList& other)
{
    if (other.size() <= level) return false;
    for (int i = 0; i <= level; ++i)
        if (current[i] != other[i]) return false;
    return true;
}

class LayerTree {
public:
    explicit LayerTree(CapabilitiesWriter& w) : m_w(w), m_map(w.ctx.map), m_nest(nesting(w.ctx.map))
    {
        for (int i = 0; i < m_map.layers.size(); ++i) m_done << !w.enabled.contains(i);
    }

    void write()
    {
        for (int i = 0; i < m_map.layers.size(); ++i) {
            if (m_done[i]) continue;
            const LayerDef& lp = m_map.layers[i];
            if (!m_nest.groups[i].isEmpty()) {
                nestedGroup(i, 0);
            } else if (lp.group.isEmpty()) {
                if (!m_nest.usedAsGroup[i]) {
                    dumpLayer(i, false, false);
                    m_done[i] = true;
                }
            } else {
                groupBlock(i);
            }
        }
    }

private:
    void groupBlock(int first)
    {
        const QString group = m_map.layers[first].group;
        QList<int> members;
        for (int j = first; j < m_map.layers.size(); ++j)
            if (!m_done[j] && m_map.layers[j].group == group) members << j;
        bool queryable = false;
        for (int j : members) queryable = queryable || layerQueryable(m_map.layers[j]);
        QXmlStreamWriter& xml = m_w.xml;
        xml.writeStartElement(QStringLiteral("Layer"));
        if (queryable) xml.writeAttribute(QStringLiteral("queryable"), QStringLiteral("1"));
        m_w.text(QStringLiteral("Name"), group);
        const KeyValues& md = m_map.layers[first].metadata;
        m_w.text(QStringLiteral("Title"), m_w.meta(md, QStringLiteral("group_title")).value_or(group));
        if (auto a = m_w.meta(md, QStringLiteral("group_abstract"))) m_w.text(QStringLiteral("Abstract"), *a);
        const QString style = wmsMetadata(md, QStringLiteral("group_style_name")).value_or(QStringLiteral("default"));
        xml.writeStartElement(QStringLiteral("Style"));
        m_w.text(QStringLiteral("Name"), style);
        // Title is mandatory in both versions' Style (DTD and schema).
        m_w.text(QStringLiteral("Title"), wmsMetadata(md, QStringLiteral("group_style_title")).value_or(style));
        if (!givenLegendUrl(md, QStringLiteral("group_style"))) legendUrl(group, style, members, true);
        xml.writeEndElement();
        for (int j : members) {
            dumpLayer(j, false, false);
            m_done[j] = true;
        }
        xml.writeEndElement();
    }

    bool hasQueryableSubLayers(int index, int level) const
    {
        for (int j = index; j < m_map.layers.size(); ++j)
            if (isSubGroup(m_nest.groups[index], level, m_nest.groups[j]) && layerQueryable(m_map.layers[j])) return true;
        return false;
    }

    void nestedGroup(int index, int level)
    {
        const QStringList& groups = m_nest.groups[index];
        if (groups.size() <= level) {
            if (!m_done[index] && !m_nest.usedAsGroup[index]) {
                dumpLayer(index, false, false);
                m_done[index] = true;
            }
            return;
        }
        bool added = false;
        int j = -1;
        for (int k = 0; k < m_map.layers.size(); ++k)
            if (m_map.layers[k].name.compare(groups[level], Qt::CaseInsensitive) == 0) j = k;
        if (j >= 0) {
            if (!m_done[j]) {
                dumpLayer(j, true, hasQueryableSubLayers(index, level));
                m_done[j] = true;
                added = true;
            }
        } else {
            m_w.xml.writeStartElement(QStringLiteral("Layer"));
            if (hasQueryableSubLayers(index, level)) m_w.xml.writeAttribute(QStringLiteral("queryable"), QStringLiteral("1"));
            m_w.text(QStringLiteral("Name"), groups[level]);
            m_w.text(QStringLiteral("Title"), groups[level]);
            added = true;
        }
        if (!m_done[index]) nestedGroup(index, level + 1);
        for (int k = index + 1; k < m_map.layers.size(); ++k)
            if (isSubGroup(groups, level, m_nest.groups[k]) && !m_done[k]) nestedGroup(k, level + 1);
        if (added) m_w.xml.writeEndElement();
    }

    // A LegendURL the metadata gives (<prefix>_legendurl_href, _width,
    // _height, _format): written instead of the computed one.
    bool givenLegendUrl(const KeyValues& md, const QString& prefix)
    {
        const auto href = wmsMetadata(md, prefix + QStringLiteral("_legendurl_href"));
        if (!href) return false;
        QXmlStreamWriter& xml = m_w.xml;
        xml.writeStartElement(QStringLiteral("LegendURL"));
        if (auto v = wmsMetadata(md, prefix + QStringLiteral("_legendurl_width"))) xml.writeAttribute(QStringLiteral("width"), *v);
        if (auto v = wmsMetadata(md, prefix + QStringLiteral("_legendurl_height"))) xml.writeAttribute(QStringLiteral("height"), *v);
        m_w.text(QStringLiteral("Format"), wmsMetadata(md, prefix + QStringLiteral("_legendurl_format")).value_or(QStringLiteral("image/png")));
        linkElement(xml, *href);
        xml.writeEndElement();
        return true;
    }

    // `evenEmpty`: a group's legend is announced even when none of its
    // layers has a class (msLegendCalcSize's size of no items: margins and
    // one key's width, less one spacing in height).
    void legendUrl(const QString& name, const QString& style, const QList<int>& layers, bool evenEmpty = false)
    {
        QSize size = legendSize(m_map, layers);
        if (size.isEmpty() && evenEmpty) {
            const LegendDef& l = m_map.legend;
            size = QSize(2 * kLegendMargin + l.keySpacingX + l.keySizeX, 2 * kLegendMargin - l.keySpacingY);
        }
        if (size.isEmpty()) return;
        QXmlStreamWriter& xml = m_w.xml;
        xml.writeStartElement(QStringLiteral("LegendURL"));
        xml.writeAttribute(QStringLiteral("width"), QString::number(size.width()));
        xml.writeAttribute(QStringLiteral("height"), QString::number(size.height()));
        m_w.text(QStringLiteral("Format"), QStringLiteral("image/png"));
        QString href = m_w.url + QStringLiteral("version=") + wmsVersionString(m_w.version)
                       + QStringLiteral("&service=WMS&request=GetLegendGraphic&");
        href += m_w.v130() ? QStringLiteral("sld_version=1.1.0&layer=") : QStringLiteral("layer=");
        href += name + QStringLiteral("&format=image/png&STYLE=") + style;
        linkElement(xml, href);
        xml.writeEndElement();
    }

    void styles(int index)
    {
        const LayerDef& lp = m_map.layers[index];
        if (lp.connectionType == ConnectionType::WMS || lp.connectionType == ConnectionType::WFS) return;
        if (legendClasses(lp).isEmpty()) return;
        QList<int> members{index};
        for (int j = 0; j < m_map.layers.size(); ++j)
            if (j != index)
                for (const QString& g : m_nest.groups[j])
                    if (g.compare(lp.name, Qt::CaseInsensitive) == 0) {
                        members << j;
                        break;
                    }
        const QString rootStyle = wmsMetadata(m_map.web.metadata, QStringLiteral("style_name")).value_or(QStringLiteral("default"));
        // Groups the layer inherits -- the root's style, and class groups of
        // the layers its wms_layer_group path names -- are not its own.
        QStringList inherited{rootStyle};
        for (const QString& parent : m_nest.groups[index])
            for (const LayerDef& l : m_map.layers)
                if (l.name.compare(parent, Qt::CaseInsensitive) == 0)
                    for (const ClassDef& c : l.classes)
                        if (!c.group.isEmpty()) inherited << c.group;
        QStringList classGroups;
        for (const ClassDef& c : lp.classes)
            if (!c.name.isEmpty() && !c.group.isEmpty() && !inherited.contains(c.group, Qt::CaseInsensitive)
                && !classGroups.contains(c.group, Qt::CaseInsensitive))
                classGroups << c.group;
        if (classGroups.isEmpty()) classGroups << QStringLiteral("default");
        for (const QString& style : classGroups) {
            m_w.xml.writeStartElement(QStringLiteral("Style"));
            m_w.text(QStringLiteral("Name"), style);
            m_w.text(QStringLiteral("Title"), m_w.meta(lp.metadata, QStringLiteral("style_") + style + QStringLiteral("_title")).value_or(style));
            if (!givenLegendUrl(lp.metadata, QStringLiteral("style_") + style)) legendUrl(lp.name, style, members);
            m_w.xml.writeEndElement();
        }
    }

    void urlBlock(const KeyValues& md, const QString& key, const QString& element, bool withType)
    {
        const auto href = wmsMetadata(md, key + QStringLiteral("_href"));
        if (!href) return;
        QXmlStreamWriter& xml = m_w.xml;
        xml.writeStartElement(element);
        if (withType)
            if (auto t = wmsMetadata(md, key + QStringLiteral("_type"))) xml.writeAttribute(QStringLiteral("type"), *t);
        if (auto f = wmsMetadata(md, key + QStringLiteral("_format"))) m_w.text(QStringLiteral("Format"), *f);
        linkElement(xml, *href);
        xml.writeEndElement();
    }

    void dumpLayer(int index, bool keepOpen, bool queryableSubLayers)
    {
        const LayerDef& lp = m_map.layers[index];
        QXmlStreamWriter& xml = m_w.xml;
        xml.writeStartElement(QStringLiteral("Layer"));
        xml.writeAttribute(QStringLiteral("queryable"), (queryableSubLayers || layerQueryable(lp)) ? QStringLiteral("1") : QStringLiteral("0"));
        xml.writeAttribute(QStringLiteral("opaque"), QString::number(wmsMetadata(lp.metadata, QStringLiteral("opaque")).value_or(QStringLiteral("0")).toInt()));
        xml.writeAttribute(QStringLiteral("cascaded"), lp.connectionType == ConnectionType::WMS ? QStringLiteral("1") : QStringLiteral("0"));
        if (!lp.name.isEmpty()) m_w.text(QStringLiteral("Name"), lp.name);
        m_w.text(QStringLiteral("Title"), m_w.meta(lp.metadata, QStringLiteral("title")).value_or(lp.name));
        if (auto a = m_w.meta(lp.metadata, QStringLiteral("abstract"))) m_w.text(QStringLiteral("Abstract"), *a);
        m_w.keywordList(lp.metadata, QStringLiteral("keywordlist"));
        for (const QString& code : epsgCodes(lp.projection, &lp.metadata, false).split(QLatin1Char(' '), Qt::SkipEmptyParts))
            m_w.text(m_w.v130() ? QStringLiteral("CRS") : QStringLiteral("SRS"), code);
        if (auto ext = layerExtent(m_map, lp, m_w.ctx.prepared.context()))
            m_w.boundingBoxes(*ext, lp.projection.isSet() ? lp.projection : m_map.projection, &lp.metadata);
        dimensions(lp);
        m_w.attribution(lp.metadata);
        m_w.authorityAndIdentifier(lp.metadata);
        if (const auto list = wmsMetadata(lp.metadata, QStringLiteral("metadataurl_list"))) {
            // Several MetadataURLs: wms_metadataurl_<name>_href/_type/_format per listed name.
            for (const QString& name : list->split(QLatin1Char(' '), Qt::SkipEmptyParts))
                urlBlock(lp.metadata, QStringLiteral("metadataurl_") + name, QStringLiteral("MetadataURL"), true);
        } else if (wmsMetadata(lp.metadata, QStringLiteral("metadataurl_href"))) {
            urlBlock(lp.metadata, QStringLiteral("metadataurl"), QStringLiteral("MetadataURL"), true);
        } else {
            xml.writeStartElement(QStringLiteral("MetadataURL"));
            xml.writeAttribute(QStringLiteral("type"), QStringLiteral("TC211"));
            m_w.text(QStringLiteral("Format"), QStringLiteral("text/xml"));
            linkElement(xml, m_w.url + QStringLiteral("request=GetMetadata&layer=") + lp.name);
            xml.writeEndElement();
        }
        if (const auto list = wmsMetadata(lp.metadata, QStringLiteral("dataurl_list"))) {
            for (const QString& name : list->split(QLatin1Char(' '), Qt::SkipEmptyParts))
                urlBlock(lp.metadata, QStringLiteral("dataurl_") + name, QStringLiteral("DataURL"), false);
        } else {
            urlBlock(lp.metadata, QStringLiteral("dataurl"), QStringLiteral("DataURL"), false);
        }
        // FeatureListURL needs both its format and its href.
        if (wmsMetadata(lp.metadata, QStringLiteral("featurelist_format")))
            urlBlock(lp.metadata, QStringLiteral("featurelist"), QStringLiteral("FeatureListURL"), false);
        styles(index);
        m_w.scaleRange(lp.minScaleDenom, lp.maxScaleDenom);
        if (!keepOpen) xml.writeEndElement();
    }

    // 1.3.0: one Dimension with the extent. 1.1.1: the Dimensions, then
    // their Extents (the DTD's order). 1.1.0, which has no DTD here: each
    // Dimension followed by its Extent, as MapServer writes them.
    void dimensions(const LayerDef& lp)
    {
        QXmlStreamWriter& xml = m_w.xml;
        const QList<LayerDimension> dims = layerDimensions(lp);
        const auto extentAttributes = [&xml](const LayerDimension& d) {
            if (d.defaultValue) xml.writeAttribute(QStringLiteral("default"), *d.defaultValue);
        };
        if (m_w.v130()) {
            for (const LayerDimension& d : dims) {
                xml.writeStartElement(QStringLiteral("Dimension"));
                xml.writeAttribute(QStringLiteral("name"), d.name);
                xml.writeAttribute(QStringLiteral("units"), d.units);
                extentAttributes(d);
                if (!d.isTime) xml.writeAttribute(QStringLiteral("multipleValues"), QStringLiteral("1"));
                xml.writeAttribute(QStringLiteral("nearestValue"), QStringLiteral("0"));
                xml.writeCharacters(d.extent);
                xml.writeEndElement();
            }
            return;
        }
        const auto dimension = [&xml](const LayerDimension& d) {
            xml.writeEmptyElement(QStringLiteral("Dimension"));
            xml.writeAttribute(QStringLiteral("name"), d.name);
            xml.writeAttribute(QStringLiteral("units"), d.units);
        };
        const auto extent = [&](const LayerDimension& d) {
            xml.writeStartElement(QStringLiteral("Extent"));
            xml.writeAttribute(QStringLiteral("name"), d.name);
            extentAttributes(d);
            xml.writeAttribute(QStringLiteral("nearestValue"), QStringLiteral("0"));
            xml.writeCharacters(d.extent);
            xml.writeEndElement();
        };
        const bool interleaved = m_w.version < Wms111;
        for (const LayerDimension& d : dims) {
            dimension(d);
            if (interleaved) extent(d);
        }
        if (!interleaved)
            for (const LayerDimension& d : dims) extent(d);
    }

    CapabilitiesWriter& m_w;
    const MapDef& m_map;
    Nesting m_nest;
    QList<bool> m_done;
};

}  // namespace

void CapabilitiesWriter::attribution(const KeyValues& md)
{
    const auto title = wmsMetadata(md, QStringLiteral("attribution_title"));
    const auto link = wmsMetadata(md, QStringLiteral("attribution_onlineresource"));
    const auto logoWidth = wmsMetadata(md, QStringLiteral("attribution_logourl_width"));
    const auto logoHeight = wmsMetadata(md, QStringLiteral("attribution_logourl_height"));
    const auto logoFormat = wmsMetadata(md, QStringLiteral("attribution_logourl_format"));
    const auto logoHref = wmsMetadata(md, QStringLiteral("attribution_logourl_href"));
    const bool logo = logoWidth && logoHeight && logoFormat && logoHref;
    if (!title && !link && !logo) return;
    xml.writeStartElement(QStringLiteral("Attribution"));
    if (title) text(QStringLiteral("Title"), *title);
    if (link) {
        xml.writeStartElement(QStringLiteral("OnlineResource"));
        xml.writeAttribute(QStringLiteral("xmlns:xlink"), kXlink);
        xml.writeAttribute(QStringLiteral("xlink:href"), *link);
        xml.writeEndElement();
    }
    if (logo) {
        xml.writeStartElement(QStringLiteral("LogoURL"));
        xml.writeAttribute(QStringLiteral("width"), *logoWidth);
        xml.writeAttribute(QStringLiteral("height"), *logoHeight);
        text(QStringLiteral("Format"), *logoFormat);
        xml.writeStartElement(QStringLiteral("OnlineResource"));
        xml.writeAttribute(QStringLiteral("xmlns:xlink"), kXlink);
        xml.writeAttribute(QStringLiteral("xlink:type"), QStringLiteral("simple"));
        xml.writeAttribute(QStringLiteral("xlink:href"), *logoHref);
        xml.writeEndElement();
        xml.writeEndElement();
    }
    xml.writeEndElement();
}

void CapabilitiesWriter::keywordList(const KeyValues& metadata, const QString& key)
{
    const auto words = wmsMetadata(metadata, key);
    const auto items = wmsMetadata(metadata, key + QStringLiteral("_items"));
    const auto vocabularies = wmsMetadata(metadata, key + QStringLiteral("_vocabulary"));
    if (!words && !items && !vocabularies) return;
    xml.writeStartElement(QStringLiteral("KeywordList"));
    for (const auto& list : {words, items})
        if (list)
            for (const QString& k : list->split(QLatin1Char(','), Qt::SkipEmptyParts)) text(QStringLiteral("Keyword"), k);
    // Keywords of a vocabulary (<key>_<vocabulary>_items) exist in 1.3.0 only.
    if (v130() && vocabularies)
        for (QString vocabulary : vocabularies->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            vocabulary = vocabulary.trimmed();
            const auto words = wmsMetadata(metadata, QStringLiteral("%1_%2_items").arg(key, vocabulary));
            for (const QString& k : words.value_or(QString()).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                xml.writeStartElement(QStringLiteral("Keyword"));
                xml.writeAttribute(QStringLiteral("vocabulary"), vocabulary);
                xml.writeCharacters(k);
                xml.writeEndElement();
            }
        }
    xml.writeEndElement();
}

void CapabilitiesWriter::authorityAndIdentifier(const KeyValues& metadata)
{
    const auto name = wmsMetadata(metadata, QStringLiteral("authorityurl_name"));
    const auto href = wmsMetadata(metadata, QStringLiteral("authorityurl_href"));
    if (name && href) {
        xml.writeStartElement(QStringLiteral("AuthorityURL"));
        xml.writeAttribute(QStringLiteral("name"), *name);
        xml.writeStartElement(QStringLiteral("OnlineResource"));
        xml.writeAttribute(QStringLiteral("xmlns:xlink"), kXlink);
        xml.writeAttribute(QStringLiteral("xlink:href"), *href);
        xml.writeEndElement();
        xml.writeEndElement();
    }
    const auto authority = wmsMetadata(metadata, QStringLiteral("identifier_authority"));
    const auto value = wmsMetadata(metadata, QStringLiteral("identifier_value"));
    if (authority && value) {
        xml.writeStartElement(QStringLiteral("Identifier"));
        xml.writeAttribute(QStringLiteral("authority"), *authority);
        xml.writeCharacters(*value);
        xml.writeEndElement();
    }
}

void CapabilitiesWriter::boundingBoxes(const Rect& extent, const ProjectionDef& projection, const KeyValues* layerMetadata)
{
    const std::optional<Crs> src = resolveProjection(ctx.map, projection).toOptional();
    Rect geo = extent;
    if (src && !src->isGeographic())
        if (const auto wgs84 = Crs::fromUserInput(QStringLiteral("EPSG:4326"))) geo = projectRect(*src, *wgs84, extent);
    if (v130()) {
        // The schema bounds longitudes to ±180 and latitudes to ±90; MapServer
        // writes an extent beyond them as is (an invalid document), MapTune clamps.
        const auto lon = [](double v) { return fixed6(std::clamp(v, -180.0, 180.0)); };
        const auto lat = [](double v) { return fixed6(std::clamp(v, -90.0, 90.0)); };
        xml.writeStartElement(QStringLiteral("EX_GeographicBoundingBox"));
        text(QStringLiteral("westBoundLongitude"), lon(geo.minx));
        text(QStringLiteral("eastBoundLongitude"), lon(geo.maxx));
        text(QStringLiteral("southBoundLatitude"), lat(geo.miny));
        text(QStringLiteral("northBoundLatitude"), lat(geo.maxy));
        xml.writeEndElement();
    } else {
        xml.writeEmptyElement(QStringLiteral("LatLonBoundingBox"));
        xml.writeAttribute(QStringLiteral("minx"), fixed6(geo.minx));
        xml.writeAttribute(QStringLiteral("miny"), fixed6(geo.miny));
        xml.writeAttribute(QStringLiteral("maxx"), fixed6(geo.maxx));
        xml.writeAttribute(QStringLiteral("maxy"), fixed6(geo.maxy));
    }

    // Only the native code (wms_srs cannot say what CRS the data is in),
    // unless wms_bbox_extended asks for one box per wms_srs code.
    QStringList codes{epsgCodes(projection, layerMetadata, true)};
    const KeyValues& mapMd = ctx.map.web.metadata;
    auto extended = layerMetadata ? wmsMetadata(*layerMetadata, QStringLiteral("bbox_extended")) : std::nullopt;
    if (!extended) extended = wmsMetadata(mapMd, QStringLiteral("bbox_extended"));
    if (extended && extended->startsWith(QLatin1String("true"), Qt::CaseInsensitive)) {
        auto srs = layerMetadata ? wmsMetadata(*layerMetadata, QStringLiteral("srs")) : std::nullopt;
        if (!srs) srs = wmsMetadata(mapMd, QStringLiteral("srs"));
        if (srs) codes = srs->split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }
    for (const QString& code : std::as_const(codes)) {
        if (code.isEmpty()) continue;
        Rect box = extent;
        const std::optional<Crs> target = Crs::fromUserInput(code).toOptional();
        if (target && src && *target != *src) box = projectRect(*src, *target, extent);
        if (v130() && target && crsAxisInverted(code)) {
            std::swap(box.minx, box.miny);
            std::swap(box.maxx, box.maxy);
        }
        const bool geographic = target && target->isGeographic();
        const auto fmt = [&](double v) { return geographic ? fixed6(v) : general(v); };
        xml.writeEmptyElement(QStringLiteral("BoundingBox"));
        xml.writeAttribute(v130() ? QStringLiteral("CRS") : QStringLiteral("SRS"), code);
        xml.writeAttribute(QStringLiteral("minx"), fmt(box.minx));
        xml.writeAttribute(QStringLiteral("miny"), fmt(box.miny));
        xml.writeAttribute(QStringLiteral("maxx"), fmt(box.maxx));
        xml.writeAttribute(QStringLiteral("maxy"), fmt(box.maxy));
        // The layer's resolution, as wms_resx / wms_resy state it (both needed).
        const auto resx = layerMetadata ? wmsMetadata(*layerMetadata, QStringLiteral("resx")) : std::nullopt;
        const auto resy = layerMetadata ? wmsMetadata(*layerMetadata, QStringLiteral("resy")) : std::nullopt;
        if (resx && resy) {
            xml.writeAttribute(QStringLiteral("resx"), *resx);
            xml.writeAttribute(QStringLiteral("resy"), *resy);
        }
    }
}

void CapabilitiesWriter::scaleRange(double minScale, double maxScale)
{
    if (v130()) {
        if (minScale > 0) text(QStringLiteral("MinScaleDenominator"), general(minScale));
        if (maxScale > 0) text(QStringLiteral("MaxScaleDenominator"), general(maxScale));
        return;
    }
    // WMS 1.1 ScaleHint: ground metres of the central pixel's diagonal.
    const double inchesPerMeter = 39.3701;
    const double resolution = ctx.map.resolution;
    const double lo = minScale > 0 ? std::sqrt(2.0) * (minScale / resolution) / inchesPerMeter : 0;
    const double hi = maxScale > 0 ? std::sqrt(2.0) * (maxScale / resolution) / inchesPerMeter : 0;
    if (lo <= 0 && hi <= 0) return;
    xml.writeEmptyElement(QStringLiteral("ScaleHint"));
    xml.writeAttribute(QStringLiteral("min"), QString::asprintf("%.15g", lo));
    xml.writeAttribute(QStringLiteral("max"), QString::asprintf("%.15g", hi));
}

void CapabilitiesWriter::layerTree()
{
    LayerTree(*this).write();
}

}  // namespace maptune
