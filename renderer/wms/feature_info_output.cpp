// GetFeatureInfo documents. Text goes through QXmlStreamWriter (GML),
// markupEscape (HTML) or QJsonDocument (GeoJSON); text/plain is served as
// text/plain, so values stay verbatim there, as in mapserv.

#include "wms/feature_info_output.h"

#include "wms/service_exception.h"
#include "wms/wms_context.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamWriter>

namespace maptune {

namespace {

// Which attributes a format shows and under which names: *_include_items,
// *_exclude_items and *_<item>_alias in the given metadata namespaces.
QList<std::pair<int, QString>> shownItems(const FeatureInfoLayer& r, const QStringList& namespaces)
{
    const auto lookup = [&](const QString& key) -> std::optional<QString> {
        for (const QString& ns : namespaces)
            if (auto v = r.layer->metadata.value(ns + QLatin1Char('_') + key)) return v;
        return std::nullopt;
    };
    const QString include = lookup(QStringLiteral("include_items")).value_or(QString());
    const QStringList includeList = include.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QStringList exclude = lookup(QStringLiteral("exclude_items")).value_or(QString()).split(QLatin1Char(','), Qt::SkipEmptyParts);
    QList<std::pair<int, QString>> out;
    for (int i = 0; i < r.fields.size(); ++i) {
        const QString& name = r.fields[i];
        const bool in = include.compare(QLatin1String("all"), Qt::CaseInsensitive) == 0 || includeList.contains(name, Qt::CaseInsensitive);
        if (!in || exclude.contains(name, Qt::CaseInsensitive)) continue;
        out << std::pair{i, lookup(name + QStringLiteral("_alias")).value_or(name)};
    }
    return out;
}

QJsonArray ring(const Geometry& g, int part)
{
    QJsonArray out;
    for (int i = g.partStart[part]; i < g.partEnd(part); ++i) out.append(QJsonArray{g.xy[2 * i], g.xy[2 * i + 1]});
    return out;
}

bool ringContains(const Geometry& g, int part, double px, double py)
{
    bool inside = false;
    const int s = g.partStart[part], e = g.partEnd(part);
    for (int i = s, j = e - 1; i < e; j = i++) {
        const double xi = g.xy[2 * i], yi = g.xy[2 * i + 1], xj = g.xy[2 * j], yj = g.xy[2 * j + 1];
        if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
}

// MapServer shapes are flat lists of rings: a ring inside an odd number of
// others is a hole of the first outer ring containing it.
QJsonObject polygonGeometry(const Geometry& g)
{
    QList<QJsonArray> polygons;
    QList<int> outerPart;
    QList<int> holes;
    for (int part = 0; part < g.partCount(); ++part) {
        if (g.partEnd(part) <= g.partStart[part]) continue;
        const double x = g.xy[2 * g.partStart[part]], y = g.xy[2 * g.partStart[part] + 1];
        int depth = 0;
        for (int other = 0; other < g.partCount(); ++other)
            if (other != part && g.partEnd(other) > g.partStart[other] && ringContains(g, other, x, y)) ++depth;
        if (depth % 2) {
            holes << part;
        } else {
            // QJsonValue: with a bare QJsonArray, clang copies the ring instead of wrapping it.
            polygons << QJsonArray{QJsonValue(ring(g, part))};
            outerPart << part;
        }
    }
    for (int hole : holes) {
        const double x = g.xy[2 * g.partStart[hole]], y = g.xy[2 * g.partStart[hole] + 1];
        for (int k = 0; k < polygons.size(); ++k)
            if (ringContains(g, outerPart[k], x, y)) {
                polygons[k].append(ring(g, hole));
                break;
            }
    }
    if (polygons.size() == 1) return {{QStringLiteral("type"), QStringLiteral("Polygon")}, {QStringLiteral("coordinates"), polygons[0]}};
    QJsonArray multi;
    for (const QJsonArray& p : polygons) multi.append(p);
    return {{QStringLiteral("type"), QStringLiteral("MultiPolygon")}, {QStringLiteral("coordinates"), multi}};
}

QJsonValue geoJsonGeometry(const Geometry& g)
{
    if (g.isEmpty() || g.partCount() == 0) return QJsonValue::Null;
    const auto typed = [](const char* type, const QJsonValue& coords) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)}, {QStringLiteral("coordinates"), coords}};
    };
    switch (g.type) {
    case Geometry::Type::Point: {
        QJsonArray points;
        for (int i = 0; i < g.pointCount(); ++i) points.append(QJsonArray{g.xy[2 * i], g.xy[2 * i + 1]});
        return points.size() == 1 ? typed("Point", points[0]) : typed("MultiPoint", points);
    }
    case Geometry::Type::Line: {
        if (g.partCount() == 1) return typed("LineString", ring(g, 0));
        QJsonArray lines;
        for (int part = 0; part < g.partCount(); ++part) lines.append(ring(g, part));
        return typed("MultiLineString", lines);
    }
    case Geometry::Type::Polygon: return polygonGeometry(g);
    case Geometry::Type::None: break;
    }
    return QJsonValue::Null;
}

}  // namespace

QByteArray featureInfoPlainText(const QList<FeatureInfoLayer>& results)
{
    QString out = QStringLiteral("GetFeatureInfo results:\n\n");
    bool any = false;
    for (const FeatureInfoLayer& r : results) {
        if (r.features.isEmpty()) continue;
        any = true;
        out += QStringLiteral("Layer '%1'\n").arg(r.layer->name);
        const auto items = shownItems(r, {QStringLiteral("wms"), QStringLiteral("ows")});
        for (const Feature& f : r.features) {
            out += QStringLiteral("  Feature %1: \n").arg(f.id);
            for (const auto& [index, name] : items)
                out += QStringLiteral("    %1 = '%2'\n").arg(name, index < f.values.size() ? f.values[index] : QString());
        }
        out += QLatin1Char('\n');
    }
    if (!any) out += QStringLiteral("  Search returned no results.\n");
    return out.toUtf8();
}

QByteArray featureInfoGml(const QList<FeatureInfoLayer>& results, const QString& srsName)
{
    QByteArray body;
    QXmlStreamWriter xml(&body);
    xml.setAutoFormatting(true);
    xml.setAutoFormattingIndent(-1);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("msGMLOutput"));
    xml.writeAttribute(QStringLiteral("xmlns:gml"), QStringLiteral("http://www.opengis.net/gml"));
    xml.writeAttribute(QStringLiteral("xmlns:xlink"), QStringLiteral("http://www.w3.org/1999/xlink"));
    xml.writeAttribute(QStringLiteral("xmlns:xsi"), QStringLiteral("http://www.w3.org/2001/XMLSchema-instance"));
    for (const FeatureInfoLayer& r : results) {
        if (r.features.isEmpty()) continue;
        const QString name = xmlElementName(r.layer->name);
        xml.writeStartElement(name + QStringLiteral("_layer"));
        // msGMLWriteQuery names the collection only when the layer has a title.
        if (auto title = wmsMetadata(r.layer->metadata, QStringLiteral("title"))) {
            const auto gmlTitle = r.layer->metadata.value(QStringLiteral("gml_title"));
            xml.writeTextElement(QStringLiteral("gml:name"), gmlTitle.value_or(*title));
        }
        const auto items = shownItems(r, {QStringLiteral("gml"), QStringLiteral("wms"), QStringLiteral("ows")});
        for (const Feature& f : r.features) {
            xml.writeStartElement(name + QStringLiteral("_feature"));
            const Rect b = f.geometry.bounds();
            xml.writeStartElement(QStringLiteral("gml:boundedBy"));
            xml.writeStartElement(QStringLiteral("gml:Box"));
            if (!srsName.isEmpty()) xml.writeAttribute(QStringLiteral("srsName"), srsName);
            xml.writeTextElement(QStringLiteral("gml:coordinates"),
                                 QString::asprintf("%.6f,%.6f %.6f,%.6f", b.minx, b.miny, b.maxx, b.maxy));
            xml.writeEndElement();
            xml.writeEndElement();
            for (const auto& [index, item] : items)
                xml.writeTextElement(xmlElementName(item), index < f.values.size() ? f.values[index] : QString());
            xml.writeEndElement();
        }
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndDocument();
    return body;
}


QByteArray featureInfoHtml(const QList<FeatureInfoLayer>& results)
{
    QString out = QStringLiteral("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"UTF-8\">\n"
                                 "<title>GetFeatureInfo results</title>\n</head>\n<body>\n");
    bool any = false;
    for (const FeatureInfoLayer& r : results) {
        if (r.features.isEmpty()) continue;
        any = true;
        const auto items = shownItems(r, {QStringLiteral("wms"), QStringLiteral("ows")});
        const QString title = wmsMetadata(r.layer->metadata, QStringLiteral("title")).value_or(r.layer->name);
        out += QStringLiteral("<table border=\"1\">\n<caption>%1</caption>\n<tr><th>id</th>").arg(markupEscape(title));
        for (const auto& item : items) out += QStringLiteral("<th>%1</th>").arg(markupEscape(item.second));
        out += QStringLiteral("</tr>\n");
        for (const Feature& f : r.features) {
            out += QStringLiteral("<tr><td>%1</td>").arg(f.id);
            for (const auto& [index, name] : items)
                out += QStringLiteral("<td>%1</td>").arg(markupEscape(index < f.values.size() ? f.values[index] : QString()));
            out += QStringLiteral("</tr>\n");
        }
        out += QStringLiteral("</table>\n");
    }
    if (!any) out += QStringLiteral("<p>Search returned no results.</p>\n");
    out += QStringLiteral("</body>\n</html>\n");
    return out.toUtf8();
}

QByteArray featureInfoGeoJson(const QList<FeatureInfoLayer>& results)
{
    QJsonArray features;
    for (const FeatureInfoLayer& r : results) {
        const auto items = shownItems(r, {QStringLiteral("wms"), QStringLiteral("ows")});
        for (const Feature& f : r.features) {
            QJsonObject properties;
            for (const auto& [index, name] : items) properties.insert(name, index < f.values.size() ? f.values[index] : QString());
            features.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("Feature")},
                                        {QStringLiteral("id"), f.id},
                                        {QStringLiteral("layer"), r.layer->name},
                                        {QStringLiteral("geometry"), geoJsonGeometry(f.geometry)},
                                        {QStringLiteral("properties"), properties}});
        }
    }
    const QJsonObject collection{{QStringLiteral("type"), QStringLiteral("FeatureCollection")}, {QStringLiteral("features"), features}};
    return QJsonDocument(collection).toJson(QJsonDocument::Compact);
}

QString xmlElementName(const QString& name)
{
    QString out = name;
    for (int i = 0; i < out.size(); ++i) {
        const QChar c = out[i];
        const bool ok = c.isLetter() || c == QLatin1Char('_') || (i > 0 && (c.isDigit() || c == QLatin1Char('-') || c == QLatin1Char('.')));
        if (!ok) out[i] = QLatin1Char('_');
    }
    return out.isEmpty() ? QStringLiteral("_") : out;
}

}  // namespace maptune
