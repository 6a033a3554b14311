#pragma once

// The explorer's start, shared by the shipped program (main.cpp) and the test-only one with hooks
// (tests/ui/explorer_with_test_hooks.cpp), so that the two cannot drift: the application's names, the
// command line (PATH, --facts, --key, --help, --version), the answer without a display, the window
// opening what was asked (or the bundled demo), the event loop and the exit deadline.

#include <QCommandLineOption>
#include <QList>

#include <functional>

class QCommandLineParser;
namespace hiera::ui {
class MainWindow;
}

namespace ExplorerStartup {

struct Extras
{
    // Options accepted besides the program's own, hidden from --help.
    QList<QCommandLineOption> hiddenOptions;
    // Called with the window made and the command line parsed, before the window is shown and opens
    // anything (a test entry point installs its hooks here).
    std::function<void(hiera::ui::MainWindow& window, const QCommandLineParser& parser)> prepare;
};

// main(): runs the explorer and returns the process's exit code.
int run(int argc, char* argv[], const Extras& extras = {});

} // namespace ExplorerStartup
