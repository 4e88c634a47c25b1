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
};

QTEST_GUILESS_MAIN(TestDrawItemQueue)
#include "test_draw_item_queue.moc"
