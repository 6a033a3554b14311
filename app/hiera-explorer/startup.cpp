#include "startup.h"

#include "window/mainwindow.h"

#include <hiera/version.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

using namespace hiera::ui;

namespace {

struct Options
{
    QCommandLineOption facts{QStringLiteral("facts"),
                             QStringLiteral("Facts file: YAML or JSON, facter -y/-j or puppet facts output."),
                             QStringLiteral("FILE")};
    QCommandLineOption key{QStringLiteral("key"), QStringLiteral("Key to look up."), QStringLiteral("KEY")};
};

void setNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorer"));
    QCoreApplication::setApplicationName(QStringLiteral("hiera-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HIERA_VERSION));
}

void describe(QCommandLineParser& parser, const Options& options, const ExplorerStartup::Extras& extras)
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
    for (QCommandLineOption option : extras.hiddenOptions) {
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
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

// Quitting ends the process within two seconds whatever a worker is doing. The runners
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

int ExplorerStartup::run(int argc, char* argv[], const Extras& extras)
{
    Options options;
    if (asksOnlyForText(argc, argv)) {
        QCoreApplication app(argc, argv);
        setNames();
        QCommandLineParser parser;
        describe(parser, options, extras);
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
    describe(parser, options, extras);
    parser.process(app);
    const QCommandLineOption& factsOption = options.facts;
    const QCommandLineOption& keyOption = options.key;

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "hiera-explorer: expected at most one repository or hiera.yaml\n");
        return 2;
    }

    MainWindow window;
    if (extras.prepare)
        extras.prepare(window, parser);
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
