// CLASS LEADER: labels that do not fit tried around their point in
// MapServer's order, with a line back to the point; and LABEL EXPRESSION,
// which decides per feature whether a label is drawn at all.

#include "mapfile/map_loader.h"
#include "render/label_leader.h"
#include "render/map_renderer.h"

#include "map_text_render.h"

#include <QtTest>

using namespace maptune;

namespace {

RenderResult render(const QByteArray& text)
{
    return test::renderMapText(text, QStringLiteral("leader.map"));
}

bool reddish(QRgb c)
{
    return qRed(c) > 200 && qRed(c) - qGreen(c) > 60 && qGreen(c) == qBlue(c);
}

int inkIn(const QImage& image, const QRect& area)
{
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) n += qGray(image.pixel(x, y)) < 100;
    return n;
}

// Two labels side by side: the second one added is placed first, the other
// collides with it. (Checked against map2img: the same pixels.)
QByteArray twoLabels(const QByteArray& leader)
{
    return "MAP SIZE 200 100 EXTENT 0 0 200 100 IMAGECOLOR 255 255 255\n"
           " LAYER NAME 'p' TYPE POINT STATUS ON\n"
           "  FEATURE POINTS 114 52 END TEXT 'WWW' END\n"
           "  FEATURE POINTS 100 50 END TEXT 'MMM' END\n"
           "  CLASS " + leader + " LABEL POSITION CC COLOR 0 0 0 SIZE SMALL END END\n"
           " END\nEND\n";
}

}  // namespace

class TestLabelLeader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void offsetsInMapServersOrder()
    {
        LabelLeader l;
        l.gridStep = 10;
        l.maxDistance = 25;  // two rings: the division is cut
        const QList<QPoint> o = l.offsets();
        const QList<QPoint> ring1{{10, 10}, {-10, -10}, {10, -10}, {-10, 10}, {10, 0}, {-10, 0}, {0, -10}, {0, 10}};
        QCOMPARE(o.mid(0, 8), ring1);
        // The second ring: j runs up to i - 2 = 0, so no side steps, only
        // corners and centres (msDrawOffsettedLabels' bound).
        QCOMPARE(o.size(), 16);
        QCOMPARE(o[8], QPoint(20, 20));
        l.maxDistance = 30;
        const QList<QPoint> three = l.offsets();
        QCOMPARE(three.size(), 16 + 8 + 8);
        QCOMPARE(three[16], QPoint(30, 10));  // the third ring starts with its sides
        l.maxDistance = 5;
        QVERIFY(l.offsets().isEmpty());
    }

    void leaderBlockRead()
    {
        const LoadResult loaded = parseMapText(twoLabels("LEADER MAXDISTANCE 30 GRIDSTEP 20 STYLE COLOR 255 0 0 WIDTH 2 END END"),
                                               QStringLiteral("leader.map"));
        QVERIFY(loaded.ok());
        const std::optional<LabelLeader> l = LabelLeader::fromClass(loaded.map->layers[0].classes[0]);
        QVERIFY(l);
        QCOMPARE(l->maxDistance, 30);
        QCOMPARE(l->gridStep, 20);
        QCOMPARE(l->styles.size(), 1);
        QCOMPARE(l->styles[0].color.color, Color::rgb(255, 0, 0));
        QCOMPARE(l->styles[0].width.value, 2.0);
        // A step that is no positive number gives no leader.
        const LoadResult bad = parseMapText(twoLabels("LEADER GRIDSTEP -4 END"), QStringLiteral("leader.map"));
        QVERIFY(bad.ok());
        QVERIFY(!LabelLeader::fromClass(bad.map->layers[0].classes[0]));
    }

    void collidingLabelMovesWithALine()
    {
        const RenderResult without = render(twoLabels(""));
        QVERIFY2(without.ok(), qPrintable(without.error));
        QCOMPARE(inkIn(without.image, QRect(120, 60, 28, 16)), 0);

        const RenderResult with = render(twoLabels("LEADER MAXDISTANCE 30 GRIDSTEP 20 STYLE COLOR 255 0 0 WIDTH 1 END END"));
        QVERIFY2(with.ok(), qPrintable(with.error));
        // The first offset tried is (+20, +20): the label's centre there,
        // and a red line from the point to it.
        QVERIFY(inkIn(with.image, QRect(120, 60, 28, 16)) > 5);
        int red = 0;
        // (The point is at pixel (114, 48): map y runs up.)
        for (int k = 4; k < 10; ++k) {
            bool near = false;
            for (int dx = -1; dx <= 1; ++dx) near = near || reddish(with.image.pixel(114 + k + dx, 48 + k));
            red += near;
        }
        QVERIFY2(red >= 4, qPrintable(QString::number(red)));
        // The label that fitted is still at the point.
        QCOMPARE(inkIn(with.image, QRect(85, 44, 30, 12)), inkIn(without.image, QRect(85, 44, 30, 12)));
    }

    void labelExpressionChoosesFeatures()
    {
        const RenderResult r = render(
            "MAP SIZE 200 60 EXTENT 0 0 200 60 IMAGECOLOR 255 255 255\n"
            " LAYER NAME 'p' TYPE POINT STATUS ON\n"
            "  FEATURE ITEMS 'b' POINTS 50 30 END END\n"
            "  FEATURE ITEMS 'a' POINTS 150 30 END END\n"
            "  CLASS LABEL EXPRESSION ('[kind]' = 'a') TEXT 'WW' POSITION CC COLOR 0 0 0 SIZE SMALL END END\n"
            "  PROCESSING 'ITEMS=kind'\n"
            " END\nEND\n");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(inkIn(r.image, QRect(35, 20, 30, 20)), 0);
        QVERIFY(inkIn(r.image, QRect(135, 20, 30, 20)) > 5);
    }
};

QTEST_GUILESS_MAIN(TestLabelLeader)
#include "test_label_leader.moc"
