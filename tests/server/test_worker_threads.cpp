// The rendering threads: which worker takes a job.

#include "server/worker_threads.h"

#include <QtTest>

#include <atomic>
#include <set>
#include <thread>

using namespace maptune;

class TestWorkerThreads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneClientStaysOnOneWorker()
    {
        // Jobs one after another (a client at concurrency 1) all run on the
        // worker that became idle last, so its per-thread caches stay warm.
        WorkerThreads workers(3);
        for (int i = 0; i < 20; ++i) QCOMPARE(workers.run([i] { return Response{200, {}, QByteArray::number(i), {}}; }).body,
                                             QByteArray::number(i));
        const std::vector<int> used = workers.history();
        QCOMPARE(int(used.size()), 20);
        QString order;
        for (int w : used) order += QString::number(w);
        QVERIFY2(std::set<int>(used.begin(), used.end()).size() == 1, qPrintable(order));
    }

    void concurrentJobsUseSeveralWorkers()
    {
        // Two jobs that wait for each other can only finish on two threads.
        WorkerThreads workers(2);
        std::atomic<int> arrived{0};
        auto job = [&] {
            ++arrived;
            while (arrived < 2) std::this_thread::yield();
            return Response{200, {}, "ok", {}};
        };
        Response a, b;
        std::thread other([&] { a = workers.run(job); });
        b = workers.run(job);
        other.join();
        QCOMPARE(a.body, QByteArray("ok"));
        QCOMPARE(b.body, QByteArray("ok"));
        const std::vector<int> used = workers.history();
        QCOMPARE(int(std::set<int>(used.begin(), used.end()).size()), 2);
    }

    void twoClientsKeepTheirWorkers()
    {
        // Two clients (connection threads) that ran at the same time on two
        // workers each get their own worker back afterwards, although the
        // other's worker became idle last.
        WorkerThreads workers(2);
        std::atomic<bool> aStarted{false}, bDone{false}, aDone{false};
        auto worker = [] { return QByteArray::number(qulonglong(std::hash<std::thread::id>{}(std::this_thread::get_id()))); };
        auto job = [&] { return Response{200, {}, worker(), {}}; };
        QByteArray aFirst, bFirst, bSecond;
        std::thread b([&] {
            // Runs while A's job holds the other worker (B could otherwise
            // finish before A asks, and A would take B's worker).
            bFirst = workers.run([&] {
                while (!aStarted) std::this_thread::yield();
                return job();
            }).body;
            bDone = true;
            while (!aDone) std::this_thread::yield();
            bSecond = workers.run(job).body;
        });
        // A's job holds its worker until B's job has finished: A's worker is
        // then the last to become idle, on top of the stack.
        aFirst = workers.run([&] {
            aStarted = true;
            while (!bDone) std::this_thread::yield();
            return job();
        }).body;
        aDone = true;
        b.join();
        QVERIFY(aFirst != bFirst);
        QCOMPARE(bSecond, bFirst);
        QCOMPARE(workers.run(job).body, aFirst);
    }

    void queuedJobsRunWhenAllAreBusy()
    {
        WorkerThreads workers(1);
        std::vector<std::thread> clients;
        std::atomic<int> done{0};
        for (int i = 0; i < 8; ++i)
            clients.emplace_back([&] {
                if (workers.run([] { return Response{200, {}, "x", {}}; }).body == "x") ++done;
            });
        for (std::thread& t : clients) t.join();
        QCOMPARE(done.load(), 8);
    }

    void exceptionsReachTheCaller()
    {
        WorkerThreads workers(1);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, workers.run([]() -> Response { throw std::runtime_error("boom"); }));
        QCOMPARE(workers.run([] { return Response{204, {}, {}, {}}; }).status, 204);
    }
};

QTEST_GUILESS_MAIN(TestWorkerThreads)
#include "test_worker_threads.moc"
