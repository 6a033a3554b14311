// bench-explorer MEDIUM_DIR [LARGE_DIR] [--edits N]
// bench-explorer --override-chain [N]
//
// The explorer's own figures for docs/performance.md, printed as name=value lines (never asserted):
//  (a) on MEDIUM_DIR (a tree from shared/bench/gen_fixture.py): with a node's facts and the first
//      answer on screen, N edits of facts.env through the FactTreeModel (as the fact editor commits
//      them), each timed from the edit to the new answer applied to the views and the window
//      repainted: explorer_edit_to_repaint_ms_{median,max}, with the parts beside them (the lookup on
//      the worker, edit to answer applied to the models, the repaint);
//  (b) on LARGE_DIR: the longest GUI-thread stall while the hierarchy loads and the first lookup runs
//      (then while one fact edit is answered), from a 1 ms heartbeat timer: the largest gap between
//      two ticks minus 1 ms. explorer_max_stall_ms, explorer_max_stall_edit_ms.
//  (c) on LARGE_DIR, with the Across nodes tab in front: the longest stall while its facts folder
//      (20,000 nodes) opens as the node library and the key runs across it, then while a second
//      key runs (explorer_fleet_max_stall_ms, explorer_fleet_second_key_max_stall_ms, and the times
//      to the result on screen); with the All keys tab in front, while every key of the node is
//      resolved and shown (explorer_all_keys_max_stall_ms).
//  (d) with --override-chain N (5000): a generated repository where N files all hold two keys, one
//      merged unique and one deep (as hiera-bench override-chain makes it), with the Overridden values
//      panel in front: the longest stall from asking for the key to its override chain on screen
//      (explorer_override_chain_{unique,deep}_max_stall_ms, and the time to it; docs/performance.md, "Cost that grows
//      with the input").
// Runs on the offscreen platform unless QT_QPA_PLATFORM says otherwise. Not part of ctest.

#include "jobs/fleetrunner.h"
#include "jobs/lookuprunner.h"
#include "models/facttreemodel.h"
#include "models/fleetmodel.h"
#include "models/hierarchymodel.h"
#include "models/overridesmodel.h"
#include "panels/allkeyspanel.h"
#include "panels/fleetpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace hiera::ui;

namespace {

double ms(qint64 ns)
{
    return static_cast<double>(ns) / 1e6;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double maximum(const std::vector<double>& values)
{
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

// Turns the event loop until `done` holds (checked after every event batch), or the timeout.
bool spinUntil(const std::function<bool()>& done, int timeoutMs = 120000)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    }
    return true;
}

struct Fixture
{
    QString dir;
    QString node;
    QString key;
};

Fixture fixture(const QString& dir)
{
    Fixture f{dir, {}, QStringLiteral("profile::base::motd")};
    QFile sample(dir + QStringLiteral("/sample.tsv"));
    if (sample.open(QIODevice::ReadOnly)) {
        sample.readLine(); // header
        const QStringList cells = QString::fromUtf8(sample.readLine()).trimmed().split(QLatin1Char('\t'));
        if (cells.size() >= 2) {
            f.node = cells[0];
            f.key = cells[1];
        }
    }
    if (f.node.isEmpty()) {
        QFile nodes(dir + QStringLiteral("/nodes.txt"));
        if (nodes.open(QIODevice::ReadOnly))
            f.node = QString::fromUtf8(nodes.readLine()).trimmed();
    }
    return f;
}

void print(const char* name, double value)
{
    std::printf("%s=%.2f\n", name, value);
    std::fflush(stdout);
}

std::unique_ptr<MainWindow> makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setQuestionHandler([](MainWindow::Question, const QString&) { return MainWindow::Answer::Discard; });
    window->resize(1500, 950);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        std::fprintf(stderr, "bench-explorer: the window was not exposed\n");
    return window;
}

bool settled(const MainWindow& window, const QString& key)
{
    return UiTest::part<AnswerPanel>(window)->outcome()
        && UiTest::part<AnswerPanel>(window)->outcome()->request.key == key.toStdString()
        && !UiTest::part<LookupRunner>(window)->isBusy()
        && UiTest::part<HierarchyPanel>(window)->model()->rowCount() > 0;
}

// Notes when a widget is painted.
class PaintSpy : public QObject
{
public:
    using QObject::QObject;
    bool painted = false;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            painted = true;
        return QObject::eventFilter(watched, event);
    }
};

int editToRepaint(const Fixture& f, int edits)
{
    auto window = makeWindow();
    if (!window->openFacts(f.dir + QStringLiteral("/facts/") + f.node + QStringLiteral(".yaml")))
        return 1;
    window->openHierarchy(f.dir + QStringLiteral("/hiera.yaml"));
    window->setKey(f.key);
    if (!spinUntil([&] { return settled(*window, f.key); })) {
        std::fprintf(stderr, "bench-explorer: no first answer on %s\n", qPrintable(f.dir));
        return 1;
    }
    FactTreeModel* model = UiTest::part<FactsDocument>(window)->model();
    const QModelIndex env =
        model->indexForKeyPath(QStringLiteral("facts.env")).siblingAtColumn(FactTreeModel::ValueColumn);
    if (!env.isValid()) {
        std::fprintf(stderr, "bench-explorer: the node has no facts.env\n");
        return 1;
    }
    const QString original = env.data(Qt::EditRole).toString();
    const QString other =
        original == QLatin1String("production") ? QStringLiteral("staging") : QStringLiteral("production");

    QElapsedTimer clock;
    // The answer is on screen when the value view has been painted after the models took it: Qt's
    // own repaint of what changed, as a user sees it. The forced repaint of the whole window after it
    // is the upper bound (every panel repainted, not only those that changed).
    PaintSpy spy;
    UiTest::part<AnswerPanel>(window)->valueView()->viewport()->installEventFilter(&spy);
    qint64 shownAt = 0;
    int shown = 0;
    QObject::connect(window.get(), &MainWindow::answerShown, window.get(), [&] {
        shownAt = clock.nsecsElapsed();
        spy.painted = false;
        ++shown;
    });

    std::vector<double> total, worker, shownAfter, paint, fullRepaint;
    for (int i = 0; i < edits; ++i) {
        const QString value = i % 2 == 0 ? other : original;
        const int before = shown;
        clock.start();
        model->setData(env, value, Qt::EditRole); // what FactValueDelegate::setModelData does
        if (!spinUntil([&] { return shown > before; }, 30000)) {
            std::fprintf(stderr, "bench-explorer: edit %d got no answer\n", i);
            return 1;
        }
        if (!spinUntil([&] { return spy.painted; }, 30000)) {
            std::fprintf(stderr, "bench-explorer: edit %d was never painted\n", i);
            return 1;
        }
        const qint64 done = clock.nsecsElapsed();
        total.push_back(ms(done));
        shownAfter.push_back(ms(shownAt));
        paint.push_back(ms(done - shownAt));
        worker.push_back(
            UiTest::part<AnswerPanel>(window)->outcome() ? UiTest::part<AnswerPanel>(window)->outcome()->elapsedMs : 0);
        QElapsedTimer full;
        full.start();
        window->repaint();
        fullRepaint.push_back(ms(full.nsecsElapsed()));
        // A user pauses between edits; let the hierarchy refresh of this edit finish too.
        spinUntil([&] { return !UiTest::part<LookupRunner>(window)->isBusy(); });
        QTest::qWait(20);
    }
    print("explorer_edit_to_repaint_ms_median", median(total));
    print("explorer_edit_to_repaint_ms_max", maximum(total));
    print("explorer_edit_lookup_worker_ms_median", median(worker));
    print("explorer_edit_to_answer_shown_ms_median", median(shownAfter));
    print("explorer_edit_to_answer_shown_ms_max", maximum(shownAfter));
    print("explorer_edit_repaint_ms_median", median(paint));
    print("explorer_edit_repaint_ms_max", maximum(paint));
    print("explorer_full_window_repaint_ms_median", median(fullRepaint));
    print("explorer_full_window_repaint_ms_max", maximum(fullRepaint));
    std::printf("explorer_edits=%d\n", edits);
    return 0;
}

int stalls(const Fixture& f)
{
    auto window = makeWindow();
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 worst = 0;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    auto beat = [&] {
        worst = 0;
        clock.start();
        last = 0;
        heartbeat.start();
    };
    auto stall = [&] {
        heartbeat.stop();
        worst = std::max(worst, clock.nsecsElapsed() - last);
        return std::max(0.0, ms(worst) - 1.0);
    };

    beat();
    QTimer::singleShot(0, window.get(), [&] {
        window->openFacts(f.dir + QStringLiteral("/facts/") + f.node + QStringLiteral(".yaml"));
        window->openHierarchy(f.dir + QStringLiteral("/hiera.yaml"));
        window->setKey(f.key);
    });
    if (!spinUntil([&] { return settled(*window, f.key); }, 300000)) {
        std::fprintf(stderr, "bench-explorer: no first answer on %s\n", qPrintable(f.dir));
        return 1;
    }
    const double firstAnswer = ms(clock.nsecsElapsed());
    print("explorer_max_stall_ms", stall());
    print("explorer_large_first_answer_ms", firstAnswer);

    const QModelIndex env = UiTest::part<FactsDocument>(window)
                                ->model()
                                ->indexForKeyPath(QStringLiteral("facts.env"))
                                .siblingAtColumn(FactTreeModel::ValueColumn);
    if (env.isValid()) {
        const QString value = env.data(Qt::EditRole).toString() == QLatin1String("production")
            ? QStringLiteral("staging")
            : QStringLiteral("production");
        beat();
        const quint64 generation = UiTest::part<LookupRunner>(window)->lookupGeneration();
        QTimer::singleShot(0, window.get(),
                           [&] { UiTest::part<FactsDocument>(window)->model()->setData(env, value, Qt::EditRole); });
        spinUntil(
            [&] {
                return UiTest::part<LookupRunner>(window)->lookupGeneration() > generation && settled(*window, f.key);
            },
            300000);
        QTest::qWait(50);
        print("explorer_max_stall_edit_ms", stall());
    }

    // (c) the many-node panels.
    window->raisePanel(UiTest::part<FleetPanel>(window));
    auto fleetShows = [&](const QString& key) {
        const FleetResultPtr r = UiTest::part<FleetPanel>(window)->model()->result();
        return r && r->key == key.toStdString() && !UiTest::part<FleetRunner>(window)->isBusy();
    };
    beat();
    QTimer::singleShot(0, window.get(),
                       [&] { UiTest::part<NodesPanel>(window)->openLibrary(f.dir + QStringLiteral("/facts")); });
    if (!spinUntil([&] { return fleetShows(f.key); }, 600000)) {
        std::fprintf(stderr, "bench-explorer: no fleet result on %s\n", qPrintable(f.dir));
        return 1;
    }
    print("explorer_fleet_library_and_key_ms", ms(clock.nsecsElapsed()));
    print("explorer_fleet_max_stall_ms", stall());
    const QString second = QStringLiteral("profile::base::ntp_servers");
    beat();
    QTimer::singleShot(0, window.get(), [&] { window->setKey(second); });
    spinUntil([&] { return fleetShows(second); }, 300000);
    print("explorer_fleet_second_key_ms", ms(clock.nsecsElapsed()));
    print("explorer_fleet_second_key_max_stall_ms", stall());

    QSignalSpy allKeys(UiTest::part<AllKeysPanel>(window), &AllKeysPanel::allKeysShown);
    beat();
    QTimer::singleShot(0, window.get(), [&] { window->raisePanel(UiTest::part<AllKeysPanel>(window)); });
    spinUntil([&] { return allKeys.count() > 0; }, 300000);
    print("explorer_all_keys_ms", ms(clock.nsecsElapsed()));
    print("explorer_all_keys_max_stall_ms", stall());
    return 0;
}

// (d) One glob level over `files` files that all hold bench::servers (merged unique) and bench::cfg
// (merged deep), each with something of its own and something every file shares.
int overrideChainStalls(int files)
{
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("data/files"));
    const auto write = [&](const QString& name, const QByteArray& text) {
        QFile file(dir.filePath(name));
        return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
    };
    bool ok = write(QStringLiteral("hiera.yaml"),
                    "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n"
                    "  - name: \"every file\"\n    glob: \"files/*.yaml\"\n  - name: common\n    path: common.yaml\n")
        && write(QStringLiteral("data/common.yaml"),
                 "lookup_options:\n  bench::servers:\n    merge: unique\n  bench::cfg:\n    merge: deep\n")
        && write(QStringLiteral("node.yaml"), "certname: bench.example.com\n");
    for (int i = 0; i < files && ok; ++i) {
        const QByteArray n = QByteArray::number(i);
        ok = write(QStringLiteral("data/files/f%1.yaml").arg(i, 5, 10, QLatin1Char('0')),
                   "bench::servers:\n  - server" + n + ".example.com\n  - shared.example.com\nbench::cfg:\n  own" + n
                       + ": " + n + "\n  shared:\n    - item" + n + "\n    - common\n");
    }
    if (!ok) {
        std::fprintf(stderr, "bench-explorer: could not write the override-chain repository\n");
        return 1;
    }
    auto window = makeWindow();
    window->raisePanel(UiTest::part<OverridesPanel>(window));
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    // Found once: a findChild over the whole window in the predicate below costs a millisecond a
    // turn of the loop, which the stall meter would charge to the explorer.
    OverridesPanel* const overrides = UiTest::part<OverridesPanel>(window);
    QSignalSpy shown(overrides, &OverridesPanel::overridesShown);
    window->openFacts(dir.filePath(QStringLiteral("node.yaml")));
    window->openHierarchy(dir.filePath(QStringLiteral("hiera.yaml")));
    const std::pair<const char*, const char*> keys[] = {{"unique", "bench::servers"}, {"deep", "bench::cfg"}};
    for (const auto& [name, key] : keys) {
        const QString k = QString::fromLatin1(key);
        shown.clear();
        worst = 0;
        last = 0;
        clock.start();
        heartbeat.start();
        QTimer::singleShot(0, window.get(), [&] { window->setKey(k); });
        const bool done = spinUntil(
            [&] {
                const OverrideChainPtr chain = overrides->model()->result();
                return shown.count() > 0 && chain && chain->key == key && chain->levels.size() == std::size_t(files);
            },
            300000);
        heartbeat.stop();
        worst = std::max(worst, clock.nsecsElapsed() - last);
        if (!done) {
            std::fprintf(stderr, "bench-explorer: no override chain for %s\n", key);
            return 1;
        }
        print(QStringLiteral("explorer_override_chain_%1_ms").arg(QLatin1String(name)).toLatin1().constData(),
              ms(clock.nsecsElapsed()));
        print(QStringLiteral("explorer_override_chain_%1_max_stall_ms").arg(QLatin1String(name)).toLatin1().constData(),
              std::max(0.0, ms(worst) - 1.0));
    }
    std::printf("explorer_override_chain_files=%d\n", files);
    return 0;
}

} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorerBench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench-explorer"));
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir autosave;
    qputenv("HIERA_EXPLORER_AUTOSAVE_DIR", autosave.path().toUtf8());

    QStringList args = QCoreApplication::arguments().mid(1);
    int edits = 50;
    if (const int at = static_cast<int>(args.indexOf(QStringLiteral("--edits"))); at >= 0 && at + 1 < args.size()) {
        edits = args.at(at + 1).toInt();
        args.remove(at, 2);
    }
    if (const int at = static_cast<int>(args.indexOf(QStringLiteral("--override-chain"))); at >= 0) {
        const int files = at + 1 < args.size() ? args.at(at + 1).toInt() : 5000;
        return overrideChainStalls(files > 0 ? files : 5000);
    }
    if (args.isEmpty()) {
        std::fprintf(stderr, "usage: bench-explorer MEDIUM_DIR [LARGE_DIR] [--edits N] | --override-chain [N]\n");
        return 2;
    }
    if (const int rc = editToRepaint(fixture(args.at(0)), edits))
        return rc;
    if (args.size() > 1) {
        if (const int rc = stalls(fixture(args.at(1))))
            return rc;
    }
    return 0;
}
