// STYLE PATTERN dashes: where each "on" stretch starts and ends along a line.
#include "render/dash_pattern.h"

#include <QTest>

using namespace maptune;

namespace {

double length(const QPolygonF& p)
{
    double l = 0;
    for (qsizetype i = 1; i < p.size(); ++i) l += QLineF(p[i - 1], p[i]).length();
    return l;
}

}  // namespace

class TestDashPattern : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void straightLine_data()
    {
        QTest::addColumn<QList<double>>("lengths");
        QTest::addColumn<double>("offset");
        QTest::addColumn<QList<double>>("starts");  // x of every dash start
        QTest::addColumn<QList<double>>("ends");
        QTest::newRow("4 2") << QList<double>{4, 2} << 0.0 << QList<double>{0, 6, 12} << QList<double>{4, 10, 16};
        QTest::newRow("odd count repeats the last") << QList<double>{3} << 0.0 << QList<double>{0, 6, 12} << QList<double>{3, 9, 15};
        QTest::newRow("offset 1 into the pattern") << QList<double>{4, 2} << 1.0 << QList<double>{0, 5, 11, 17}
                                                   << QList<double>{3, 9, 15, 18};
        QTest::newRow("offset into the gap") << QList<double>{4, 2} << 5.0 << QList<double>{1, 7, 13} << QList<double>{5, 11, 17};
        QTest::newRow("negative offset wraps") << QList<double>{4, 2} << -1.0 << QList<double>{1, 7, 13} << QList<double>{5, 11, 17};
    }
    void straightLine()
    {
        QFETCH(QList<double>, lengths);
        QFETCH(double, offset);
        QFETCH(QList<double>, starts);
        QFETCH(QList<double>, ends);
        const QList<QPolygonF> dashes = DashPattern(lengths, offset).apply({QPolygonF(QList<QPointF>{{0, 0}, {18, 0}})});
        QCOMPARE(dashes.size(), starts.size());
        for (qsizetype i = 0; i < dashes.size(); ++i) {
            QCOMPARE(dashes[i].first().x(), starts[i]);
            QCOMPARE(dashes[i].last().x(), ends[i]);
        }
    }

    void dashesTurnCorners()
    {
        // A dash of 4 starting 2 before a right-angle corner follows it.
        const QList<QPolygonF> dashes = DashPattern({4, 10}, 0).apply({QPolygonF(QList<QPointF>{{0, 0}, {2, 0}, {2, 5}})});
        QCOMPARE(dashes.size(), 1);
        QCOMPARE(dashes[0], QPolygonF(QList<QPointF>{{0, 0}, {2, 0}, {2, 2}}));
        QCOMPARE(length(dashes[0]), 4.0);
    }

    void restartsOnEveryPart()
    {
        const QList<QPolygonF> dashes =
            DashPattern({3, 1}, 0).apply({QPolygonF(QList<QPointF>{{0, 0}, {5, 0}}), QPolygonF(QList<QPointF>{{0, 10}, {5, 10}})});
        QCOMPARE(dashes.size(), 4);
        QCOMPARE(dashes[2].first(), QPointF(0, 10));
        QCOMPARE(dashes[2].last(), QPointF(3, 10));
    }

    void zeroLengthDashesAreDots()
    {
        // "0 4": the dotted-line idiom; each dot is a zero-length dash that round caps draw.
        const QList<QPolygonF> dashes = DashPattern({0, 4}, 0).apply({QPolygonF(QList<QPointF>{{0, 0}, {10, 0}})});
        QCOMPARE(dashes.size(), 3);
        for (const QPolygonF& d : dashes) QCOMPARE(length(d), 0.0);
        QCOMPARE(dashes[1].first(), QPointF(4, 0));
    }

    void invalidPatternKeepsTheLine()
    {
        const QList<QPolygonF> line{QPolygonF(QList<QPointF>{{0, 0}, {10, 0}})};
        QVERIFY(!DashPattern({0, 0}, 0).isValid());
        QCOMPARE(DashPattern({0, 0}, 0).apply(line), line);
    }
};

QTEST_GUILESS_MAIN(TestDashPattern)
#include "test_dash_pattern.moc"
