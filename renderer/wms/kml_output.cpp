#include "wms/kml_output.h"

#include "wms/drawn_feature_walk.h"

#include <cpl_vsi.h>

#include <QAtomicInteger>
#include <QSet>
#include <QXmlStreamWriter>

namespace maptune {

namespace {

const QString kKmlMime = QStringLiteral("application/vnd.google-earth.kml+xml");
const QString kKmzMime = QStringLiteral("application/vnd.google-earth.kmz");

// KML colours are aabbggrr.
QString kmlColor(const Color& c)
{
    return QString::asprintf("%02x%02x%02x%02x", c.a, std::max(c.b, 0), std::max(c.g, 0), std::max(c.r, 0));
}

// The styles the placemarks use, written once each at the document's top.
struct StyleSheet {
    QList<std::pair<QString, std::function<void(QXmlStreamWriter&)>>> styles;

    QString use(const QString& id, std::function<void(QXmlStreamWriter&)> write)
    {
        for (const auto& s : std::as_const(styles))
            if (s.first == id) return id;
        styles.append({id, std::move(write)});
        return id;
    }
};

QString styleFor(StyleSheet& sheet, const LayerDef& layer, const ClassDef& cls, bool labelled)
{
    const StyleDef* style = cls.styles.isEmpty() ? nullptr : &cls.styles.first();
    if (!style && labelled && !cls.labels.isEmpty()) {
        const QString color = kmlColor(cls.labels.first().color.color);
        return sheet.use(QStringLiteral("style_label_") + color, [color](QXmlStreamWriter& xml) {
            xml.writeStartElement(QStringLiteral("LabelStyle"));
            xml.writeTextElement(QStringLiteral("color"), color);
            xml.writeEndElement();
        });
    }
    if (!style) return {};
    const QString color = kmlColor(style->color.color.isSet() ? style->color.color : style->outlineColor.color);
    const QString width = QString::asprintf("%.1f", style->width.value > 0 ? style->width.value : 1.0);
    if (layer.type == LayerType::Line)
        return sheet.use(QStringLiteral("style_line_%1_w%2").arg(color, width), [color, width](QXmlStreamWriter& xml) {
            xml.writeStartElement(QStringLiteral("LineStyle"));
            xml.writeTextElement(QStringLiteral("color"), color);
            xml.writeTextElement(QStringLiteral("width"), width);
            xml.writeEndElement();
        });
    if (layer.type == LayerType::Polygon) {
        const QString outline = kmlColor(style->outlineColor.color.isSet() ? style->outlineColor.color : style->color.color);
        const bool filled = style->color.color.isSet();
        return sheet.use(QStringLiteral("style_polygon_%1_%2_w%3").arg(filled ? color : QStringLiteral("00000000"), outline, width),
                         [color, outline, width, filled](QXmlStreamWriter& xml) {
                             xml.writeStartElement(QStringLiteral("LineStyle"));
                             xml.writeTextElement(QStringLiteral("color"), outline);
                             xml.writeTextElement(QStringLiteral("width"), width);
                             xml.writeEndElement();
                             xml.writeStartElement(QStringLiteral("PolyStyle"));
                             xml.writeTextElement(QStringLiteral("color"), filled ? color : QStringLiteral("00000000"));
                             xml.writeTextElement(QStringLiteral("fill"), filled ? QStringLiteral("1") : QStringLiteral("0"));
                             xml.writeEndElement();
                         });
    }
    return sheet.use(QStringLiteral("style_point_") + color, [color](QXmlStreamWriter& xml) {
        xml.writeStartElement(QStringLiteral("IconStyle"));
        xml.writeTextElement(QStringLiteral("color"), color);
        xml.writeEndElement();
    });
}

QString coordinates(const Geometry& g, int from, int to)
{
    QString out = QStringLiteral("\n");
    for (int i = from; i < to; ++i) out += QString::asprintf("\t%.8f,%.8f\n", g.xy[size_t(2 * i)], g.xy[size_t(2 * i + 1)]);
    return out + QLatin1Char('\t');
}

void writeGeometry(QXmlStreamWriter& xml, const Geometry& g)
{
    const bool multi = g.type != Geometry::Type::Polygon && g.partCount() > 1;
    if (multi) xml.writeStartElement(QStringLiteral("MultiGeometry"));
    if (g.type == Geometry::Type::Polygon) {
        // The first ring bounds the polygon, the others are its holes.
        xml.writeStartElement(QStringLiteral("Polygon"));
        for (int part = 0; part < g.partCount(); ++part) {
            xml.writeStartElement(part == 0 ? QStringLiteral("outerBoundaryIs") : QStringLiteral("innerBoundaryIs"));
            xml.writeStartElement(QStringLiteral("LinearRing"));
            xml.writeTextElement(QStringLiteral("coordinates"), coordinates(g, g.partStart[size_t(part)], g.partEnd(part)));
            xml.writeEndElement();
            xml.writeEndElement();
        }
        xml.writeEndElement();
    } else {
        const QString element = g.type == Geometry::Type::Line ? QStringLiteral("LineString") : QStringLiteral("Point");
        for (int part = 0; part < std::max(1, g.partCount()); ++part) {
            const int from = g.partCount() ? g.partStart[size_t(part)] : 0;
            const int to = g.partCount() ? g.partEnd(part) : g.pointCount();
            if (g.type == Geometry::Type::Point) {
                for (int i = from; i < to; ++i) {
                    xml.writeStartElement(element);
                    xml.writeTextElement(QStringLiteral("coordinates"), coordinates(g, i, i + 1));
                    xml.writeEndElement();
                }
            } else {
                xml.writeStartElement(element);
                xml.writeTextElement(QStringLiteral("coordinates"), coordinates(g, from, to));
                xml.writeEndElement();
            }
        }
    }
    if (multi) xml.writeEndElement();
}

Status writeLayer(QXmlStreamWriter& xml, StyleSheet& sheet, const PreparedMap& prepared, int index, const KmlRequest& request,
                  const Crs& wgs84)
{
    DrawnFeatureWalk walk;
    if (const Status opened = walk.open(prepared, index, {request.bbox, request.crs, request.scaleDenom, false, request.cancel}); !opened)
        return opened;
    const LayerDef& layer = walk.layer();
    std::shared_ptr<CoordinateTransform> toWgs84;
    if (walk.layerCrs() && *walk.layerCrs() != wgs84)
        if (auto made = CoordinateTransform::forThread(*walk.layerCrs(), wgs84)) toWgs84 = std::move(made).value();
    // msDrawPoint: a point off the map is not drawn, so it has no placemark.
    auto keepPointsOnMap = [&](Geometry& g) {
        std::vector<double> at = g.xy;
        if (walk.toRequest()) walk.toRequest()->transform(at.data(), at.data() + 1, int(at.size() / 2), 2);
        const Rect& b = request.bbox;
        std::vector<double> kept;
        for (size_t i = 0; i + 1 < at.size(); i += 2)
            if (at[i] >= b.minx && at[i] <= b.maxx && at[i + 1] >= b.miny && at[i + 1] <= b.maxy)
                kept.insert(kept.end(), {g.xy[i], g.xy[i + 1]});
        g.xy = std::move(kept);
        g.partStart = g.xy.empty() ? std::vector<int>{} : std::vector<int>{0};
    };

    xml.writeStartElement(QStringLiteral("Folder"));
    xml.writeTextElement(QStringLiteral("name"), layer.name);
    xml.writeTextElement(QStringLiteral("visibility"), QStringLiteral("1"));
    xml.writeTextElement(QStringLiteral("styleUrl"), QStringLiteral("#LayerFolder_check"));
    Feature f;
    int cls = -1;
    while (walk.next(f, cls)) {
        if (layer.type == LayerType::Point && request.bbox.isValid()) {
            keepPointsOnMap(f.geometry);
            if (f.geometry.isEmpty()) continue;
        }
        if (toWgs84) toWgs84->transform(f.geometry.xy.data(), f.geometry.xy.data() + 1, f.geometry.pointCount(), 2);
        QString label = f.text.isEmpty() ? walk.classifier().labelText(cls, f.values) : f.text;
        const bool labelled = !layer.classes[cls].labels.isEmpty() && !label.isEmpty();
        xml.writeStartElement(QStringLiteral("Placemark"));
        xml.writeTextElement(QStringLiteral("name"), labelled ? label : QStringLiteral("%1.%2").arg(layer.name).arg(f.id));
        if (const QString style = styleFor(sheet, layer, layer.classes[cls], labelled); !style.isEmpty())
            xml.writeTextElement(QStringLiteral("styleUrl"), QLatin1Char('#') + style);
        writeGeometry(xml, f.geometry);
        xml.writeEndElement();
    }
    xml.writeEndElement();
    return {};
}

Result<QByteArray> zipped(const QByteArray& kml)
{
    static QAtomicInteger<quint64> counter;
    const QByteArray zip = QStringLiteral("/vsimem/maptune-kmz-%1.kmz").arg(++counter).toUtf8();
    const QByteArray member = "/vsizip/" + zip + "/mapserver.kml";
    VSILFILE* f = VSIFOpenL(member.constData(), "wb");
    if (!f) return Error(QStringLiteral("cannot create the KMZ archive"));
    const bool written = VSIFWriteL(kml.constData(), 1, size_t(kml.size()), f) == size_t(kml.size());
    VSIFCloseL(f);
    vsi_l_offset length = 0;
    GByte* data = VSIGetMemFileBuffer(zip.constData(), &length, FALSE);
    QByteArray out = written && data ? QByteArray(reinterpret_cast<const char*>(data), qsizetype(length)) : QByteArray();
    VSIUnlink(zip.constData());
    if (out.isEmpty()) return Error(QStringLiteral("cannot write the KMZ archive"));
    return out;
}

}  // namespace

bool isKmlFormat(const MapDef& map, const QString& format, bool* kmz)
{
    const QString f = format.trimmed();
    bool zip = f.compare(QLatin1String("kmz"), Qt::CaseInsensitive) == 0 || f.compare(kKmzMime, Qt::CaseInsensitive) == 0;
    bool found = zip || f.compare(QLatin1String("kml"), Qt::CaseInsensitive) == 0 || f.compare(kKmlMime, Qt::CaseInsensitive) == 0;
    for (const OutputFormatDef& def : map.outputFormats) {
        const bool isKml = def.driver.compare(QLatin1String("KML"), Qt::CaseInsensitive) == 0;
        const bool isKmz = def.driver.compare(QLatin1String("KMZ"), Qt::CaseInsensitive) == 0;
        if ((isKml || isKmz) && (def.name.compare(f, Qt::CaseInsensitive) == 0 || def.mimeType.compare(f, Qt::CaseInsensitive) == 0)) {
            found = true;
            zip = isKmz;
        }
    }
    if (kmz) *kmz = zip;
    return found;
}

Result<QByteArray> writeKml(const PreparedMap& prepared, const KmlRequest& request, bool kmz)
{
    const Result<Crs> wgs84 = Crs::fromUserInput(QStringLiteral("EPSG:4326"));
    if (!wgs84) return wgs84.error();
    StyleSheet sheet;
    // The folders are written first (they decide which styles the document
    // declares) inside stand-ins for <kml><Document>, so that they come out
    // indented as libxml2 indents MapServer's, byte for byte in a KMZ.
    QByteArray folders;
    qsizetype folderStart = 0;
    {
        QXmlStreamWriter xml(&folders);
        xml.setAutoFormatting(true);
        xml.setAutoFormattingIndent(2);
        xml.writeStartElement(QStringLiteral("kml"));
        xml.writeStartElement(QStringLiteral("Document"));
        for (int index : request.layers)
            if (const Status written = writeLayer(xml, sheet, prepared, index, request, *wgs84); !written)
                return written.error().prefixed(QStringLiteral("layer '%1': ").arg(prepared.map().layers[index].name));
    }
    QByteArray body;
    QXmlStreamWriter xml(&body);
    xml.setAutoFormatting(true);
    xml.setAutoFormattingIndent(2);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("kml"));
    xml.writeAttribute(QStringLiteral("xmlns"), QStringLiteral("http://www.opengis.net/kml/2.2"));
    xml.writeStartElement(QStringLiteral("Document"));
    for (const char* type : {"check", "checkHideChildren", "checkOffOnly", "radioFolder"}) {
        xml.writeStartElement(QStringLiteral("Style"));
        xml.writeAttribute(QStringLiteral("id"), QStringLiteral("LayerFolder_") + QLatin1String(type));
        xml.writeStartElement(QStringLiteral("ListStyle"));
        xml.writeTextElement(QStringLiteral("listItemType"), QLatin1String(type));
        xml.writeEndElement();
        xml.writeEndElement();
    }
    xml.writeTextElement(QStringLiteral("name"), prepared.map().name);
    for (const auto& [id, write] : sheet.styles) {
        xml.writeStartElement(QStringLiteral("Style"));
        xml.writeAttribute(QStringLiteral("id"), id);
        write(xml);
        xml.writeEndElement();
    }
    xml.writeCharacters(QString());  // close the start tag before the raw folders
    // What follows the stand-in <Document> (whose '>' comes with the first folder).
    if (const qsizetype open = folders.indexOf("<Document>"); open >= 0) folderStart = open + qsizetype(qstrlen("<Document>"));
    if (folderStart > 0) body += QByteArrayView(folders).sliced(folderStart);
    body += "\n  </Document>\n</kml>\n";
    if (!kmz) return body;
    return zipped(body);
}

}  // namespace maptune
