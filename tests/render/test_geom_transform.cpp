// GEOMTRANSFORM: the shape expressions of a LAYER or STYLE (buffer,
// densify, centerline, smoothsia, ...) with MapServer's results and
// error messages, and the STYLE transforms START, END, VERTICES, BBOX and
// CENTROID as they draw.

#include "data/geom_transform/centerline_graph.h"
#include "data/geom_transform/shape_expression.h"
#include "data/geom_transform/shape_operations.h"
#include "mapfile/map_loader.h"
#include "render/map_renderer.h"
#include "render/style_geom_transform.h"

#include <QtTest>

#include "geometry_builder.h"

using namespace maptune;

namespace {

using testing::geometry;

Geometry line(const QList<double>& xy) { return geometry(Geometry::Type::Line, {xy}); }

// A 100 x 10 rectangle (counter-clockwise, closed).
Geometry longRectangle() { return geometry(Geometry::Type::Polygon, {{0, 0, 100, 0, 100, 10, 0, 10, 0, 0}}); }

Result<Geometry> apply(const QString& text, const Geometry& g, const QStringList& values = {}, double cellsize = 1)
{
    Result<ShapeExpression> e = ShapeExpression::parse(text);
    if (!e) return e.error();
    return e->evaluate(g, {&values, nullptr, cellsize, 0});
}

RenderResult render(const QByteArray& layers)
{
    const QByteArray text = "MAP NAME 'gt' SIZE 100 100 EXTENT 0 0 99 99 IMAGECOLOR 255 255 255\n"
                            "SYMBOL NAME 'dot' TYPE ELLIPSE POINTS 1 1 END FILLED TRUE END\n" + layers + "\nEND\n";
    const LoadResult loaded = parseMapText(text, QStringLiteral("gt.map"));
    if (!loaded.ok()) return {};
    return MapRenderer(loaded.map).render({});
}

QColor at(const QImage& image, int x, int y) { return QColor(image.pixel(x, y)); }

}  // namespace

class TestGeomTransform : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesMapServerGrammar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");  // empty: parses
        QTest::newRow("shape") << "([shape])" << "";
        QTest::newRow("nested") << "(smoothsia(centerline(densify([shape], 5))))" << "";
        QTest::newRow("arithmetic") << "(buffer([shape], 2*[map_cellsize] + [width]/2 - -1))" << "";
        QTest::newRow("smoothsia all args") << "(smoothsia([shape], 5, 2, 'angle'))" << "";
        QTest::newRow("difference") << "(difference(buffer([shape], 4), [shape]))" << "";
        QTest::newRow("unknown function") << "(wobble([shape]))" << "unknown word";
        QTest::newRow("logical function") << "(length([shape]))" << "not a geometry function";
        QTest::newRow("number for shape") << "(buffer(4, 4))" << "expected a shape";
        QTest::newRow("shape for number") << "(buffer([shape], [shape]))" << "[shape] is not a number";
        QTest::newRow("too many arguments") << "(centerline([shape], 3))" << "takes at most 1 argument";
        QTest::newRow("missing argument") << "(buffer([shape]))" << "unexpected ')'";
        QTest::newRow("trailing") << "([shape] [shape])" << "unexpected";
        QTest::newRow("empty") << "" << "empty expression";
        QTest::newRow("unclosed") << "(buffer([shape], 2)" << "unexpected end of expression";
        QTest::newRow("deep") << QString("(") + QString("inner(").repeated(300) + "[shape]" + QString(")").repeated(301) << "nested too deeply";
    }
    void parsesMapServerGrammar()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const Result<ShapeExpression> e = ShapeExpression::parse(text);
        if (error.isEmpty()) QVERIFY2(e, qPrintable(e.message()));
        else QVERIFY2(!e && e.message().contains(error), qPrintable(e.message()));
    }

    // Messages quote the expression without its enclosing parentheses, as mapserv does.
    void textDropsEnclosingParentheses()
    {
        QCOMPARE(ShapeExpression::parse("(centerline([shape]))")->text(), QString("centerline([shape])"));
        QCOMPARE(ShapeExpression::parse("((densify([shape],-5)))")->text(), QString("densify([shape],-5)"));
        QCOMPARE(ShapeExpression::parse("(buffer([shape],1))")->attributes(), QStringList());
        QCOMPARE(ShapeExpression::parse("(buffer([shape],[w]*[W]+[d]))")->attributes(), QStringList({"w", "W", "d"}));
    }

    void densifyAndGeneralize()
    {
        const Result<Geometry> d = apply("(densify([shape], 3))", line({0, 0, 10, 0}));
        QVERIFY(d);
        // 10 / 3: three new points, four equal segments of 2.5.
        QCOMPARE(d->xy, std::vector<double>({0, 0, 2.5, 0, 5, 0, 7.5, 0, 10, 0}));
        const Result<Geometry> bad = apply("(densify([shape], -5))", line({0, 0, 10, 0}));
        QVERIFY(!bad);
        QCOMPARE(bad.message(), QString("yyparse(): Expression parser error. Executing densify failed."));
        const Result<Geometry> g = apply("(generalize([shape], 2))", line({0, 0, 1, 0, 2.5, 0, 3, 0, 3.5, 0}));
        QVERIFY(g);
        QCOMPARE(g->xy, std::vector<double>({0, 0, 2.5, 0, 3.5, 0}));  // the last point always stays
    }

    // Sliding averaging with weights 1/2, 1, 1/2; the ends of an open line stay.
    void smoothsiaAverages()
    {
        const Result<Geometry> s = apply("(smoothsia([shape]))", line({0, 0, 10, 10, 20, 0, 30, 10}));
        QVERIFY(s);
        QCOMPARE(s->pointCount(), 4);
        QCOMPARE(s->xy[0], 0.0);
        QCOMPARE(s->xy[2], 10.0);
        QCOMPARE(s->xy[3], 5.0);  // (0*.5 + 10 + 0*.5) / 2
        QCOMPARE(s->xy[5], 5.0);
        QCOMPARE(s->xy[7], 10.0);
        // Preprocessing "all" adds a point either side of each inner vertex.
        const Result<Geometry> pre = apply("(smoothsia([shape], 3, 1, 'all'))", line({0, 0, 10, 10, 20, 0, 30, 10, 40, 0, 50, 10}));
        QVERIFY(pre);
        QVERIFY(pre->pointCount() > 6);
    }

    void innerAndOuterRings()
    {
        const Geometry withHole = geometry(Geometry::Type::Polygon, {{0, 0, 10, 0, 10, 10, 0, 10, 0, 0}, {2, 2, 4, 2, 4, 4, 2, 4, 2, 2}});
        const Result<Geometry> outer = apply("(outer([shape]))", withHole);
        const Result<Geometry> inner = apply("(inner([shape]))", withHole);
        QVERIFY(outer && inner);
        QCOMPARE(outer->partCount(), 1);
        QCOMPARE(outer->xy[2], 10.0);
        QCOMPARE(inner->partCount(), 1);
        QCOMPARE(inner->xy[0], 2.0);
        QVERIFY(!apply("(inner([shape]))", line({0, 0, 1, 1})));
    }

    void geosFunctions()
    {
        const Result<Geometry> b = apply("(buffer([shape], [w] * [map_cellsize]))", line({0, 0, 10, 0}), {"2"}, 1.5);
        QVERIFY(b);
        QCOMPARE(b->type, Geometry::Type::Polygon);
        const Rect r = b->bounds();
        QVERIFY(qAbs(r.miny + 3) < 1e-6 && qAbs(r.maxx - 13) < 1e-6);
        const Result<Geometry> s = apply("(simplify([shape], 1))", line({0, 0, 5, 0.1, 10, 0}));
        QVERIFY(s);
        QCOMPARE(s->pointCount(), 2);
        const Result<Geometry> d = apply("(difference(buffer([shape], 2), [shape]))", longRectangle());
        QVERIFY(d);
        QCOMPARE(d->type, Geometry::Type::Polygon);
        QCOMPARE(d->partCount(), 2);  // a ring round the rectangle: shell and hole
        QVERIFY(!apply("(buffer([shape], 1/0))", line({0, 0, 1, 1})));
        QCOMPARE(apply("(buffer([shape], 1/0))", line({0, 0, 1, 1})).message(), QString("yyparse(): Expression parser error. Division by zero."));
    }

    // The skeleton of a long, densified rectangle runs along its middle.
    void centerlineFollowsTheMiddle()
    {
        const Result<Geometry> c = apply("(centerline(densify([shape], 1)))", longRectangle());
        QVERIFY2(c, qPrintable(c.message()));
        QCOMPARE(c->type, Geometry::Type::Line);
        const Rect r = c->bounds();
        QVERIFY2(r.width() > 80, qPrintable(QString::number(r.width())));
        for (int i = 0; i < c->pointCount(); ++i) {
            const double x = c->xy[2 * i], y = c->xy[2 * i + 1];
            if (x > 10 && x < 90) QVERIFY2(qAbs(y - 5) < 0.01, qPrintable(QStringLiteral("%1 %2").arg(x).arg(y)));
        }
        // Four vertices leave no Voronoi edge inside: MapServer asks to densify.
        QCOMPARE(apply("(centerline([shape]))", longRectangle()).message(),
                 QString("yyparse(): Expression parser error. Executing centerline failed.\n"
                         "msGEOSCenterline(): GEOS library error. Centerline generation failed, try densifying the shapes."));
        QVERIFY(apply("(centerline([shape]))", line({0, 0, 1, 1})).message().contains("only be computed for polygon shapes"));
    }

    // Bounds that keep one feature from holding a worker: a tolerance that
    // would add millions of points, a centerline of too many vertices.
    void hostileArgumentsAreRefused()
    {
        const Result<Geometry> d = apply("(densify([shape], 1e-9))", line({0, 0, 10, 0}));
        QVERIFY(!d);
        QVERIFY2(d.message().contains("msDensify(): a tolerance of 1e-09 would add more than"), qPrintable(d.message()));
        const Result<Geometry> c = apply("(centerline(densify([shape], 0.01)))", longRectangle());
        QVERIFY(!c);
        QVERIFY2(c.message().contains("more than the 5000"), qPrintable(c.message()));
        QVERIFY(apply("(smoothsia([shape], 1e300, 1e300))", line({0, 0, 10, 10, 20, 0})));
        // A NaN width (an attribute "nan") is refused before GEOS, which would crash on it.
        for (const char* e : {"(buffer([shape], [w]))", "(simplify([shape], [w]))", "(simplifypt([shape], [w]))"})
            QCOMPARE(apply(QLatin1String(e), longRectangle(), {"nan"}).message().left(45), QString("yyparse(): Expression parser error. Executing"));
        QVERIFY(!apply("(buffer([shape], 1e308*10))", longRectangle()));
        const Geometry nanLine = line({0, 0, std::nan(""), 1, 2, 2});
        for (const char* e : {"(buffer([shape], 1))", "(difference([shape], [shape]))", "(simplifypt([shape], 1))"})
            QVERIFY2(!apply(QLatin1String(e), nanLine), e);
        QVERIFY(!apply("(centerline([shape]))", geometry(Geometry::Type::Polygon, {{0, 0, 10, 0, std::nan(""), 10, 0, 0}})));
        QVERIFY(apply("(buffer([shape], 1e300 % 7))", line({0, 0, 10, 10})));
    }

    void segmentIntersection()
    {
        QVERIFY(shapeops::segmentsIntersect(0, 0, 2, 2, 0, 2, 2, 0));
        QVERIFY(shapeops::segmentsIntersect(0, 0, 1, 0, 1, 0, 1, 5));    // touching
        QVERIFY(!shapeops::segmentsIntersect(0, 0, 1, 0, 0, 1, 1, 1));   // parallel
        QVERIFY(shapeops::segmentsIntersect(0, 0, 2, 0, 1, 0, 3, 0));    // collinear overlap
        QVERIFY(!shapeops::segmentsIntersect(0, 0, 1, 0, 2, 0, 3, 0));   // collinear apart
    }

    void styleTransformNames()
    {
        using Kind = StyleGeomTransform::Kind;
        QCOMPARE(StyleGeomTransform::parse("START")->kind, Kind::Start);
        QCOMPARE(StyleGeomTransform::parse("end")->kind, Kind::End);
        QCOMPARE(StyleGeomTransform::parse("vertices")->kind, Kind::Vertices);
        QCOMPARE(StyleGeomTransform::parse("labelpoly")->kind, Kind::LabelPoly);
        QCOMPARE(StyleGeomTransform::parse("(buffer([shape], 3))")->kind, Kind::Expression);
        QVERIFY(!StyleGeomTransform::parse("(buffer([shape]))"));
        const Result<StyleGeomTransform> bad = StyleGeomTransform::parse("sideways");
        QVERIFY(!bad && bad.message().contains("sideways"));
        QVERIFY(!StyleGeomTransform::parse("labelpnt")->drawsOwnShape());
    }

    void markerPlacesAndAngles()
    {
        using Kind = StyleGeomTransform::Kind;
        const QList<QPolygonF> parts{QPolygonF({{10, 10}, {20, 10}, {20, 20}, {500, 20}})};
        const QSize image(100, 100);
        const auto start = transformMarkers(Kind::Start, parts, image, true);
        QCOMPARE(start.size(), 1);
        QCOMPARE(start[0].at, QPointF(10, 10));
        QVERIFY(qAbs(*start[0].angle) < 1e-9);  // along +x
        QVERIFY(transformMarkers(Kind::End, parts, image, true).isEmpty());  // off the image
        const auto vertices = transformMarkers(Kind::Vertices, parts, image, false);
        QCOMPARE(vertices.size(), 2);  // inner vertices only
        QVERIFY(!vertices[0].angle);
        const auto down = transformMarkers(Kind::Vertices, {QPolygonF({{0, 0}, {0, 10}, {0, 20}})}, image, true);
        QVERIFY(qAbs(*down[0].angle + 90) < 1e-9);  // downwards on screen
        const QPolygonF box = boundingBoxRing(parts, image, 5);
        QCOMPARE(box.boundingRect(), QRectF(QPointF(10, 10), QPointF(105, 20)));
    }

    // STYLE GEOMTRANSFORM draws markers where the transform says, and only there.
    void styleTransformsDraw()
    {
        const RenderResult r = render("LAYER NAME 'l' TYPE LINE STATUS ON FEATURE POINTS 10 50 50 50 90 50 END END CLASS "
                                      "STYLE GEOMTRANSFORM 'start' SYMBOL 'dot' SIZE 7 COLOR 255 0 0 END "
                                      "STYLE GEOMTRANSFORM 'end' SYMBOL 'dot' SIZE 7 COLOR 0 0 255 END "
                                      "STYLE GEOMTRANSFORM 'vertices' SYMBOL 'dot' SIZE 7 COLOR 0 160 0 END END END");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(at(r.image, 10, 49), QColor(255, 0, 0));
        QCOMPARE(at(r.image, 90, 49), QColor(0, 0, 255));
        QCOMPARE(at(r.image, 50, 49), QColor(0, 160, 0));
        QCOMPARE(at(r.image, 30, 49), QColor(255, 255, 255));  // the line itself is not drawn
        // A STYLE expression reads its attributes by name, wherever they are among the fields.
        const RenderResult b = render("LAYER NAME 'b' TYPE LINE STATUS ON PROCESSING 'ITEMS=a,w' "
                                      "FEATURE POINTS 20 50 80 50 END ITEMS '1;8' END CLASS "
                                      "STYLE GEOMTRANSFORM (buffer([shape], [w])) COLOR 0 0 255 END END END");
        QVERIFY2(b.ok(), qPrintable(b.error));
        QVERIFY2(b.trace.layers.first().error.isEmpty(), qPrintable(b.trace.layers.first().error));
        QCOMPARE(at(b.image, 50, 44), QColor(0, 0, 255));   // 6 px off the line: inside the 8 px buffer
        QCOMPARE(at(b.image, 50, 38), QColor(255, 255, 255));  // 12 px off: outside
    }

    // A LAYER GEOMTRANSFORM changes the shape before it is drawn: a line
    // layer strokes the outline of its buffered line, not the line; a
    // failing one fails the layer with mapserv's messages.
    void layerTransformDrawsAndFails()
    {
        const RenderResult r = render("LAYER NAME 'b' TYPE LINE STATUS ON GEOMTRANSFORM (buffer([shape], 10)) "
                                      "FEATURE POINTS 30 50 70 50 END END CLASS STYLE COLOR 0 0 0 WIDTH 2 END END END");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.trace.layers.first().error.isEmpty());
        QVERIFY(qGray(r.image.pixel(50, 39)) < 128 || qGray(r.image.pixel(50, 40)) < 128);
        QVERIFY(qGray(r.image.pixel(50, 59)) < 128 || qGray(r.image.pixel(50, 60)) < 128);
        QCOMPARE(at(r.image, 50, 49), QColor(255, 255, 255));
        const RenderResult bad = render("LAYER NAME 'c' TYPE LINE STATUS ON GEOMTRANSFORM (centerline([shape])) "
                                        "FEATURE POINTS 10 50 90 50 END END CLASS STYLE COLOR 0 0 0 END END END");
        QVERIFY(!bad.trace.layers.isEmpty());
        QCOMPARE(bad.trace.layers.first().error,
                 QString("msGeomTransformShape(): Expression parser error. Failed to process shape expression: centerline([shape])\n"
                         "yyparse(): Expression parser error. Executing centerline failed.\n"
                         "msGEOSCenterline(): GEOS library error. Centerlines can only be computed for polygon shapes."));
        const RenderResult syntax = render("LAYER NAME 's' TYPE LINE STATUS ON GEOMTRANSFORM (buffer([shape])) "
                                           "FEATURE POINTS 10 50 90 50 END END CLASS STYLE COLOR 0 0 0 END END END");
        QVERIFY(syntax.trace.layers.first().error.contains("layer 's': GEOMTRANSFORM"));
    }
};

QTEST_GUILESS_MAIN(TestGeomTransform)
#include "test_geom_transform.moc"
