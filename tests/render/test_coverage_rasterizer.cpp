// The coverage rasterizer against geometry whose pixel coverage is known
// exactly, and against Qt's own anti-aliased fill on random shapes.
#include "encode/pixel_rows.h"
#include "render/coverage_rasterizer.h"
#include "render/stroke_outline.h"
#include "render/stroke_painter.h"

#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QTest>

using namespace maptune;

namespace {

QImage blank(int w, int h)
{
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    return img;
}

void fillPolygons(QImage& img, const QList<QPolygonF>& polys, CoverageRasterizer::FillRule rule,
                  const CoverageRasterizer::GammaTable* gamma = nullptr)
{
    CoverageRasterizer r;
    r.reset(img.width(), img.height());
    for (const QPolygonF& p : polys) r.addPolygon(p.constData(), int(p.size()));
    r.fill(img, qRgba(0, 0, 0, 255), rule, gamma);
}

int alphaAt(const QImage& img, int x, int y) { return qAlpha(img.pixel(x, y)); }

double alphaSum(const QImage& img)
{
    double sum = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) sum += qAlpha(img.pixel(x, y)) / 255.0;
    return sum;
}

QPolygonF rect(double x0, double y0, double x1, double y1)
{
    return QPolygonF(QList<QPointF>{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}

}  // namespace

class TestCoverageRasterizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pixelAlignedSquareIsExact()
    {
        QImage img = blank(8, 8);
        fillPolygons(img, {rect(2, 2, 5, 5)}, CoverageRasterizer::FillRule::NonZero);
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x)
                QCOMPARE(alphaAt(img, x, y), (x >= 2 && x < 5 && y >= 2 && y < 5) ? 255 : 0);
    }

    void partialCoverageIsTheArea_data()
    {
        QTest::addColumn<double>("x0");
        QTest::addColumn<int>("expected");  // coverage of pixel (2, 2) in 1/255
        QTest::newRow("half") << 2.5 << 128;
        QTest::newRow("quarter") << 2.75 << 64;
        QTest::newRow("three quarters") << 2.25 << 191;
    }
    void partialCoverageIsTheArea()
    {
        QFETCH(double, x0);
        QFETCH(int, expected);
        QImage img = blank(6, 6);
        fillPolygons(img, {rect(x0, 1, 5, 5)}, CoverageRasterizer::FillRule::NonZero);
        // AGG's truncating blend leaves alpha up to two steps above the area.
        QVERIFY2(alphaAt(img, 2, 2) >= expected - 1 && alphaAt(img, 2, 2) <= expected + 2,
                 qPrintable(QString::number(alphaAt(img, 2, 2))));
        QCOMPARE(alphaAt(img, 3, 2), 255);
        QCOMPARE(alphaAt(img, 1, 2), 0);
    }

    void fillRules()
    {
        // Two overlapping squares wound the same way: the overlap is a hole
        // under even-odd and filled under non-zero.
        const QList<QPolygonF> squares{rect(1, 1, 5, 5), rect(3, 3, 7, 7)};
        QImage nonZero = blank(8, 8), evenOdd = blank(8, 8);
        fillPolygons(nonZero, squares, CoverageRasterizer::FillRule::NonZero);
        fillPolygons(evenOdd, squares, CoverageRasterizer::FillRule::EvenOdd);
        QCOMPARE(alphaAt(nonZero, 3, 3), 255);
        QCOMPARE(alphaAt(evenOdd, 3, 3), 0);
        QCOMPARE(alphaAt(evenOdd, 1, 1), 255);
        QCOMPARE(alphaAt(evenOdd, 6, 6), 255);
    }

    void clipsWithoutLosingTheInside()
    {
        // Far beyond every edge: the whole image is inside, nothing wraps.
        QImage img = blank(10, 7);
        fillPolygons(img, {rect(-1e6, -5e5, 3e6, 2e6)}, CoverageRasterizer::FillRule::NonZero);
        QCOMPARE(alphaSum(img), 70.0);
        // A triangle crossing the left border keeps its exact area inside.
        QImage tri = blank(10, 10);
        fillPolygons(tri, {QPolygonF(QList<QPointF>{{-10, 0}, {10, 0}, {10, 10}})}, CoverageRasterizer::FillRule::NonZero);
        // Inside the image: the region x in [0,10] under the line y = (x + 10) / 2 clipped to
        // y <= 10 is a trapezoid of area (5 + 10) / 2 * 10 = 75.
        QVERIFY2(std::abs(alphaSum(tri) - 75) < 0.5, qPrintable(QString::number(alphaSum(tri))));
    }

    void ignoresNonFiniteAndDegenerate()
    {
        QImage img = blank(4, 4);
        fillPolygons(img, {QPolygonF(QList<QPointF>{{0, 0}, {qInf(), 1}, {2, 3}}), QPolygonF(QList<QPointF>{{1, 1}, {3, 1}})},
                     CoverageRasterizer::FillRule::NonZero);
        // Only the finite edges remain; nothing may be drawn outside [0,4) and nothing crashes.
        QVERIFY(alphaSum(img) <= 16);
    }

    void gammaMakesEdgesOpaque()
    {
        const auto gamma = CoverageRasterizer::linearGamma(0.75);
        QCOMPARE(int(gamma[0]), 0);
        QCOMPARE(int(gamma[255]), 255);
        QCOMPARE(int(gamma[192]), 255);   // 192/255 >= 0.75
        QCOMPARE(int(gamma[96]), 128);    // scaled by 1/0.75
        QImage img = blank(6, 6);
        fillPolygons(img, {rect(2.2, 1, 5, 5)}, CoverageRasterizer::FillRule::NonZero, &gamma);
        QCOMPARE(alphaAt(img, 2, 2), 255);  // 80% covered
    }

    void blendsOverExistingPixels()
    {
        QImage img(4, 4, QImage::Format_ARGB32_Premultiplied);
        img.fill(qRgb(255, 255, 255));
        CoverageRasterizer r;
        r.reset(4, 4);
        const QPolygonF half = rect(1.5, 0, 4, 4);
        r.addPolygon(half.constData(), int(half.size()));
        r.fill(img, qRgb(0, 0, 0), CoverageRasterizer::FillRule::NonZero);
        QCOMPARE(img.pixel(2, 1), qRgb(0, 0, 0));
        // AGG: white x (255 - 128) >> 8, truncated: 126.
        QCOMPARE(qRed(img.pixel(1, 1)), 126);
        QCOMPARE(img.pixel(0, 1), qRgb(255, 255, 255));
    }

    void aliasedStrokesAreAllOrNothing()
    {
        // ANTIALIAS FALSE: AGG's 0.5 coverage threshold leaves no partial pixel.
        const QList<QPolygonF> line{QPolygonF{QPointF(3.3, 4.1), QPointF(40.7, 27.6), QPointF(55.2, 9.9)}};
        QImage aliased = blank(64, 32), smooth = blank(64, 32);
        const QPen pen(QColor(128, 128, 128), 5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        StrokePainter::strokeInto(PixelTarget::whole(aliased), line, pen, false, StrokePainter::aliased());
        StrokePainter::strokeInto(PixelTarget::whole(smooth), line, pen, false);
        int partialAliased = 0, partialSmooth = 0, inked = 0;
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 64; ++x) {
                const int a = alphaAt(aliased, x, y), b = alphaAt(smooth, x, y);
                partialAliased += a > 0 && a < 255;
                partialSmooth += b > 0 && b < 255;
                inked += a == 255;
                // Drawn exactly where the smooth stroke covers at least half
                // (coverage 128 blends to alpha 129 on a clear canvas, 127 to 128).
                QCOMPARE(a == 255, b >= 129);
            }
        QCOMPARE(partialAliased, 0);
        QVERIFY(partialSmooth > 20);
        QVERIFY(inked > 100);
    }

    void edgeOnAClearCanvasAsAgg()
    {
        // MapServer's AGG blend of a half-covered pixel onto transparency:
        // alpha (255 x 129) >> 8 = 128 gives colour 128 and alpha
        // 255 - (127 x 255 >> 8) = 129, which its PNG writes as red 253.
        QImage img = blank(6, 6);
        CoverageRasterizer r;
        r.reset(6, 6);
        const QPolygonF half = rect(2.5, 1, 5, 5);
        r.addPolygon(half.constData(), int(half.size()));
        r.fill(img, qRgb(255, 0, 0), CoverageRasterizer::FillRule::NonZero);
        const QRgb edge = reinterpret_cast<const QRgb*>(img.constScanLine(2))[2];
        QCOMPARE(qRed(edge), 128);
        QCOMPARE(qAlpha(edge), 129);
        QCOMPARE(int(unpremultiplyTable(Unpremultiply::DivideByAlpha)[129 * 256 + 128]), 253);
    }

    void matchesQtOnRandomStrokes()
    {
        // The same outlines filled by Qt's rasteriser: both compute exact
        // area coverage, so every pixel agrees to within rounding (and
        // AGG's truncating blend, one step more).
        QRandomGenerator rng(7);
        for (int round = 0; round < 20; ++round) {
            QList<QPolygonF> lines{QPolygonF()};
            for (int i = 0; i < 6; ++i) lines[0] << QPointF(rng.generateDouble() * 104 - 20, rng.generateDouble() * 104 - 20);
            const double width = 0.5 + rng.generateDouble() * 8.5;
            QImage ours = blank(64, 64), qt = blank(64, 64);
            CoverageRasterizer r;
            r.reset(64, 64);
            StrokeOutline::round(lines, width, true, r);
            r.fill(ours, qRgba(0, 0, 0, 255), CoverageRasterizer::FillRule::NonZero);
            QPainter p(&qt);
            p.setRenderHint(QPainter::Antialiasing);
            p.fillPath(StrokeOutline::round(lines, width, true), Qt::black);
            p.end();
            int worst = 0;
            for (int y = 0; y < 64; ++y)
                for (int x = 0; x < 64; ++x) worst = std::max(worst, std::abs(alphaAt(ours, x, y) - alphaAt(qt, x, y)));
            QVERIFY2(worst <= 5, qPrintable(QStringLiteral("round %1: worst difference %2").arg(round).arg(worst)));
        }
    }

    void bandsJoinWithoutASeam()
    {
        // Two row bands filled apart give exactly the whole-image result,
        // whatever the split row: how two threads share one canvas.
        QRandomGenerator rng(3);
        for (int round = 0; round < 10; ++round) {
            QList<QPolygonF> lines{QPolygonF()};
            for (int i = 0; i < 8; ++i) lines[0] << QPointF(rng.generateDouble() * 90 - 5, rng.generateDouble() * 70 - 5);
            const double width = 0.5 + rng.generateDouble() * 6;
            const int split = 1 + int(rng.bounded(62));
            QImage whole = blank(80, 64), banded = blank(80, 64);
            CoverageRasterizer r;
            r.reset(80, 64);
            StrokeOutline::round(lines, width, true, r);
            r.fill(whole, qRgba(20, 40, 60, 255), CoverageRasterizer::FillRule::NonZero);
            for (auto [top, bottom] : {std::pair{0, split}, std::pair{split, 64}}) {
                r.reset(80, 64, top, bottom);
                StrokeOutline::round(lines, width, true, r);
                r.fill(banded, qRgba(20, 40, 60, 255), CoverageRasterizer::FillRule::NonZero);
            }
            QCOMPARE(banded, whole);
        }
    }

    void gridAndCellListGiveTheSamePixels()
    {
        // The grid (shapes whose box fits the limit) and the sorted cell list (larger
        // ones) are two ways to the same sums: every pixel must agree, over
        // existing pixels, with both fill rules, a gamma table and shapes
        // reaching past every border.
        QRandomGenerator rng(5);
        const auto gamma = CoverageRasterizer::linearGamma(0.75);
        for (int round = 0; round < 30; ++round) {
            QList<QPolygonF> lines;
            for (int k = 0; k < 3; ++k) {
                QPolygonF line;
                for (int i = 0; i < 7; ++i) line << QPointF(rng.generateDouble() * 110 - 15, rng.generateDouble() * 90 - 15);
                lines << line;
            }
            const double width = 0.5 + rng.generateDouble() * 9;
            const auto rule = round % 2 ? CoverageRasterizer::FillRule::EvenOdd : CoverageRasterizer::FillRule::NonZero;
            const auto* table = round % 3 == 0 ? &gamma : nullptr;
            const QRgb color = qRgba(int(rng.bounded(256)), 90, 200, round % 4 ? 255 : 140);
            QImage grid(81, 61, QImage::Format_ARGB32_Premultiplied), list = grid;
            grid.fill(qRgba(200, 180, 20, 255));
            list.fill(qRgba(200, 180, 20, 255));
            CoverageRasterizer inGrid, inList(0);
            for (CoverageRasterizer* r : {&inGrid, &inList}) {
                r->reset(81, 61);
                StrokeOutline::round(lines, width, true, *r);
                r->fill(r == &inGrid ? grid : list, color, rule, table);
            }
            QCOMPARE(grid, list);
        }
    }

    void aShapeNeverFilledLeavesNothingBehind()
    {
        // The grid is summed in place: cells of shapes added and then
        // abandoned by reset() must not reach the next fill.
        CoverageRasterizer r;
        r.reset(16, 16);
        r.addPolygon(rect(1, 1, 9, 9).constData(), 4);
        r.reset(16, 16);
        QVERIFY(r.isEmpty());
        r.addPolygon(rect(10, 10, 12, 12).constData(), 4);
        QImage img = blank(16, 16);
        r.fill(img, qRgba(0, 0, 0, 255), CoverageRasterizer::FillRule::NonZero);
        QCOMPARE(alphaSum(img), 4.0);
        QVERIFY(r.isEmpty());
        // ... nor do cells of a transparent fill, which draws nothing.
        r.reset(16, 16);
        r.addPolygon(rect(1, 1, 9, 9).constData(), 4);
        r.fill(img, qRgba(0, 0, 0, 0), CoverageRasterizer::FillRule::NonZero);
        r.reset(16, 16);
        r.addPolygon(rect(0, 0, 1, 1).constData(), 4);
        r.fill(img, qRgba(0, 0, 0, 255), CoverageRasterizer::FillRule::NonZero);
        QCOMPARE(alphaSum(img), 5.0);
    }

    void hairlinesMatchQtsStroker()
    {
        // Width <= 1: butt caps and bevel joins, as Qt's stroker makes them.
        QRandomGenerator rng(11);
        for (int round = 0; round < 20; ++round) {
            QPolygonF line;
            for (int i = 0; i < 6; ++i) line << QPointF(rng.generateDouble() * 64, rng.generateDouble() * 64);
            const double width = 0.3 + rng.generateDouble() * 0.7;
            QImage ours = blank(64, 64), qt = blank(64, 64);
            CoverageRasterizer r;
            r.reset(64, 64);
            StrokeOutline::hairline({line}, width, r);
            r.fill(ours, qRgba(0, 0, 0, 255), CoverageRasterizer::FillRule::NonZero);
            QPainterPath path;
            path.addPolygon(line);
            QPen pen(Qt::black, width, Qt::SolidLine, Qt::FlatCap, Qt::BevelJoin);
            QPainterPath outline = QPainterPathStroker(pen).createStroke(path);
            outline.setFillRule(Qt::WindingFill);
            QPainter p(&qt);
            p.setRenderHint(QPainter::Antialiasing);
            p.fillPath(outline, Qt::black);
            p.end();
            double ourSum = 0, qtSum = 0;
            int worst = 0;
            for (int y = 0; y < 64; ++y)
                for (int x = 0; x < 64; ++x) {
                    ourSum += alphaAt(ours, x, y), qtSum += alphaAt(qt, x, y);
                    worst = std::max(worst, std::abs(alphaAt(ours, x, y) - alphaAt(qt, x, y)));
                }
            // Overlaps where a line crosses itself count twice in Qt's
            // stroke (its outline is one self-intersecting polygon), so
            // compare the ink overall and allow single pixels to differ.
            QVERIFY2(std::abs(ourSum - qtSum) <= 0.03 * qtSum, qPrintable(QStringLiteral("round %1: %2 vs %3").arg(round).arg(ourSum).arg(qtSum)));
            QVERIFY2(worst <= 96, qPrintable(QStringLiteral("round %1: worst difference %2").arg(round).arg(worst)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCoverageRasterizer)
#include "test_coverage_rasterizer.moc"
