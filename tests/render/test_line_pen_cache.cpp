// LinePenCache hands out the pen StyleResolver::linePen would build, and a
// different one whenever anything linePen reads differs.
#include "render/line_pen_cache.h"
#include "render/style_resolver.h"

#include <QTest>

using namespace maptune;

class TestLinePenCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void givesLinePensPenForEveryKey()
    {
        StyleDef round;
        StyleDef butt = round;
        butt.lineCap = LineCap::Butt;
        StyleDef dashed = round;
        dashed.pattern = {4, 2};
        StyleDef gap = dashed;
        gap.initialGap = 3;
        StyleDef mitre = round;
        mitre.lineJoin = LineJoin::Miter;
        StyleDef mitreLimit = mitre;
        mitreLimit.lineJoinMaxSize = 5;
        const QList<const StyleDef*> styles{&round, &butt, &dashed, &gap, &mitre, &mitreLimit};
        LinePenCache cache;
        // Twice round, so that the second pass finds (or wrongly shares) entries.
        for (int pass = 0; pass < 2; ++pass)
            for (const StyleDef* s : styles)
                for (const QColor& c : {QColor(10, 20, 30), QColor(10, 20, 31)})
                    for (double width : {0.8, 4.0})
                        for (double scale : {1.0, 2.0})
                            for (bool vector : {false, true}) {
                                const QPen& got = cache.pen(c, width, *s, scale, vector);
                                QCOMPARE(got, StyleResolver::linePen(c, width, *s, scale, vector));
                            }
    }

    void aHitIsTheSamePen()
    {
        LinePenCache cache;
        StyleDef s;
        const QPen* first = &cache.pen(QColor(1, 2, 3), 3, s, 1);
        QCOMPARE(&cache.pen(QColor(1, 2, 3), 3, s, 1), first);
    }
};

QTEST_GUILESS_MAIN(TestLinePenCache)
#include "test_line_pen_cache.moc"
