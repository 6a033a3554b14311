// hiera-explorer [PATH] [--facts FILE] [--key KEY]
// PATH is a control repository's root directory or a hiera.yaml. Without it the bundled demo opens.
//
// Test hooks (hidden from --help; tests/ui/tst_autosave.cpp drives the real program with them):
//   --test-edit KEY=VALUE   once the first answer is on screen, sets the fact at the dotted KEY
//                           (facts.env) to the string VALUE, as an edit in the facts tree would
//   --test-answer ANSWER    answers every question the window asks (save unsaved facts? recover an
//                           autosave?) with accept, discard or cancel instead of a message box
//   --test-print-scope      once the first answer is on screen, prints the scope as one JSON line
//                           "scope: {...}" on stdout
//   --test-quit-stuck FIFO  once the first answer is on screen, starts a worker that opens FIFO (and
//                           so blocks in the kernel until a writer comes), prints "quitting", and
//                           closes the window as File > Quit does: the process must still end within 2 s
// The autosave directory can be set with HIERA_EXPLORER_AUTOSAVE_DIR.

#include "document/demo.h"
#include "document/factsdocument.h"
#include "jobs/workpool.h"
#include "models/facttreemodel.h"
#include "window/mainwindow.h"

#include <hiera/valueformat.h>
#include <hiera/version.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

namespace {

struct Options
{
    QCommandLineOption facts{QStringLiteral("facts"),
                             QStringLiteral("Facts file: YAML or JSON, facter -y/-j or puppet facts output."),
                             QStringLiteral("FILE")};
    QCommandLineOption key{QStringLiteral("key"), QStringLiteral("Key to look up."), QStringLiteral("KEY")};
    QCommandLineOption testEdit{QStringLiteral("test-edit"), QStringLiteral("Test hook."), QStringLiteral("KEY=VALUE")};
    QCommandLineOption testAnswer{QStringLiteral("test-answer"), QStringLiteral("Test hook."),
                                  QStringLiteral("accept|discard|cancel")};
    QCommandLineOption testPrint{QStringLiteral("test-print-scope"), QStringLiteral("Test hook.")};
    QCommandLineOption testQuitStuck{QStringLiteral("test-quit-stuck"), QStringLiteral("Test hook."),
                                     QStringLiteral("FIFO")};
};

void setNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorer"));
    QCoreApplication::setApplicationName(QStringLiteral("hiera-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HIERA_VERSION));
}

void describe(QCommandLineParser& parser, Options& options)
{
    parser.setApplicationDescription(QStringLiteral("Explore Hiera 5 lookups: where every value comes from."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("path"),
        QStringLiteral("A control repository (its directory) or a hiera.yaml to open (default: the bundled demo)."),
        QStringLiteral("[PATH]"));
    parser.addOption(options.facts);
    parser.addOption(options.key);
    for (QCommandLineOption* option :
         {&options.testEdit, &options.testAnswer, &options.testPrint, &options.testQuitStuck}) {
        option->setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(*option);
    }
}

// --help and --version print and exit without a window, so they work where there is no display (an
// SSH session, a CI job); QApplication would abort there before the parser could answer.
bool asksOnlyForText(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QLatin1String arg(argv[i]);
        if (arg == QLatin1String("--"))
            return false;
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help") || arg == QLatin1String("-?")
            || arg == QLatin1String("--help-all") || arg == QLatin1String("-v") || arg == QLatin1String("--version"))
            return true;
    }
    return false;
}

// A window needs a display; without one Qt aborts with a message about plugins. Said in one line instead.
bool hasNoDisplay(int argc, char* argv[])
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    for (int i = 1; i < argc; ++i)
        if (QLatin1String(argv[i]) == QLatin1String("-platform")) // Qt's own option names one
            return false;
    return qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
#else
    Q_UNUSED(argc)
    Q_UNUSED(argv)
    return false;
#endif
}

// Quitting ends the process within two seconds whatever a worker is doing (issue 46 §2). The runners
// cancel their long work as the window goes and the pool is waited for, but a worker stuck in the
// kernel (a read from a hung network mount) would hold that wait forever: from the moment the event
// loop returns, a deadline ends the process with its exit code. Nothing is lost by it: facts are saved
// and autosaved as the user works (with QSaveFile, never half written), and an autosave left behind
// is only offered back at the next start.
void armExitDeadline(int exitCode)
{
    std::thread([exitCode] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        std::fflush(nullptr);
        std::_Exit(exitCode);
    }).detach();
}

} // namespace

int main(int argc, char* argv[])
{
    Options options;
    if (asksOnlyForText(argc, argv)) {
        QCoreApplication app(argc, argv);
        setNames();
        QCommandLineParser parser;
        describe(parser, options);
        parser.process(app); // prints and exits
        return 0;
    }
    if (hasNoDisplay(argc, argv)) {
        std::fprintf(stderr,
                     "hiera-explorer: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
                     "hiera-lookup answers on the command line\n");
        return 1;
    }
    QApplication app(argc, argv);
    setNames();
    // The installed desktop entry's name: Wayland compositors and task bars take the window's icon and
    // name from it (resources/desktop/).
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.hieraexplorer.HieraExplorer"));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Hiera Explorer"));

    QCommandLineParser parser;
    describe(parser, options);
    parser.process(app);
    const QCommandLineOption& factsOption = options.facts;
    const QCommandLineOption& keyOption = options.key;
    const QCommandLineOption& testEditOption = options.testEdit;
    const QCommandLineOption& testAnswerOption = options.testAnswer;
    const QCommandLineOption& testPrintOption = options.testPrint;

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "hiera-explorer: expected at most one repository or hiera.yaml\n");
        return 2;
    }

    MainWindow window;
    if (parser.isSet(testAnswerOption)) {
        const QString answer = parser.value(testAnswerOption);
        const MainWindow::Answer given = answer == QLatin1String("accept") ? MainWindow::Answer::Accept
            : answer == QLatin1String("discard")                           ? MainWindow::Answer::Discard
                                                                           : MainWindow::Answer::Cancel;
        window.setQuestionHandler([given](MainWindow::Question, const QString&) { return given; });
    }
    const QStringList testEdits = parser.values(testEditOption);
    const bool testPrint = parser.isSet(testPrintOption);
    const QString testQuitStuck = parser.value(options.testQuitStuck);
    if (!testQuitStuck.isEmpty()) {
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection =
            QObject::connect(&window, &MainWindow::answerShown, &window, [&window, testQuitStuck, connection] {
                QObject::disconnect(*connection);
                WorkPool::shared().start(WorkPool::Lane::Interactive, [fifo = QFile::encodeName(testQuitStuck)] {
                    const int fd = ::open(fifo.constData(), O_RDONLY); // blocks: no writer ever comes
                    if (fd >= 0)
                        ::close(fd);
                });
                std::printf("quitting\n");
                std::fflush(stdout);
                // What File > Quit (Ctrl+Q) does, once this signal's other receivers have run.
                QTimer::singleShot(0, &window, &QWidget::close);
            });
    }
    if (!testEdits.isEmpty() || testPrint) {
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection =
            QObject::connect(&window, &MainWindow::answerShown, &window, [&window, testEdits, testPrint, connection] {
                QObject::disconnect(*connection);
                if (testPrint) {
                    std::printf("scope: %s\n",
                                hiera::toJson(window.findChild<FactsDocument*>()->model()->toValue()).c_str());
                    std::fflush(stdout);
                }
                for (const QString& edit : testEdits) {
                    const QString key = edit.section(QLatin1Char('='), 0, 0);
                    const QString value = edit.section(QLatin1Char('='), 1);
                    if (!window.findChild<FactsDocument*>()->model()->setValueAtPath(key,
                                                                                     hiera::Value(value.toStdString())))
                        std::fprintf(stderr, "hiera-explorer: --test-edit %s failed\n", qPrintable(edit));
                }
            });
    }
    window.show();

    if (positional.isEmpty()) {
        // The demo brings its own facts and key; explicit options still win.
        window.openDemo();
    } else {
        window.openHierarchy(QFileInfo(positional.first()).absoluteFilePath());
    }
    if (parser.isSet(factsOption))
        window.openFacts(parser.value(factsOption));
    if (parser.isSet(keyOption))
        window.setKey(parser.value(keyOption));

    const int exitCode = app.exec();
    armExitDeadline(exitCode);
    return exitCode;
}
