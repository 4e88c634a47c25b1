// DrawItemQueue hands items to consumers on other threads as they are
// pushed, and tells a consumer that only wants the end when the producer closes.
#include "render/draw_item.h"

#include <QTest>

#include <atomic>
#include <thread>

using namespace maptune;

namespace {

DrawItem itemOfClass(int cls)
{
    DrawItem item;
    item.cls = cls;
    return item;
}

}  // namespace

class TestDrawItemQueue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void consumerSeesItemsInOrderUntilClosed()
    {
        DrawItemQueue items;
        std::vector<int> seen;
        std::thread consumer([&] {
            for (qsizetype i = 0; items.waitFor(i); ++i) seen.push_back(items[i].cls);
        });
        // More than a block, and a count that is no multiple of the wake-up step.
        for (int i = 0; i < 1500; ++i) QVERIFY(items.push(itemOfClass(i)));
        items.close();
        consumer.join();
        QCOMPARE(int(seen.size()), 1500);
        for (int i = 0; i < 1500; ++i) QCOMPARE(seen[size_t(i)], i);
    }

    void waitClosedReturnsOnlyOnClose()
    {
        DrawItemQueue items;
        std::atomic<bool> returned{false};
        std::thread consumer([&] {
            items.waitClosed();
            returned = true;
        });
        for (int i = 0; i < 200; ++i) QVERIFY(items.push(itemOfClass(i)));
        // Pushes wake item waiters; this one must go on waiting.
        QTest::qWait(50);
        QVERIFY(!returned);
        items.close();
        consumer.join();
        QVERIFY(returned);
        QCOMPARE(items.size(), qsizetype(200));
        QVERIFY(!items.waitFor(200));
        QVERIFY(items.waitFor(199));
    }

    void aQueueOnTheSameThreadReusesTheItemsBuffers()
    {
        const QPointF* points = nullptr;
        {
            DrawItemQueue items;
            DrawItem* item = items.next();
            QVERIFY(item);
            item->cls = 3;
            item->parts = {QPolygonF(QList<QPointF>(50, QPointF(1, 2)))};
            item->values = {QStringLiteral("motorway")};
            item->text = QStringLiteral("A1");
            item->ownStyles = std::make_shared<const QList<StyleDef>>(QList<StyleDef>(1));
            points = item->parts[0].constData();
            items.publish();
        }
        DrawItemQueue again;
        DrawItem* item = again.next();
        QVERIFY(item);
        // Nothing of the feature it held is left but the polygon to refill.
        QCOMPARE(item->cls, -1);
        QVERIFY(item->values.isEmpty());
        QVERIFY(item->text.isEmpty());
        QVERIFY(!item->ownStyles);
        QCOMPARE(item->parts.size(), 1);
        QCOMPARE(item->parts[0].constData(), points);
        QVERIFY(item->parts[0].capacity() >= 50);
    }

    void largePolygonsAreNotKept()
    {
        {
            DrawItemQueue items;
            DrawItem* item = items.next();
            item->parts = {QPolygonF(QList<QPointF>(100000, QPointF(1, 2)))};
            items.publish();
        }
        DrawItemQueue again;
        QVERIFY(again.next()->parts.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDrawItemQueue)
#include "test_draw_item_queue.moc"
