#pragma once

// A MainWindow on a private copy of the demo, for the GUI tests of single features (the long
// tst_mainwindow keeps the whole-session scenarios): settings and autosave in test locations, every
// model under QAbstractItemModelTester, questions answered from a queue, save paths from a queue.

#include "document/factsdocument.h"
#include "jobs/lookuprunner.h"
#include "support/testpaths.h"
#include "uitestutils.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>
#include <vector>

using namespace hiera::ui;

class WindowFixture
{
public:
    static constexpr int timeoutMs = 15000;

    bool setUpOnce(const char* appName)
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorerTests"));
        QCoreApplication::setApplicationName(QString::fromLatin1(appName));
        QSettings().clear();
        qputenv("HIERA_EXPLORER_AUTOSAVE_DIR", tmp.filePath(QStringLiteral("autosave")).toUtf8());
        return tmp.isValid() && UiTest::copyTree(testpaths::demoDir(), demoPath(QString()));
    }

    QString demoPath(const QString& relative) const { return tmp.filePath(QStringLiteral("demo/") + relative); }

    void createWindow()
    {
        window = std::make_unique<MainWindow>();
        testers.clear();
        for (QAbstractItemModel* model : window->findChildren<QAbstractItemModel*>())
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::QtTest));
        questions.clear();
        questionKinds.clear();
        savePaths.clear();
        promptedKinds.clear();
        window->setQuestionHandler([this](MainWindow::Question question, const QString& text) {
            questions << text;
            questionKinds << question;
            return MainWindow::Answer::Discard;
        });
        UiTest::part<FactsDocument>(window)->setSavePathPrompt([this](const QString&, FactsDocument::SaveKind kind) {
            promptedKinds << kind;
            return savePaths.isEmpty() ? QString() : savePaths.takeFirst();
        });
        window->show();
    }

    void destroyWindow()
    {
        if (!window)
            return;
        QTRY_VERIFY(!UiTest::part<LookupRunner>(window)->isBusy());
        UiTest::part<FactsDocument>(window)->undoStack()->setClean();
        testers.clear();
        window.reset();
    }

    bool openFactsAndWait(const QString& path)
    {
        QSignalSpy finished(window.get(), &MainWindow::factsLoadFinished);
        if (!window->openFacts(path))
            return false;
        return finished.wait(timeoutMs) && finished.last().at(0).toBool();
    }

    // web01's facts (or `facts`) on the demo copy, looking up `key`; true once the answer is shown.
    bool openDemoCopy(const QString& key, const QString& facts = QStringLiteral("facts/web01.example.com.yaml"))
    {
        if (!openFactsAndWait(demoPath(facts)))
            return false;
        window->openHierarchy(demoPath(QStringLiteral("hiera.yaml")));
        window->setKey(key);
        return waitForAnswer(key);
    }

    bool waitForAnswer(const QString& key)
    {
        return QTest::qWaitFor(
            [&] {
                return UiTest::part<AnswerPanel>(window)->outcome()
                    && UiTest::part<AnswerPanel>(window)->outcome()->request.key == key.toStdString()
                    && !UiTest::part<LookupRunner>(window)->isBusy();
            },
            timeoutMs);
    }

    QTemporaryDir tmp;
    std::unique_ptr<MainWindow> window;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    QStringList questions;
    QList<MainWindow::Question> questionKinds; // in the order asked, with `questions`
    QStringList savePaths; // what the "save as" prompt answers, front first (empty: cancelled)
    QList<FactsDocument::SaveKind> promptedKinds;
};
