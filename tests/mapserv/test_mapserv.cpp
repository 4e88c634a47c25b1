// mapserv's CGI modes on a map of inline features: the query modes, their
// templates, OGR and image outputs, and the error page for what goes wrong.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"

#include <gdal.h>
#include <ogr_api.h>

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

class TestMapserv : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }
    QString text(const QString& query) const { return QString::fromUtf8(ask(query).body); }

    static QImage image(const Response& r)
    {
        QImage img;
        img.loadFromData(r.body, "PNG");
        return img;
    }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/mapserv/query.map"));
        QVERIFY2(loaded.ok(), "mapserv/query.map must load");
        m_service = std::make_unique<WmsService>(loaded.map);
    }

    // The QUERYFORMAT's TEMPLATE file, its magic first line dropped; a layer
    // without results gives its resultset's nodata text.
    void modes_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nquery by the map extent given, one layer")
            << "mode=nquery&mapext=0+0+50+50&qlayer=areas" << "Alpha:A1;\n\n";
        QTest::newRow("nquery by box, all layers; a point on the edge is in")
            << "mode=nquery&mapext=0+0+50+50&layers=all" << "Alpha:A1;\np1,p3\n";
        QTest::newRow("nquery without coordinates: the mapfile EXTENT")
            << "mode=nquery&qlayer=areas" << "Alpha:A1;Beta:&lt;b&gt;;Carbon:C3;\n\n";
        QTest::newRow("query: one feature at a point inside a polygon")
            << "mode=query&qlayer=areas&mapxy=70+20" << "Carbon:C3;\n\n";
        QTest::newRow("query: the point layer's 3-pixel tolerance")
            << "mode=query&qlayer=points&mapxy=81+81" << "none\np2\n";
        QTest::newRow("nquery by image point (imgext, imgsize, imgxy)")
            << "mode=nquery&imgext=0+0+100+100&imgsize=100+100&imgxy=20+80&qlayer=areas" << "Alpha:A1;\n\n";
        QTest::newRow("nquery by a polygon shape (mapshape)")
            << "mode=nquery&mapshape=45+45+95+45+95+95+45+95&layers=all" << "Beta:&lt;b&gt;;\np2,p3\n";
        QTest::newRow("nquery by a WKT shape")
            << "mode=nquery&mapshape=LINESTRING(20+20,70+30)&qlayer=areas" << "Alpha:A1;Carbon:C3;\n\n";
        QTest::newRow("itemnquery: a regex on QITEM")
            << "mode=itemnquery&qlayer=areas&qitem=name&qstring=/^[AB]/" << "Alpha:A1;Beta:&lt;b&gt;;\n\n";
        QTest::newRow("itemquery: the first match only")
            << "mode=itemquery&qlayer=areas&qitem=name&qstring=/^[AB]/" << "Alpha:A1;\n\n";
        QTest::newRow("indexquery: SHAPEINDEX")
            << "mode=indexquery&qlayer=areas&shapeindex=2" << "Carbon:C3;\n\n";
        QTest::newRow("featurenquery: the points inside the polygon a point selects")
            << "mode=featurequery&slayer=areas&mapxy=90+90&qlayer=points" << "Beta:&lt;b&gt;;\np2\n";
    }
    void modes()
    {
        QFETCH(QString, query);
        QFETCH(QString, expected);
        const Response r = ask(query);
        QCOMPARE(r.contentType(), QByteArray("text/plain"));
        QCOMPARE(QString::fromUtf8(r.body), expected);
    }

    // One feature's tags: escapes, case, padding, its extent and coordinates,
    // the request's own parameters (escaped as well).
    void featureTags()
    {
        const QString page = text("mode=indexquery&qlayer=areas&shapeindex=1&qformat=feature");
        QCOMPARE(page, QStringLiteral("<p>0 0 100 100 areas</p>\n\n&lt;b&gt;|<b>|%3Cb%3E|BETA    |\n"
                                      "60.0 60.0 100.0 100.0|60,60 100,60 100,100 60,100 60,60|1\n\n"));
    }

    // QUERYMAP STATUS ON: mapserv draws the query map before the template, so
    // the map has square pixels, its scale and cell size (values from mapserv 8).
    void queryMapViewInTemplates()
    {
        QCOMPARE(text("mode=nquery&qlayer=areas&mapext=0+0+50+100&qformat=view"),
                 QStringLiteral("2863.280000 1.010101 -25.000000 0.000000 75.000000 100.000000 100 100\n"));
        // ... which a map whose IMAGETYPE is a template cannot do.
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/mapserv/query.map"));
        loaded.map->imageType = QStringLiteral("tmpl");
        const Response r = WmsService(loaded.map).handle(WmsRequest::fromQueryString("mode=nquery&qlayer=areas&qformat=view"));
        QVERIFY2(r.body.contains("msPrepareImage(): Image handling error. Unable to initialize image."), r.body.constData());
    }

    void requestValuesAreEscaped()
    {
        const QString page = text("mode=indexquery&qlayer=areas&shapeindex=0&qformat=feature&junk=%3Cscript%3E");
        QVERIFY(page.contains(QLatin1String("<p>0 0 100 100 areas</p>")));
        QVERIFY(!page.contains(QLatin1String("<script>")));
    }

    // gml_types "auto": the shapefile's own field types (msSHPPassThroughFieldDefinitions),
    // so GDAL's CSV writer quotes integers with a width and not reals.
    void ogrCsvAutoTypes()
    {
        QTemporaryDir dir;
        const QByteArray shp = (dir.path() + QStringLiteral("/pts.shp")).toUtf8();
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), shp.constData(), 0, 0, 0, GDT_Unknown, nullptr);
        OGRLayerH layer = GDALDatasetCreateLayer(ds, "pts", nullptr, wkbPoint, nullptr);
        OGRFieldDefnH count = OGR_Fld_Create("COUNT", OFTInteger);
        OGR_Fld_SetWidth(count, 11);
        OGR_L_CreateField(layer, count, TRUE);
        OGR_Fld_Destroy(count);
        OGRFieldDefnH length = OGR_Fld_Create("LENGTH", OFTReal);
        OGR_Fld_SetWidth(length, 15);
        OGR_Fld_SetPrecision(length, 3);
        OGR_L_CreateField(layer, length, TRUE);
        OGR_Fld_Destroy(length);
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldInteger(f, 0, 709);
        OGR_F_SetFieldDouble(f, 1, 74599.219);
        OGRGeometryH pt = OGR_G_CreateGeometry(wkbPoint);
        OGR_G_SetPoint_2D(pt, 0, 5, 5);
        OGR_F_SetGeometryDirectly(f, pt);
        QCOMPARE(OGR_L_CreateFeature(layer, f), OGRERR_NONE);
        OGR_F_Destroy(f);
        GDALClose(ds);
        const QByteArray text = "MAP SIZE 10 10 EXTENT 0 0 10 10\n"
                                " OUTPUTFORMAT NAME 'csv' DRIVER 'OGR/CSV' MIMETYPE 'text/csv' FORMATOPTION 'STORAGE=memory'"
                                " FORMATOPTION 'FORM=simple' FORMATOPTION 'FILENAME=r.csv' END\n"
                                " LAYER NAME 'pts' TYPE POINT STATUS ON DATA '" + shp + "' TEMPLATE 'void'\n"
                                "  METADATA 'gml_include_items' 'all' 'gml_types' 'auto' END CLASS STYLE COLOR 0 0 0 END END END\nEND\n";
        LoadResult loaded = parseMapText(text, dir.path() + QStringLiteral("/auto.map"));
        QVERIFY(loaded.ok());
        const Response r = WmsService(loaded.map).handle(WmsRequest::fromQueryString("mode=nquery&qlayer=pts&qformat=csv"));
        const QString csv = QString::fromUtf8(r.body).remove(QLatin1Char('\r'));
        QVERIFY2(csv.contains(QLatin1String("\"709\",74599.219")), qPrintable(csv));
    }

    void ogrCsv()
    {
        const Response r = ask(QStringLiteral("mode=nquery&qlayer=areas&qformat=csv"));
        QCOMPARE(r.contentType(), QByteArray("text/csv"));
        // gml_include_items lists the items; values are written as they are.
        QCOMPARE(QString::fromUtf8(r.body).remove(QLatin1Char('\r')), QStringLiteral("name,code\nAlpha,A1\nBeta,<b>\nCarbon,C3\n"));
        bool attachment = false;
        for (const auto& [k, v] : r.headers) attachment |= k == "Content-Disposition" && v.contains("result.csv");
        QVERIFY(attachment);
    }

    // QUERYMAP STYLE SELECTED: only the features found are drawn.
    void queryMapShowsTheSelection()
    {
        const Response r = ask(QStringLiteral("mode=nquery&qlayer=areas&mapext=0+0+50+50&qformat=png"));
        QCOMPARE(r.contentType(), QByteArray("image/png"));
        const QImage img = image(r);
        QCOMPARE(img.size(), QSize(100, 100));
        QCOMPARE(img.pixelColor(20, 80), QColor(255, 0, 0));    // Alpha, found
        QCOMPARE(img.pixelColor(80, 20), QColor(255, 255, 255)); // Beta, not found: not drawn
        QCOMPARE(img.pixelColor(80, 80), QColor(255, 255, 255)); // Carbon, not found
    }

    void modeMap()
    {
        const QImage all = image(ask(QStringLiteral("mode=map&layers=all")));
        QCOMPARE(all.size(), QSize(100, 100));
        QCOMPARE(all.pixelColor(80, 80), QColor(255, 0, 0));  // Carbon
        QCOMPARE(all.pixelColor(80, 20), QColor(0, 0, 255));  // p2 over Beta
        const QImage sized = image(ask(QStringLiteral("mode=map&layer=points&mapsize=40+30")));
        QCOMPARE(sized.size(), QSize(40, 30));
        // Only the layer asked for is drawn: blue points, no red areas.
        bool red = false, blue = false;
        for (int y = 0; y < sized.height(); ++y)
            for (int x = 0; x < sized.width(); ++x) {
                const QColor c = sized.pixelColor(x, y);
                red |= c.red() > 200 && c.blue() < 50;
                blue |= c.blue() > 200 && c.red() < 50;
            }
        QVERIFY(!red);
        QVERIFY(blue);
    }

    // MODE=tile: a spherical-mercator tile of TILESIZE pixels.
    void modeTile()
    {
        QCOMPARE(image(ask(QStringLiteral("mode=tile&tile=0+0+0&layers=all"))).size(), QSize(256, 256));
        QCOMPARE(image(ask(QStringLiteral("mode=tile&tilemode=ve&tile=03&tilesize=128+64&layers=all"))).size(), QSize(128, 64));
    }

    // Everything that goes wrong answers mapserv's error page, naming what.
    void errors_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown mode") << "mode=bogus" << "msCGISetMode(): Web application error. Invalid mode.";
        QTest::newRow("browse without a WEB TEMPLATE") << "mode=browse&template=/etc/passwd"
                                                       << "requires a TEMPLATE in the WEB section, but none was provided.";
        QTest::newRow("mapext short") << "mode=nquery&mapext=1+2+3"
                                      << "msCGILoadForm(): Web application error. Not enough arguments for mapext.";
        QTest::newRow("nothing found") << "mode=nquery&qlayer=areas&mapext=41+41+59+59"
                                       << "msQueryByRect(): Search returned no results. No matching record(s) found.";
        QTest::newRow("query without a point") << "mode=query&qlayer=areas"
                                               << "mapserv(): Web application error. Query mode needs a point, imgxy and mapxy are not set.";
        QTest::newRow("qstring the VALIDATION refuses") << "mode=itemnquery&qlayer=areas&qitem=name&qstring=x%27;drop"
                                                        << "mapserv(): Web application error. Parameter &#39;qstring&#39; value fails to validate.";
        QTest::newRow("qstring on a layer without VALIDATION") << "mode=itemnquery&qlayer=points&qitem=name&qstring=p"
                                                               << "Parameter &#39;qstring&#39; value fails to validate.";
        QTest::newRow("item query without a layer") << "mode=itemnquery&qstring=A"
                                                    << "Query layer not set or references an invalid layer.";
        QTest::newRow("template without magic line") << "mode=nquery&qlayer=areas&qformat=nomagic"
                                                      << "Missing magic string, nomagic.tmpl doesn&#39;t look like a MapServer template.";
        QTest::newRow("template name not a template") << "mode=nquery&qlayer=areas&qformat=badname"
                                                      << "Malformed template name (query.map).";
        QTest::newRow("legacy layer TEMPLATE that is no file") << "mode=nquery&qlayer=areas&qformat=text/xml"
                                                               << "Malformed template name (void).";
        QTest::newRow("bad image type") << "mode=map&map.imagetype=bogus"
                                        << "msCGILoadForm(): Web application error. Invalid imagetype value.";
        QTest::newRow("tile beyond its zoom") << "mode=tile&tile=2+0+1"
                                              << "GMap tile coordinates are too large for supplied zoom.";
        QTest::newRow("tile with two numbers") << "mode=tile&tile=0+0"
                                               << "Invalid number of tile coordinates (should be three).";
        QTest::newRow("quadkey with a 4") << "mode=tile&tilemode=ve&tile=04"
                                          << "VE tile name should only include characters 0, 1, 2 and 3.";
        QTest::newRow("unknown tile mode") << "mode=tile&tilemode=xyz&tile=0+0+0" << "Invalid tilemode. Use one of: gmap, ve";
        QTest::newRow("index out of range") << "mode=indexquery&qlayer=areas&shapeindex=99" << "Not valid record request.";
    }
    void errors()
    {
        QFETCH(QString, query);
        QFETCH(QString, message);
        const Response r = ask(query);
        QCOMPARE(r.contentType(), QByteArray("text/html"));
        const QString page = QString::fromUtf8(r.body);
        QVERIFY2(page.startsWith(QLatin1String("<HTML>\n<HEAD><TITLE>MapServer Message</TITLE></HEAD>")), qPrintable(page));
        QVERIFY2(page.contains(message), qPrintable(page));
    }

    // Hostile values reach neither a file nor an expression engine unchecked:
    // a regex that would take forever and a path-like QFORMAT end in errors.
    void hostileValues()
    {
        QVERIFY(text("mode=nquery&qlayer=areas&qformat=../../etc/passwd").contains(QLatin1String("Malformed template name (void)")));
        QVERIFY(text("mode=itemnquery&qlayer=areas&qitem=name&qstring=(a%2B)%2B$").contains(QLatin1String("fails to validate")));
        QVERIFY(text("mode=nquery&mapshape=POLYGON((1+2,").contains(QLatin1String("WKT parse failed for mapshape.")));
    }

    // OGC requests still go to the WMS.
    void wmsUntouched()
    {
        const Response r = ask(QStringLiteral("SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.1.1"));
        QVERIFY(r.body.contains("WMT_MS_Capabilities") || r.body.contains("ServiceException"));
    }
};

QTEST_GUILESS_MAIN(TestMapserv)
#include "test_mapserv.moc"
