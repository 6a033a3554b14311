// PoolExecutor (ui/jobs/poolexecutor.h): the engine's many-node work on the explorer's own pool. Every
// item runs once; helpers come from the pool, not from threads of their own; a pool with no free
// thread leaves the calling thread to do everything (never a deadlock); a stop ends the run early.

#include "jobs/poolexecutor.h"

#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

class TestPoolExecutor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyItemOnceOnThePoolsThreads()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(4);
        const PoolExecutor executor(&pool);
        std::vector<std::atomic<int>> calls(2000);
        std::mutex mutex;
        std::set<std::thread::id> threads;
        executor.forEach(calls.size(),
                         [&](std::size_t i) {
                             ++calls[i];
                             const std::lock_guard lock(mutex);
                             threads.insert(std::this_thread::get_id());
                         },
                         {});
        for (const auto& c : calls)
            QCOMPARE(c.load(), 1);
        QVERIFY(threads.size() <= 4); // the caller and at most three of the pool's threads
    }

    void aFullPoolLeavesItToTheCaller()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        std::atomic<bool> release{false};
        pool.start([&] {
            while (!release)
                std::this_thread::yield();
        });
        const PoolExecutor executor(&pool);
        std::set<std::thread::id> threads;
        std::size_t done = 0;
        executor.forEach(100,
                         [&](std::size_t) {
                             threads.insert(std::this_thread::get_id());
                             ++done;
                         },
                         {});
        release = true;
        pool.waitForDone();
        QCOMPARE(done, std::size_t(100));
        QCOMPARE(threads.size(), std::size_t(1));
        QVERIFY(*threads.begin() == std::this_thread::get_id());
    }

    void aStopEndsTheRun()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(3);
        const PoolExecutor executor(&pool);
        std::stop_source stop;
        std::atomic<std::size_t> done{0};
        executor.forEach(
            100000,
            [&](std::size_t) {
                if (++done == 50)
                    stop.request_stop();
            },
            stop.get_token());
        QVERIFY2(done >= 50 && done < 60, qPrintable(QString::number(done.load())));
    }
};

QTEST_APPLESS_MAIN(TestPoolExecutor)
#include "tst_poolexecutor.moc"
