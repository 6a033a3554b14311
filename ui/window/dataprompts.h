#pragma once

// What the window asks the user for the data file edited in the Source pane (document/datafileeditor.h):
// save unsaved data edits? overwrite a data file changed on disk? A message box each, as the facts
// document's questions are asked (factsprompts.h), unless a test answers instead.

#include "document/datafileeditor.h"

#include <QCoreApplication>

class QWidget;

namespace hiera::ui {

class DataPrompts
{
    Q_DECLARE_TR_FUNCTIONS(MainWindow)
public:
    static DataFileEditor::Answer ask(QWidget* parent, DataFileEditor::Question question, const QString& text);
};

} // namespace hiera::ui
