// hiera-explorer-testhooks: the explorer with hooks for tests that drive the real program (built for
// the tests only, never installed). It starts exactly as the shipped hiera-explorer does
// (app/hiera-explorer/startup.cpp: the same command line, window and exit) and accepts, besides:
//   --test-edit KEY=VALUE   once the first answer is on screen, sets the fact at the dotted KEY
//                           (facts.env) to the string VALUE, as an edit in the facts tree would
//   --test-answer ANSWER    answers every question the window asks (save unsaved facts? recover an
//                           autosave?) with accept, discard or cancel instead of a message box
//   --test-print-scope      once the first answer is on screen, prints the scope as one JSON line
//                           "scope: {...}" on stdout
//   --test-quit-stuck FIFO  once the first answer is on screen, starts a worker that opens FIFO (and
//                           so blocks in the kernel until a writer comes), prints "quitting", and
//                           closes the window as File > Quit does: the process must still end within 2 s
// Used by tst_autosave (crash recovery, quitting with a stuck worker) and tst_repositorywindow (a
// repository directory on the command line).

#include "startup.h"

#include "document/factsdocument.h"
#include "jobs/workpool.h"
#include "models/facttreemodel.h"
#include "window/mainwindow.h"

#include <hiera/valueformat.h>

#include <QCommandLineParser>
#include <QFile>
#include <QTimer>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

using namespace hiera::ui;

namespace {

const QCommandLineOption testEdit{QStringLiteral("test-edit"), QStringLiteral("Test hook."),
                                  QStringLiteral("KEY=VALUE")};
const QCommandLineOption testAnswer{QStringLiteral("test-answer"), QStringLiteral("Test hook."),
                                    QStringLiteral("accept|discard|cancel")};
const QCommandLineOption testPrint{QStringLiteral("test-print-scope"), QStringLiteral("Test hook.")};
const QCommandLineOption testQuitStuck{QStringLiteral("test-quit-stuck"), QStringLiteral("Test hook."),
                                       QStringLiteral("FIFO")};

// Runs `hook` once, at the first answer on screen.
template <typename Hook>
void atFirstAnswer(MainWindow& window, Hook hook)
{
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(&window, &MainWindow::answerShown, &window, [connection, hook] {
        QObject::disconnect(*connection);
        hook();
    });
}

void installHooks(MainWindow& window, const QCommandLineParser& parser)
{
    if (parser.isSet(testAnswer)) {
        const QString answer = parser.value(testAnswer);
        const MainWindow::Answer given = answer == QLatin1String("accept") ? MainWindow::Answer::Accept
            : answer == QLatin1String("discard")                           ? MainWindow::Answer::Discard
                                                                           : MainWindow::Answer::Cancel;
        window.setQuestionHandler([given](MainWindow::Question, const QString&) { return given; });
    }
    const QStringList edits = parser.values(testEdit);
    const bool print = parser.isSet(testPrint);
    const QString fifo = parser.value(testQuitStuck);
    if (!fifo.isEmpty()) {
        atFirstAnswer(window, [&window, fifo] {
            WorkPool::shared().start(WorkPool::Lane::Interactive, [path = QFile::encodeName(fifo)] {
                const int fd = ::open(path.constData(), O_RDONLY); // blocks: no writer ever comes
                if (fd >= 0)
                    ::close(fd);
            });
            std::printf("quitting\n");
            std::fflush(stdout);
            // What File > Quit (Ctrl+Q) does, once this signal's other receivers have run.
            QTimer::singleShot(0, &window, &QWidget::close);
        });
    }
    if (!edits.isEmpty() || print) {
        atFirstAnswer(window, [&window, edits, print] {
            if (print) {
                std::printf("scope: %s\n",
                            hiera::toJson(window.findChild<FactsDocument*>()->model()->toValue()).c_str());
                std::fflush(stdout);
            }
            for (const QString& edit : edits) {
                const QString key = edit.section(QLatin1Char('='), 0, 0);
                const QString value = edit.section(QLatin1Char('='), 1);
                if (!window.findChild<FactsDocument*>()->model()->setValueAtPath(key,
                                                                                 hiera::Value(value.toStdString())))
                    std::fprintf(stderr, "hiera-explorer: --test-edit %s failed\n", qPrintable(edit));
            }
        });
    }
}

} // namespace

int main(int argc, char* argv[])
{
    return ExplorerStartup::run(argc, argv, {{testEdit, testAnswer, testPrint, testQuitStuck}, installHooks});
}
