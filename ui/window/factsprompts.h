#pragma once

// What the window asks the user for the facts document: a message box for each of its questions (save
// unsaved facts? overwrite a file changed on disk? recover an autosave?) and a file dialog for a name to
// save under. MainWindow hands both to its FactsDocument unless a test answers instead
// (MainWindow::setQuestionHandler).

#include "document/factsdocument.h"

#include <QCoreApplication>

class QWidget;

namespace hiera::ui {

class FactsPrompts
{
    Q_DECLARE_TR_FUNCTIONS(MainWindow) // the texts keep the context they had in mainwindow.cpp
public:
    static FactsDocument::Answer ask(QWidget* parent, FactsDocument::Question question, const QString& text);
    static QString askSavePath(QWidget* parent, const QString& suggestion, FactsDocument::SaveKind kind);
};

} // namespace hiera::ui
