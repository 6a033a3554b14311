// hiera-explorer [hiera.yaml] [--facts FILE] [--key KEY]
// Without a hiera.yaml it opens the bundled demo hierarchy.

#include "demo.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorer"));
    QCoreApplication::setApplicationName(QStringLiteral("hiera-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HIERA_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Hiera Explorer"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Explore Hiera 5 lookups: where every value comes from."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("hiera.yaml"),
        QStringLiteral("The hierarchy to open (default: the bundled demo)."), QStringLiteral("[hiera.yaml]"));
    const QCommandLineOption factsOption(QStringLiteral("facts"),
        QStringLiteral("Facts file: YAML or JSON, facter -y/-j or puppet facts output."), QStringLiteral("FILE"));
    const QCommandLineOption keyOption(QStringLiteral("key"), QStringLiteral("Key to look up."), QStringLiteral("KEY"));
    parser.addOption(factsOption);
    parser.addOption(keyOption);
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "hiera-explorer: expected at most one hiera.yaml\n");
        return 2;
    }

    MainWindow window;
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

    return app.exec();
}
