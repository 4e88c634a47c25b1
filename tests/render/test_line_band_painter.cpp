// LineBandPainter: the first pass drawn while the features are still being
// read (by the reader itself while its database has not sent the next row,
// or by a helper that follows the reader) and the bands drawn after give the
// pixels of one thread drawing every pass after the last feature.
#include "render/line_band_painter.h"
#include "render_test_maps.h"

#include <QTest>

using namespace maptune;
using namespace maptune::rendertest;

namespace {

constexpr int Size = 200;
const QRgb Casing = qRgb(90, 30, 30), Fill = qRgb(250, 200, 120);

// 300 short crossing lines of two to four points, the same every run.
QList<DrawItem> crossingLines()
{
    QList<DrawItem> items;
    unsigned seed = 7;
    auto next = [&seed](double span) {
        seed = seed * 1103515245u + 12345u;
        return double((seed >> 8) % 1000) / 1000.0 * span;
    };
    for (int i = 0; i < 300; ++i) {
        DrawItem item;
        item.cls = 0;
        item.type = Geometry::Type::Line;
        QPolygonF line;
        QPointF at(next(220) - 10, next(220) - 10);  // some leave the image
        for (int k = 0, n = 2 + i % 3; k < n; ++k, at += QPointF(next(40) - 20, next(40) - 20)) line << at;
        item.top = HUGE_VAL, item.bottom = -HUGE_VAL;
        for (const QPointF& p : line) item.top = std::min(item.top, p.y()), item.bottom = std::max(item.bottom, p.y());
        item.parts << line;
        items << item;
    }
    return items;
}

struct Scene {
    MapDef map;
    LayerDef layer = lineLayer({}, {lineStyle(Color::rgb(90, 30, 30), 6), lineStyle(Color::rgb(250, 200, 120), 2)});
    MapView view;
    Scene()
    {
        view.width = view.height = Size;
        view.extent = {0, 0, Size, Size};
    }
};

QImage blankCanvas()
{
    QImage canvas(Size, Size, QImage::Format_ARGB32_Premultiplied);
    canvas.fill(Qt::white);
    return canvas;
}

int pixelsOf(const QImage& image, QRgb color)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) == color;
    return n;
}

struct Drawn {
    QImage image;
    int workingCalls = 0;  // drawWhileWaiting calls that drew
    int casingBeforeFinish = 0, fillBeforeFinish = 0;
};

// Pushes the items in chunks of `chunk`; after each, the reader "waits" and
// draws while drawWhileWaiting has work (unless `drawWhileWaiting` is false).
Drawn draw(LineBandPainter::Helper helper, bool drawWhileWaiting, int chunk = 37)
{
    const Scene scene;
    const StyleResolver resolver(scene.map, scene.layer, scene.view, {});
    const QList<DrawItem> lines = crossingLines();
    Drawn out;
    out.image = blankCanvas();
    DrawItemQueue items;
    LineBandPainter painter(out.image, scene.layer, resolver, 1, items, CancelToken(), helper);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        DrawItem copy = lines[i];
        items.push(std::move(copy));
        if ((i + 1) % chunk != 0 || !drawWhileWaiting) continue;
        while (painter.drawWhileWaiting()) ++out.workingCalls;
    }
    if (helper == LineBandPainter::Helper::None) {
        out.casingBeforeFinish = pixelsOf(out.image, Casing);
        out.fillBeforeFinish = pixelsOf(out.image, Fill);
    }
    painter.finish();
    return out;
}

}  // namespace

Q_DECLARE_METATYPE(maptune::LineBandPainter::Helper)

class TestLineBandPainter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readerDrawsTheFirstPassWhileWaiting()
    {
        const Drawn d = draw(LineBandPainter::Helper::None, true);
        // 300 features in batches of at most four, each chunk of 37 drawn before the next.
        QVERIFY(d.workingCalls >= 300 / 4);
        QVERIFY(d.casingBeforeFinish > 1000);
        QCOMPARE(d.fillBeforeFinish, 0);  // the second pass waits for the last feature
        QVERIFY(pixelsOf(d.image, Fill) > 1000);
    }

    void everyWayGivesOneThreadsPixels_data()
    {
        QTest::addColumn<LineBandPainter::Helper>("helper");
        QTest::addColumn<bool>("whileWaiting");
        QTest::addColumn<bool>("readerDraws");
        using H = LineBandPainter::Helper;
        QTest::newRow("one thread, reader draws while waiting") << H::None << true << true;
        QTest::newRow("helper after the reader, reader draws while waiting") << H::AfterReader << true << true;
        QTest::newRow("helper after the reader alone") << H::AfterReader << false << false;
        QTest::newRow("helper follows the reader") << H::FollowsReader << true << false;
    }

    void everyWayGivesOneThreadsPixels()
    {
        QFETCH(LineBandPainter::Helper, helper);
        QFETCH(bool, whileWaiting);
        QFETCH(bool, readerDraws);
        const QImage reference = draw(LineBandPainter::Helper::None, false).image;
        QVERIFY(pixelsOf(reference, Casing) > 1000 && pixelsOf(reference, Fill) > 1000);
        const Drawn d = draw(helper, whileWaiting);
        QCOMPARE(d.workingCalls > 0, readerDraws);
        QCOMPARE(d.image, reference);
    }

    void itemsPushedWhileDrawingAreDrawnInOrder()
    {
        // A chunk of one: every feature drawn whole right after it is pushed.
        const QImage reference = draw(LineBandPainter::Helper::None, false).image;
        const Drawn d = draw(LineBandPainter::Helper::None, true, 1);
        QCOMPARE(d.workingCalls, 300);
        QCOMPARE(d.image, reference);
    }
};

QTEST_MAIN(TestLineBandPainter)
#include "test_line_band_painter.moc"
