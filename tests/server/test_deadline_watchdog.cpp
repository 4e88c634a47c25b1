// The request time limit: which tokens the watchdog cancels, and that it is
// not woken by every request.

#include "server/deadline_watchdog.h"

#include <QtTest>

#include <list>

using namespace maptune;
using namespace std::chrono_literals;

class TestDeadlineWatchdog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cancelsOnlyWhatRunsOver()
    {
        DeadlineWatchdog dog;
        const CancelToken late, answered;
        DeadlineWatchdog::Guard watched(dog, DeadlineWatchdog::Clock::now() + 20ms, late);
        {
            DeadlineWatchdog::Guard done(dog, DeadlineWatchdog::Clock::now() + 20ms, answered);
        }
        QTRY_VERIFY_WITH_TIMEOUT(late.isCancelled(), 5000);
        QVERIFY(!answered.isCancelled());
    }

    void aSoonerDeadlineWakesTheThread()
    {
        // The thread sleeps until the first request's deadline, an hour away;
        // a later request with a short limit must still be cancelled on time.
        DeadlineWatchdog dog;
        const CancelToken patient, hasty;
        QTRY_VERIFY(dog.passes() >= 1);  // asleep with nothing to watch
        DeadlineWatchdog::Guard first(dog, DeadlineWatchdog::Clock::now() + 1h, patient);
        QTRY_VERIFY(dog.passes() >= 2);  // it has seen the first watch
        DeadlineWatchdog::Guard second(dog, DeadlineWatchdog::Clock::now() + 20ms, hasty);
        QTRY_VERIFY_WITH_TIMEOUT(hasty.isCancelled(), 5000);
        QVERIFY(!patient.isCancelled());
    }

    void laterDeadlinesDoNotWakeTheThread()
    {
        // Requests with one time limit register deadlines in order: each is
        // later than the one the thread sleeps until, so none wakes it.
        DeadlineWatchdog dog;
        const CancelToken token;
        std::list<DeadlineWatchdog::Guard> guards;
        QTRY_VERIFY(dog.passes() >= 1);
        guards.emplace_back(dog, DeadlineWatchdog::Clock::now() + 1h, token);
        QTRY_VERIFY(dog.passes() >= 2);
        const std::uint64_t before = dog.passes();
        for (int i = 0; i < 100; ++i) {
            guards.emplace_back(dog, DeadlineWatchdog::Clock::now() + 1h, token);
            if (i % 2) guards.pop_front();
        }
        QTest::qWait(50);
        QCOMPARE(dog.passes(), before);
        QVERIFY(!token.isCancelled());
    }
};

QTEST_GUILESS_MAIN(TestDeadlineWatchdog)
#include "test_deadline_watchdog.moc"
