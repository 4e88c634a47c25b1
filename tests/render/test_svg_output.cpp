// Maps and legends drawn as SVG (the built-in "svg", CAIRO/SVG): shapes stay
// paths with their colours, text is glyph outlines, raster layers are one
// embedded image, layer OPACITY fades the shapes; the document draws what
// the PNG of the same map shows; WMS and mapserv answer image/svg+xml.

#include "mapfile/map_loader.h"
#include "render/cairo_arc.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "wms/wms_service.h"

#include "image_difference.h"

#include <QGuiApplication>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <gdal.h>

using namespace maptune;

namespace {

const QByteArray kVectorMap =
    "MAP SIZE 200 100 EXTENT 0 0 200 100 IMAGECOLOR 255 255 255\n"
    " SYMBOL NAME 'circle' TYPE ELLIPSE POINTS 1 1 END FILLED TRUE END\n"
    " LAYER NAME 'land' TYPE POLYGON STATUS ON\n"
    "  FEATURE POINTS 10 10 90 10 90 90 10 90 10 10 END END\n"
    "  CLASS STYLE COLOR 0 160 0 OUTLINECOLOR 0 0 0 END END\n"
    " END\n"
    " LAYER NAME 'road' TYPE LINE STATUS ON\n"
    "  FEATURE POINTS 100 50 190 50 END END\n"
    "  CLASS STYLE COLOR 0 0 255 WIDTH 3 PATTERN 4 2 END LINECAP BUTT END END\n"
    " END\n"
    " LAYER NAME 'town' TYPE POINT STATUS ON\n"
    "  FEATURE POINTS 150 20 END TEXT 'Ab' END\n"
    "  CLASS STYLE SYMBOL 'circle' SIZE 10 COLOR 255 0 0 END\n"
    "   LABEL COLOR 0 0 0 SIZE MEDIUM POSITION UC END END\n"
    " END\n"
    "END\n";

RenderResult render(const QByteArray& text, const QString& format, const QString& name = QStringLiteral("svg.map"))
{
    const LoadResult loaded = parseMapText(text, name);
    if (!loaded.ok()) return {};
    RenderRequest request;
    request.format = format;
    return MapRenderer(loaded.map).render(request);
}

struct Element {
    QString name;
    QXmlStreamAttributes attributes;
};

// The document's elements in order; empty when it is not well-formed XML.
QList<Element> elements(const QByteArray& svg)
{
    QList<Element> out;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement) out << Element{xml.name().toString(), xml.attributes()};
    if (xml.hasError()) return {};
    return out;
}

QList<Element> pathsWith(const QList<Element>& all, const QString& styleFragment)
{
    QList<Element> out;
    for (const Element& e : all)
        if (e.name == QLatin1String("path") && e.attributes.value(QStringLiteral("style")).contains(styleFragment)) out << e;
    return out;
}

QImage rasterised(const QByteArray& svg, QSize size)
{
    QSvgRenderer renderer(svg);
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    renderer.render(&p);
    return image;
}

}  // namespace

class TestSvgOutput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void shapesStayPaths()
    {
        const RenderResult r = render(kVectorMap, QStringLiteral("svg"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.mimeType, QStringLiteral("image/svg+xml"));
        const QList<Element> all = elements(r.bytes);
        QVERIFY(!all.isEmpty());
        QCOMPARE(all.first().name, QStringLiteral("svg"));
        QCOMPARE(all.first().attributes.value(QStringLiteral("viewBox")).toString(), QStringLiteral("0 0 200 100"));
        QCOMPARE(all.first().attributes.value(QStringLiteral("width")).toString(), QStringLiteral("200pt"));
        QCOMPARE(all[2].name, QStringLiteral("rect"));  // the IMAGECOLOR background

        // The polygon: filled, closed, on the half-pixel grid MapServer gives it.
        const QList<Element> land = pathsWith(all, QStringLiteral("fill:rgb(0%,62.745098%,0%)"));
        QCOMPARE(land.size(), 1);
        QVERIFY(land[0].attributes.value(QStringLiteral("d")).contains(QStringLiteral(" Z M ")));
        QCOMPARE(pathsWith(all, QStringLiteral("stroke:rgb(0%,0%,0%)")).size(), 1);  // its outline
        // The line: stroked with its width, caps and PATTERN.
        const QList<Element> road = pathsWith(all, QStringLiteral("stroke:rgb(0%,0%,100%)"));
        QCOMPARE(road.size(), 1);
        const QString roadStyle = road[0].attributes.value(QStringLiteral("style")).toString();
        QVERIFY2(roadStyle.contains(QStringLiteral("stroke-width:3;stroke-linecap:butt;")), qPrintable(roadStyle));
        QVERIFY2(roadStyle.contains(QStringLiteral("stroke-dasharray:4,2;")), qPrintable(roadStyle));  // pixels, as MapServer reads PATTERN
        // The marker: cairo's circle, two curves (radius 5).
        const QList<Element> town = pathsWith(all, QStringLiteral("fill:rgb(100%,0%,0%)"));
        QCOMPARE(town.size(), 1);
        QCOMPARE(town[0].attributes.value(QStringLiteral("d")).count(QLatin1Char('C')), 2);
        // The label: black glyph outlines made of curves.
        const QList<Element> text = pathsWith(all, QStringLiteral(" stroke:none;fill-rule:evenodd;fill:rgb(0%,0%,0%)"));
        QCOMPARE(text.size(), 1);
        QVERIFY(text[0].attributes.value(QStringLiteral("d")).count(QLatin1Char('C')) > 4);
        QVERIFY(!r.bytes.contains("<image"));
    }

    void drawsWhatThePngShows()
    {
        const RenderResult svg = render(kVectorMap, QStringLiteral("image/svg+xml"));
        const RenderResult png = render(kVectorMap, QStringLiteral("png"));
        QVERIFY(svg.error.isEmpty() && png.error.isEmpty());
        const QImage drawn = rasterised(svg.bytes, png.image.size());
        // Antialiasing differs along edges; the shapes, colours and text agree.
        QVERIFY2(test::differingPixels(drawn, png.image.convertToFormat(QImage::Format_RGB32), 64) < 0.01,
                 "the SVG draws a different map than the PNG");
    }

    void layerOpacityFadesShapes()
    {
        QByteArray text = kVectorMap;
        text.replace("LAYER NAME 'land' TYPE POLYGON STATUS ON\n", "LAYER NAME 'land' TYPE POLYGON STATUS ON OPACITY 40\n");
        const RenderResult r = render(text, QStringLiteral("svg"));
        const QList<Element> land = pathsWith(elements(r.bytes), QStringLiteral("fill:rgb(0%,62.745098%,0%)"));
        QCOMPARE(land.size(), 1);
        const QString style = land[0].attributes.value(QStringLiteral("style")).toString();
        QVERIFY2(style.contains(QStringLiteral("fill-opacity:0.4")), qPrintable(style));
    }

    void rasterLayersAreImages()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("grey.tif"));
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 10, 5, 1, GDT_Byte, nullptr);
        QVERIFY(ds);
        double gt[6] = {0, 20, 0, 100, 0, -20};
        GDALSetGeoTransform(ds, gt);
        std::vector<unsigned char> values(50, 90);
        QCOMPARE(GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, 10, 5, values.data(), 10, 5, GDT_Byte, 0, 0), CE_None);
        GDALClose(ds);
        const QByteArray text = "MAP SIZE 200 100 EXTENT 0 0 200 100\n"
                                " LAYER NAME 'grey' TYPE RASTER STATUS ON DATA 'grey.tif' END\n"
                                " LAYER NAME 'road' TYPE LINE STATUS ON FEATURE POINTS 0 50 200 50 END END\n"
                                "  CLASS STYLE COLOR 255 0 0 WIDTH 2 END END END\n"
                                "END\n";
        const RenderResult r = render(text, QStringLiteral("svg"), dir.filePath(QStringLiteral("r.map")));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QList<Element> all = elements(r.bytes);
        qsizetype image = -1, road = -1;
        for (qsizetype i = 0; i < all.size(); ++i) {
            if (all[i].name == QLatin1String("image")) image = i;
            if (all[i].name == QLatin1String("path")) road = i;
        }
        QVERIFY(image > 0 && road > image);  // drawn in layer order
        const QString href = all[image].attributes.value(QStringLiteral("http://www.w3.org/1999/xlink"), QStringLiteral("href")).toString();
        QVERIFY(href.startsWith(QStringLiteral("data:image/png;base64,")));
        const QImage decoded = QImage::fromData(QByteArray::fromBase64(href.mid(22).toLatin1()), "PNG");
        QCOMPARE(decoded.size(), QSize(200, 100));
        QCOMPARE(qGray(decoded.pixel(20, 20)), 90);
    }

    void wmsAndMapservAnswerSvg()
    {
        const LoadResult loaded = parseMapText(kVectorMap + QByteArray(), QStringLiteral("svg.map"));
        QVERIFY(loaded.ok());
        QByteArray withLegend = kVectorMap;
        withLegend.replace("CLASS STYLE COLOR 0 160 0", "CLASS NAME 'Land' STYLE COLOR 0 160 0");
        withLegend.replace("MAP SIZE", "MAP PROJECTION 'init=epsg:3857' END WEB METADATA 'wms_enable_request' '*' 'wms_srs' 'EPSG:3857' END END SIZE");
        const LoadResult map = parseMapText(withLegend, QStringLiteral("svg.map"));
        QVERIFY(map.ok());
        const WmsService service(PreparedMap::prepare(map.map));
        const Response getMap = service.handle(WmsRequest::fromQueryString(
            "SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=land,road&STYLES=&CRS=EPSG:3857&BBOX=0,0,200,100"
            "&WIDTH=200&HEIGHT=100&FORMAT=image/svg%2Bxml"));
        QCOMPARE(getMap.contentType(), QByteArray("image/svg+xml"));
        QCOMPARE(pathsWith(elements(getMap.body), QStringLiteral("fill:rgb(0%,62.745098%,0%)")).size(), 1);

        const Response legend = service.handle(WmsRequest::fromQueryString("mode=legend&map.imagetype=svg"));
        QCOMPARE(legend.contentType(), QByteArray("image/svg+xml"));
        const QList<Element> keys = elements(legend.body);
        QVERIFY2(!keys.isEmpty(), legend.body.left(300).constData());
        // The key box on the pixel centres, and the class name as glyph outlines.
        const QList<Element> box = pathsWith(keys, QStringLiteral("fill:rgb(0%,62.745098%,0%)"));
        QCOMPARE(box.size(), 1);
        QVERIFY2(box[0].attributes.value(QStringLiteral("d")).startsWith(QStringLiteral("M 5.5 5.5 L ")),
                 qPrintable(box[0].attributes.value(QStringLiteral("d")).toString()));
        QVERIFY(!pathsWith(keys, QStringLiteral(" stroke:none;fill-rule:evenodd;fill:rgb(0%,0%,0%)")).isEmpty());
    }

    void embeddedLegendAndScalebarAreShapes()
    {
        QByteArray text = kVectorMap;
        text.replace("CLASS STYLE COLOR 0 160 0", "CLASS NAME 'Land' STYLE COLOR 0 160 0");
        text.replace("MAP SIZE 200 100", "MAP SIZE 300 200 UNITS METERS\n LEGEND STATUS EMBED POSITION UR END\n"
                                         " SCALEBAR STATUS EMBED POSITION LL SIZE 120 3 INTERVALS 2 UNITS METERS END\n");
        const RenderResult svg = render(text, QStringLiteral("svg"));
        const RenderResult png = render(text, QStringLiteral("png"));
        QVERIFY2(svg.error.isEmpty() && png.error.isEmpty(), qPrintable(svg.error + png.error));
        QVERIFY2(!svg.bytes.contains("<image"), "no part of the map is an embedded picture");
        // The legend's key box, moved into the upper right corner.
        const QList<Element> all = elements(svg.bytes);
        bool keyInCorner = false;
        for (const Element& e : pathsWith(all, QStringLiteral("fill:rgb(0%,62.745098%,0%)"))) {
            const QStringList d = e.attributes.value(QStringLiteral("d")).toString().split(QLatin1Char(' '));
            keyInCorner |= d.size() > 2 && d[1].toDouble() > 200 && d[2].toDouble() < 40;
        }
        QVERIFY(keyInCorner);
        const QImage drawn = rasterised(svg.bytes, png.image.size());
        QVERIFY2(test::differingPixels(drawn, png.image.convertToFormat(QImage::Format_RGB32), 64) < 0.01,
                 "the SVG's legend and scale bar differ from the PNG's");
    }

    void arcSegmentsAsCairoCountsThem()
    {
        QCOMPARE(CairoArc::segmentsNeeded(M_PI, 2.5), 1);
        QCOMPARE(CairoArc::segmentsNeeded(M_PI, 5), 1);
        QCOMPARE(CairoArc::segmentsNeeded(M_PI, 6), 2);
        QCOMPARE(CairoArc::segmentsNeeded(M_PI, 100), 2);
        QCOMPARE(CairoArc::segmentsNeeded(M_PI, 1000), 3);
        const QPainterPath circle = CairoArc::ellipse(2.5, 2.5);
        QCOMPARE(circle.elementCount(), 7);  // a move and two curves
        const QPointF control = circle.elementAt(1);
        QCOMPARE(control.x(), 2.5);
        QVERIFY(qAbs(control.y() - 2.5 * 4.0 / 3.0) < 1e-12);  // h = 4/3 tan(pi/4)
        QCOMPARE(QPointF(circle.elementAt(6)), QPointF(2.5, 0));
    }
};

QTEST_MAIN(TestSvgOutput)
#include "test_svg_output.moc"
