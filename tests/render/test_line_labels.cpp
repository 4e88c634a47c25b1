// LABEL ANGLE FOLLOW / AUTO / AUTO2 on lines: where LineLabelPath puts the
// characters (pure geometry, hand-computed expectations from MapServer's
// rules), how LabelFootprint collides turned boxes, and rendered maps whose
// ink must lie along the line.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/label_cache.h"
#include "render/label_footprint.h"
#include "render/line_label_path.h"
#include "render/map_renderer.h"

#include "map_text_render.h"

#include <QtTest>

#include <cmath>

using namespace maptune;

namespace {

using Mode = LineLabelPath::Mode;

LineLabelPath::Params params(int characters, double advance = 10, Mode mode = Mode::Follow)
{
    LineLabelPath::Params p;
    p.mode = mode;
    p.advances = QList<double>(characters, advance);
    p.spaces = QList<bool>(characters, false);
    p.glyphHeight = 10;
    return p;
}

double distanceToLine(QPointF p, const QPolygonF& line)
{
    double best = HUGE_VAL;
    for (qsizetype i = 1; i < line.size(); ++i) {
        const QPointF a = line[i - 1], d = line[i] - a;
        const double len2 = QPointF::dotProduct(d, d);
        const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0;
        best = std::min(best, QLineF(p, a + d * t).length());
    }
    return best;
}

// Dark pixels of a rendered map (labels are black on white).
QList<QPoint> ink(const QImage& image)
{
    QList<QPoint> out;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 128) out << QPoint(x, y);
    return out;
}

// The direction of the ink's long axis, degrees counter-clockwise on screen.
double inkDirection(const QList<QPoint>& pts)
{
    double mx = 0, my = 0;
    for (const QPoint& p : pts) mx += p.x(), my += p.y();
    mx /= pts.size(), my /= pts.size();
    double sxx = 0, syy = 0, sxy = 0;
    for (const QPoint& p : pts) {
        const double dx = p.x() - mx, dy = p.y() - my;
        sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
    }
    return -0.5 * std::atan2(2 * sxy, sxx - syy) * 180 / M_PI;
}

RenderResult renderMap(const QByteArray& text)
{
    return test::renderMapText(text, QStringLiteral("line_labels.map"));
}

// A 400x300 map, one unit per pixel (pixel = (x - 0.5, 299.5 - y)); a LINE layer with one feature
// whose only class has a black 12-pixel label and no style (so all ink is text).
QByteArray lineMap(const QString& points, const QString& labelLines)
{
    return QStringLiteral(R"(MAP
  SIZE 400 300
  EXTENT 0.5 0.5 399.5 299.5
  IMAGECOLOR 255 255 255
  LAYER
    NAME "roads"
    TYPE LINE
    STATUS DEFAULT
    FEATURE POINTS %1 END END
    CLASS
      LABEL
        TYPE TRUETYPE
        SIZE 12
        COLOR 0 0 0
        TEXT "%2"
        %3
      END
    END
  END
END
)")
        .arg(points, QStringLiteral("FOLLOWING A CURVED ROAD"), labelLines)
        .toUtf8();
}

// An upper arc of a circle (map coordinates, y up): from the left, over the top, to the right.
QString arcPoints(QPolygonF* pixels)
{
    QStringList words;
    for (int deg = 160; deg >= 20; deg -= 10) {
        const double a = deg * M_PI / 180;
        const double x = 200 + 170 * std::cos(a), y = 40 + 170 * std::sin(a);
        words << QString::number(x) << QString::number(y);
        if (pixels) *pixels << QPointF(x - 0.5, 299.5 - y);
    }
    return words.join(QLatin1Char(' '));
}

}  // namespace

class TestLineLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void straightLineGivesEqualAngles_data()
    {
        QTest::addColumn<QPolygonF>("line");
        QTest::addColumn<double>("angle");
        QTest::newRow("horizontal") << QPolygonF(QList<QPointF>{{0, 100}, {100, 100}, {200, 100}}) << 0.0;
        QTest::newRow("rising") << QPolygonF(QList<QPointF>{{0, 200}, {100, 100}, {200, 0}}) << 45.0;
        QTest::newRow("falling") << QPolygonF(QList<QPointF>{{0, 0}, {100, 100}, {200, 200}}) << -45.0;
    }
    void straightLineGivesEqualAngles()
    {
        QFETCH(QPolygonF, line);
        QFETCH(double, angle);
        const LineLabelLayout layout = LineLabelPath::place({line}, params(5));
        QCOMPARE(layout.follow.size(), 1);
        QVERIFY(layout.points.isEmpty());
        const QList<PathGlyph>& glyphs = layout.follow.first();
        QCOMPARE(glyphs.size(), 5);
        for (const PathGlyph& g : glyphs) QVERIFY2(std::abs(g.angle - angle) < 1e-9, qPrintable(QString::number(g.angle)));
        // Centred on the line: the text's 50 pixels start 25 before its middle,
        // each character 10 further, every baseline half the glyph height below it.
        const double a = angle * M_PI / 180;
        const QPointF along(std::cos(a), -std::sin(a)), down(std::sin(a), std::cos(a));
        const QPointF middle = line[1];
        for (int k = 0; k < 5; ++k) {
            const QPointF expected = middle + along * (-25.0 + 10 * k) + down * 5.0;
            QVERIFY2(QLineF(glyphs[k].origin, expected).length() < 1e-9, qPrintable(QStringLiteral("character %1").arg(k)));
        }
    }

    void rightToLeftLineReadsLeftToRight_data()
    {
        QTest::addColumn<QPolygonF>("line");
        QTest::addColumn<double>("angle");
        QTest::newRow("westward") << QPolygonF(QList<QPointF>{{200, 100}, {100, 100}, {0, 100}}) << 0.0;
        QTest::newRow("westward, rising") << QPolygonF(QList<QPointF>{{200, 0}, {100, 100}, {0, 200}}) << 45.0;
    }
    void rightToLeftLineReadsLeftToRight()
    {
        QFETCH(QPolygonF, line);
        QFETCH(double, angle);
        const LineLabelLayout layout = LineLabelPath::place({line}, params(5));
        QCOMPARE(layout.follow.size(), 1);
        const QList<PathGlyph>& glyphs = layout.follow.first();
        for (qsizetype k = 0; k < glyphs.size(); ++k) {
            QVERIFY(std::abs(glyphs[k].angle - angle) < 1e-9);
            if (k > 0) QVERIFY(glyphs[k].origin.x() > glyphs[k - 1].origin.x());
        }
    }

    void autoAngles_data()
    {
        QTest::addColumn<QPointF>("a");
        QTest::addColumn<QPointF>("b");
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("angle");
        QTest::newRow("AUTO eastward") << QPointF(0, 0) << QPointF(10, 0) << int(Mode::Auto) << 0.0;
        QTest::newRow("AUTO westward is turned") << QPointF(10, 0) << QPointF(0, 0) << int(Mode::Auto) << 0.0;
        QTest::newRow("AUTO up-right") << QPointF(0, 10) << QPointF(10, 0) << int(Mode::Auto) << 45.0;
        QTest::newRow("AUTO down-left is turned") << QPointF(10, 0) << QPointF(0, 10) << int(Mode::Auto) << 45.0;
        // MapServer turns anything not running rightwards: vertical lines read upwards when drawn downwards.
        QTest::newRow("AUTO downward") << QPointF(0, 0) << QPointF(0, 10) << int(Mode::Auto) << 90.0;
        QTest::newRow("AUTO2 westward keeps direction") << QPointF(10, 0) << QPointF(0, 0) << int(Mode::Auto2) << 180.0;
        QTest::newRow("AUTO2 down-left") << QPointF(10, 0) << QPointF(0, 10) << int(Mode::Auto2) << -135.0;
    }
    void autoAngles()
    {
        QFETCH(QPointF, a);
        QFETCH(QPointF, b);
        QFETCH(int, mode);
        QFETCH(double, angle);
        QCOMPARE(LineLabelPath::segmentAngle(a, b, Mode(mode)), angle);
    }

    void autoUsesLongestSegmentsMiddle()
    {
        // Segments of 30, 100 (60 right, 80 up) and 20.
        const QPolygonF line({{0, 100}, {30, 100}, {90, 20}, {110, 20}});
        const LineLabelLayout layout = LineLabelPath::place({line}, params(3, 10, Mode::Auto));
        QVERIFY(layout.follow.isEmpty());
        QCOMPARE(layout.points.size(), 1);
        QCOMPARE(layout.points[0].point, QPointF(60, 60));
        QVERIFY(std::abs(layout.points[0].angle - std::atan2(80.0, 60.0) * 180 / M_PI) < 1e-9);
    }

    void followOnTwoPointsIsStraight()
    {
        // MapServer's FOLLOW on a single segment is AUTO's turned label.
        const LineLabelLayout layout = LineLabelPath::place({QPolygonF(QList<QPointF>{{100, 0}, {0, 100}})}, params(4));
        QVERIFY(layout.follow.isEmpty());
        QCOMPARE(layout.points.size(), 1);
        QCOMPARE(layout.points[0].point, QPointF(50, 50));
        QCOMPARE(layout.points[0].angle, 45.0);
    }

    void sharpBendRefusesPlacement_data()
    {
        QTest::addColumn<double>("maxOverlap");
        QTest::addColumn<bool>("placed");
        QTest::newRow("default 22.5") << 22.5 << false;
        QTest::newRow("MAXOVERLAPANGLE 100") << 100.0 << true;
    }
    void sharpBendRefusesPlacement()
    {
        // A right-angle corner in the middle of a line 141.4 long and text
        // 140 long: no room to move the text off the corner.
        QFETCH(double, maxOverlap);
        QFETCH(bool, placed);
        LineLabelPath::Params p = params(14);
        p.maxOverlapAngle = maxOverlap;
        const LineLabelLayout layout = LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {50, 50}, {100, 0}})}, p);
        QCOMPARE(layout.follow.size(), placed ? 1 : 0);
        QVERIFY(layout.points.isEmpty());
    }

    void bendAtTheMiddleMovesTheLabel()
    {
        // 200 east, then 200 down: text of 50 centred would straddle the corner.
        const LineLabelLayout layout = LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {200, 0}, {200, 200}})}, params(5));
        QCOMPARE(layout.follow.size(), 1);
        const QList<PathGlyph>& glyphs = layout.follow.first();
        for (const PathGlyph& g : glyphs) QCOMPARE(g.angle, glyphs.first().angle);
    }

    void retryPutsTheBendInTheNearestSpace_data()
    {
        QTest::addColumn<QPolygonF>("line");
        QTest::newRow("left to right") << QPolygonF(QList<QPointF>{{0, 0}, {200, 0}, {200, 200}});
        QTest::newRow("right to left") << QPolygonF(QList<QPointF>{{200, 200}, {200, 0}, {0, 0}});
    }
    void retryPutsTheBendInTheNearestSpace()
    {
        // "aaa bbbbbbb", 10 a character, centred on a 400 line: the corner at
        // 200 cuts the sixth character. MapServer shifts the text so that the
        // corner falls in the middle of the space (15 along), not a
        // character at a time until the corner happens to clear a character.
        QFETCH(QPolygonF, line);
        LineLabelPath::Params p = params(11);
        p.spaces[3] = true;
        const LineLabelLayout layout = LineLabelPath::place({line}, p);
        QCOMPARE(layout.follow.size(), 1);
        const QList<PathGlyph>& glyphs = layout.follow.first();
        QCOMPARE(glyphs.first().origin.x(), 160.0);
        QCOMPARE(glyphs[2].angle, 0.0);
        QCOMPARE(glyphs[4].angle, -90.0);
    }

    void blanksAreNotCheckedForTurns()
    {
        // The same corner as above, but the characters either side of it are spaces.
        LineLabelPath::Params p = params(14);
        for (int k = 5; k < 9; ++k) p.spaces[k] = true;
        QCOMPARE(LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {50, 50}, {100, 0}})}, p).follow.size(), 1);
    }

    void longTextIsNotPlaced_data()
    {
        QTest::addColumn<int>("characters");
        QTest::addColumn<bool>("force");
        QTest::addColumn<bool>("autoMinFeatureSize");
        QTest::addColumn<int>("placed");
        // The line is 100 long.
        QTest::newRow("fits") << 8 << false << false << 1;
        QTest::newRow("1.2 times: extrapolated") << 12 << false << false << 1;
        QTest::newRow("1.2 times, MINFEATURESIZE AUTO") << 12 << false << true << 0;
        QTest::newRow("1.6 times") << 16 << false << false << 0;
        QTest::newRow("1.6 times, FORCE") << 16 << true << false << 1;
    }
    void longTextIsNotPlaced()
    {
        QFETCH(int, characters);
        QFETCH(bool, force);
        QFETCH(bool, autoMinFeatureSize);
        QFETCH(int, placed);
        LineLabelPath::Params p = params(characters);
        p.force = force;
        p.autoMinFeatureSize = autoMinFeatureSize;
        const LineLabelLayout layout = LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 50}, {50, 50}, {100, 50}})}, p);
        QCOMPARE(layout.follow.size(), placed);
        if (placed) {
            // Centred: an over-long text starts before the line and carries on straight.
            QCOMPARE(layout.follow.first().first().origin.x(), 50 - characters * 5.0);
        }
    }

    void minFeatureSizeSkipsShortLines()
    {
        LineLabelPath::Params p = params(3, 10, Mode::Auto);
        p.minFeatureSize = 120;
        QVERIFY(LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {100, 0}})}, p).isEmpty());
        p.minFeatureSize = 80;
        QCOMPARE(LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {100, 0}})}, p).points.size(), 1);
    }

    void longestPartIsLabelled()
    {
        const QPolygonF shortPart({{0, 0}, {30, 0}, {60, 0}}), longPart({{0, 50}, {100, 50}, {200, 50}});
        const LineLabelLayout layout = LineLabelPath::place({shortPart, longPart}, params(3));
        QCOMPARE(layout.follow.size(), 1);
        QCOMPARE(layout.follow.first().first().origin, QPointF(85, 55));
    }

    void repeatDistanceSpreadsLabels()
    {
        // Line 1000, text 50, REPEATDISTANCE 200: 1 + (1000-50)/250 = 4 labels,
        // an even count, centred around the middle gap: starts 100, 350, 600, 850.
        LineLabelPath::Params p = params(5);
        p.repeatDistance = 200;
        const LineLabelLayout layout = LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {500, 0}, {1000, 0}})}, p);
        QCOMPARE(layout.follow.size(), 4);
        const QList<double> starts{100, 350, 600, 850};
        for (int l = 0; l < 4; ++l) QCOMPARE(layout.follow[l].first().origin.x(), starts[l]);

        // AUTO: 1000 / 300 = 3 points, outermost first, the middle last.
        p.mode = Mode::Auto;
        p.repeatDistance = 300;
        const LineLabelLayout points = LineLabelPath::place({QPolygonF(QList<QPointF>{{0, 0}, {1000, 0}})}, p);
        QCOMPARE(points.points.size(), 3);
        QVERIFY(std::abs(points.points[0].point.x() - 2500.0 / 3) < 1e-9);
        QVERIFY(std::abs(points.points[1].point.x() - 500.0 / 3) < 1e-9);
        QCOMPARE(points.points[2].point.x(), 500.0);
    }

    void repeatedLabelsAreTriedFromTheCentreOut()
    {
        // REPEATDISTANCE 120 on a 360 px line: labels at the centre and 120
        // px either side. MINDISTANCE 150 lets no two neighbours stand, and
        // MapServer's cache tries the centre first (it walks its entries
        // backwards): the centre's label stays, its neighbours go.
        const RenderResult r = renderMap(lineMap(QStringLiteral("20 150 380 150"),
                                                 QStringLiteral("ANGLE AUTO REPEATDISTANCE 120 MINDISTANCE 150")).replace("FOLLOWING A CURVED ROAD", "Ab"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> pts = ink(r.image);
        QVERIFY(!pts.isEmpty());
        for (const QPoint& p : pts) QVERIFY2(std::abs(p.x() - 200) < 40, qPrintable(QStringLiteral("ink at x = %1").arg(p.x())));
    }

    void labelsGoOnTheVisiblePartUnlessLabelNoClip_data()
    {
        QTest::addColumn<QByteArray>("processing");
        QTest::addColumn<int>("centre");
        // The line runs from x = 0 to 600 on a 400 pixel map: clipped to the
        // map (msDrawShape's rectangle, 2 pixels past the last pixel centre)
        // the label's middle is at ~200; LABEL_NO_CLIP centres it on the
        // whole line, at 300.
        QTest::newRow("clipped") << QByteArray() << 200;
        QTest::newRow("LABEL_NO_CLIP") << QByteArray("PROCESSING \"LABEL_NO_CLIP=yes\"") << 300;
    }
    void labelsGoOnTheVisiblePartUnlessLabelNoClip()
    {
        QFETCH(QByteArray, processing);
        QFETCH(int, centre);
        QByteArray map = lineMap(QStringLiteral("0.5 150 600.5 150"), QStringLiteral("ANGLE AUTO PARTIALS TRUE")).replace("FOLLOWING A CURVED ROAD", "Ab");
        map.replace("STATUS DEFAULT", "STATUS DEFAULT " + processing);
        const RenderResult r = renderMap(map);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> pts = ink(r.image);
        QVERIFY(!pts.isEmpty());
        double sum = 0;
        for (const QPoint& p : pts) sum += p.x();
        QVERIFY2(std::abs(sum / pts.size() - centre) < 6, qPrintable(QString::number(sum / pts.size())));
    }

    void clipSplitsLines()
    {
        const QList<QPolygonF> parts =
            LineLabelPath::clip({QPolygonF(QList<QPointF>{{-50, 10}, {50, 10}, {50, 200}, {80, 200}, {80, 50}})}, QRectF(0, 0, 100, 100));
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts[0], QPolygonF(QList<QPointF>{{0, 10}, {50, 10}, {50, 100}}));
        QCOMPARE(parts[1], QPolygonF(QList<QPointF>{{80, 100}, {80, 50}}));
    }

    void footprintsCollideByShape()
    {
        // Two thin boxes along parallel diagonals: their bounding rectangles
        // overlap, the boxes themselves do not.
        auto diagonal = [](double shift) {
            return QPolygonF(QList<QPointF>{{0 + shift, 100}, {100 + shift, 0}, {104 + shift, 4}, {4 + shift, 104}});
        };
        LabelFootprint a, b, c;
        a.add(diagonal(0));
        b.add(diagonal(20));
        c.add(diagonal(2));
        QVERIFY(a.bounds().intersects(b.bounds()));
        QVERIFY(!a.intersects(b));
        QVERIFY(a.intersects(c));
        QVERIFY(c.intersects(a));
    }

    void cacheRefusesCollidingFollowLabels()
    {
        // Two labels on the same curved line: the second collides, unless FORCE.
        QPolygonF arc;
        arcPoints(&arc);
        for (const bool force : {false, true}) {
            LabelCache cache;
            for (int i = 0; i < 2; ++i) {
                LabelCandidate c;
                c.text = QStringLiteral("ALONG THE ARC");
                c.glyphSize = 12;
                c.style.angleMode = QStringLiteral("FOLLOW");
                c.style.force = force;
                c.line = {arc};
                cache.add(c);
            }
            QImage canvas(400, 300, QImage::Format_ARGB32_Premultiplied);
            canvas.fill(Qt::white);
            QCOMPARE(cache.draw(canvas, MapDef{}), force ? 2 : 1);
        }
    }

    void followLabelInkLiesAlongTheCurve()
    {
        QPolygonF arc;
        const RenderResult r = renderMap(lineMap(arcPoints(&arc), QStringLiteral("ANGLE FOLLOW")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> dark = ink(r.image);
        QVERIFY2(dark.size() > 200, qPrintable(QString::number(dark.size())));
        // Every inked pixel is within the text's size of the arc.
        for (const QPoint& p : dark) QVERIFY2(distanceToLine(p, arc) < 12, qPrintable(QStringLiteral("%1,%2").arg(p.x()).arg(p.y())));
        // The text bends: its ends are lower on screen than its middle, by
        // about what the arc drops over the text's span.
        int minX = 400, maxX = 0;
        for (const QPoint& p : dark) minX = std::min(minX, p.x()), maxX = std::max(maxX, p.x());
        auto meanY = [&](int from, int to) {
            double sum = 0;
            int n = 0;
            for (const QPoint& p : dark)
                if (p.x() >= from && p.x() < to) sum += p.y(), ++n;
            return n ? sum / n : 0;
        };
        const int sixth = (maxX - minX) / 6;
        const double left = meanY(minX, minX + sixth), middle = meanY(200 - sixth / 2, 200 + sixth / 2),
                     right = meanY(maxX - sixth, maxX + 1);
        QVERIFY2(left - middle > 10 && right - middle > 10,
                 qPrintable(QStringLiteral("left %1 middle %2 right %3").arg(left).arg(middle).arg(right)));
    }

    void straightLabelOnTheSameCurveStaysLevel()
    {
        // Without ANGLE the label is level: no bend across the text.
        const RenderResult r = renderMap(lineMap(arcPoints(nullptr), QString()));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> dark = ink(r.image);
        QVERIFY(dark.size() > 100);
        QVERIFY2(std::abs(inkDirection(dark)) < 3, qPrintable(QString::number(inkDirection(dark))));
    }

    void autoTurnsLabelToTheLine_data()
    {
        QTest::addColumn<QString>("points");
        QTest::addColumn<QString>("angle");
        QTest::addColumn<double>("direction");
        QTest::newRow("AUTO, rising") << "50 50 350 250" << "AUTO" << 33.69;
        QTest::newRow("AUTO, drawn westward") << "350 250 50 50" << "AUTO" << 33.69;
        QTest::newRow("AUTO, falling") << "50 250 350 50" << "AUTO" << -33.69;
        QTest::newRow("no ANGLE") << "50 50 350 250" << "" << 0.0;
    }
    void autoTurnsLabelToTheLine()
    {
        QFETCH(QString, points);
        QFETCH(QString, angle);
        QFETCH(double, direction);
        const RenderResult r = renderMap(lineMap(points, angle.isEmpty() ? QString() : QStringLiteral("ANGLE ") + angle));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> dark = ink(r.image);
        QVERIFY(dark.size() > 100);
        const double measured = inkDirection(dark);
        QVERIFY2(std::abs(measured - direction) < 4, qPrintable(QString::number(measured)));
        // Centred on the segment's middle (200, 150).
        QPointF centre;
        for (const QPoint& p : dark) centre += p;
        centre /= dark.size();
        QVERIFY2(QLineF(centre, QPointF(200, 150)).length() < 8, qPrintable(QStringLiteral("%1,%2").arg(centre.x()).arg(centre.y())));
    }

    void labelCacheOffStartsTheTextAtTheLabelPoint()
    {
        // Drawn at once, a line's label has its baseline start on the
        // label point (msDrawTextSymbol), not its centre; still turned by AUTO.
        QByteArray map = lineMap(QStringLiteral("50 50 350 250"), QStringLiteral("ANGLE AUTO"));
        map.replace("STATUS DEFAULT", "STATUS DEFAULT\n    LABELCACHE OFF");
        const RenderResult r = renderMap(map);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QList<QPoint> dark = ink(r.image);
        QVERIFY(dark.size() > 100);
        QVERIFY2(std::abs(inkDirection(dark) - 33.69) < 4, qPrintable(QString::number(inkDirection(dark))));
        int left = 400;
        QPointF centre;
        for (const QPoint& p : dark) left = std::min(left, p.x()), centre += p;
        centre /= dark.size();
        QVERIFY2(left >= 190 && left <= 204, qPrintable(QString::number(left)));
        QVERIFY2(centre.x() > 250 && centre.y() < 120, qPrintable(QStringLiteral("%1,%2").arg(centre.x()).arg(centre.y())));
    }

    void eachLabelOfALineIsPlacedOnItsOwn()
    {
        // Two LABELs on a line: repeated red arrows, then the black name.
        // MapServer adds each on its own (the name, added last, is placed
        // first); placed as one group, the arrows would crowd the name out.
        const QByteArray map = R"(MAP
  SIZE 400 100
  EXTENT 0.5 0.5 399.5 99.5
  IMAGECOLOR 255 255 255
  LAYER
    NAME "roads" TYPE LINE STATUS DEFAULT
    FEATURE POINTS 0 50 400 50 END TEXT "Main Street" END
    CLASS
      LABEL TEXT ">" TYPE TRUETYPE SIZE 12 COLOR 255 0 0 REPEATDISTANCE 10 ANGLE AUTO2 END
      LABEL TYPE TRUETYPE SIZE 12 COLOR 0 0 0 ANGLE AUTO END
    END
  END
END
)";
        const RenderResult r = renderMap(map);
        QVERIFY2(r.ok(), qPrintable(r.error));
        int black = 0, red = 0;
        for (int y = 0; y < r.image.height(); ++y)
            for (int x = 0; x < r.image.width(); ++x) {
                const QRgb c = r.image.pixel(x, y);
                if (qRed(c) < 60 && qGreen(c) < 60 && qBlue(c) < 60) ++black;
                else if (qRed(c) > 200 && qGreen(c) < 60) ++red;
            }
        QVERIFY2(black > 100, qPrintable(QString::number(black)));  // the name is there
        QVERIFY2(red > 50, qPrintable(QString::number(red)));       // and arrows around it
    }
};

QTEST_MAIN(TestLineLabels)
#include "test_line_labels.moc"
