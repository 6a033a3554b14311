// WorkPool (ui/jobs/workpool.h): the explorer's one pool. The engine's many-node work runs every item
// once on the pool's threads, never more than the background lane allows, and a full lane leaves the
// calling thread to do everything (never a deadlock); a stop ends a run early; background jobs wait for
// a slot while interactive ones start at once; a JobTracker waits for its owner's jobs.

#include "jobs/workpool.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace hiera::ui;

namespace {

// Spins until `flag` is set or two seconds pass; returns whether it was set.
bool waitFor(const std::atomic<bool>& flag)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!flag && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return flag;
}

} // namespace

class TestWorkPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyItemOnceOnThePoolsThreads()
    {
        WorkPool pool(3);
        QCOMPARE(pool.threadCount(), 5); // two more than the background lane, for interactive jobs
        std::vector<std::atomic<int>> calls(2000);
        std::mutex mutex;
        std::set<std::thread::id> threads;
        pool.executor().forEach(calls.size(),
                                [&](std::size_t i) {
                                    ++calls[i];
                                    const std::lock_guard lock(mutex);
                                    threads.insert(std::this_thread::get_id());
                                },
                                {});
        for (const auto& c : calls)
            QCOMPARE(c.load(), 1);
        QVERIFY(threads.size() <= 4); // the caller and at most three background helpers
        QCOMPARE(pool.backgroundRunning(), 0);
    }

    void aFullLaneLeavesItToTheCaller()
    {
        WorkPool pool(1);
        std::atomic<bool> started{false}, release{false};
        pool.start(WorkPool::Lane::Background, [&] {
            started = true;
            while (!release)
                std::this_thread::yield();
        });
        QVERIFY(waitFor(started));
        std::set<std::thread::id> threads;
        std::size_t done = 0;
        pool.executor().forEach(100,
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
        WorkPool pool(2);
        std::stop_source stop;
        std::atomic<std::size_t> done{0};
        pool.executor().forEach(
            100000,
            [&](std::size_t) {
                if (++done == 50)
                    stop.request_stop();
            },
            stop.get_token());
        QVERIFY2(done >= 50 && done < 60, qPrintable(QString::number(done.load())));
    }

    void backgroundWaitsForASlotInteractiveDoesNot()
    {
        // One background slot, held: the next background job waits, an interactive one runs at once.
        WorkPool pool(1);
        std::atomic<bool> firstStarted{false}, release{false}, secondRan{false}, interactiveRan{false};
        pool.start(WorkPool::Lane::Background, [&] {
            firstStarted = true;
            while (!release)
                std::this_thread::yield();
        });
        QVERIFY(waitFor(firstStarted));
        pool.start(WorkPool::Lane::Background, [&] { secondRan = true; });
        pool.start(WorkPool::Lane::Interactive, [&] { interactiveRan = true; });
        QVERIFY(waitFor(interactiveRan));
        QVERIFY(!secondRan);
        QCOMPARE(pool.backgroundRunning(), 1);
        release = true;
        QVERIFY(waitFor(secondRan));
        pool.waitForDone();
        QCOMPARE(pool.backgroundRunning(), 0);
    }

    void aTrackerWaitsForItsJobs()
    {
        WorkPool pool(1);
        std::atomic<bool> finished{false};
        {
            JobTracker tracker;
            pool.start(WorkPool::Lane::Interactive, tracker.track([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                finished = true;
            }));
        } // ~JobTracker waits
        QVERIFY(finished);
        // A throwing task is still counted off.
        JobTracker tracker;
        WorkPool::Task task = tracker.track([] { throw std::runtime_error("x"); });
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, task());
        tracker.waitForIdle();
    }
};

QTEST_APPLESS_MAIN(TestWorkPool)
#include "tst_workpool.moc"
