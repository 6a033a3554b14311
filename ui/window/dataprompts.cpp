#include "window/dataprompts.h"

#include <QMessageBox>
#include <QPushButton>

namespace hiera::ui {

DataFileEditor::Answer DataPrompts::ask(QWidget* parent, DataFileEditor::Question question, const QString& text)
{
    using Answer = DataFileEditor::Answer;
    QMessageBox box(parent);
    box.setText(text);
    box.setIcon(QMessageBox::Warning);
    if (question == DataFileEditor::Question::OverwriteChanged) {
        box.setWindowTitle(tr("Data file changed on disk"));
        QAbstractButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole);
        box.setDefaultButton(box.addButton(QMessageBox::Cancel)); // the safe choice on Enter
        box.exec();
        return box.clickedButton() == overwrite ? Answer::Accept : Answer::Cancel;
    }
    box.setWindowTitle(tr("Unsaved data edits"));
    QPushButton* save = box.addButton(QMessageBox::Save);
    QAbstractButton* discard = box.addButton(QMessageBox::Discard);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(save);
    box.exec();
    if (box.clickedButton() == save)
        return Answer::Accept;
    if (box.clickedButton() == discard)
        return Answer::Discard;
    return Answer::Cancel;
}

} // namespace hiera::ui
