#include "window/factsprompts.h"

#include "document/demo.h"
#include "widgets/reportexport.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace hiera::ui {

using Answer = FactsDocument::Answer;
using Question = FactsDocument::Question;

QString FactsPrompts::askSavePath(QWidget* parent, const QString& suggestion, FactsDocument::SaveKind kind)
{
    const QString title = kind == FactsDocument::SaveKind::Scope ? tr("Save scope (facts, trusted and variables) as")
                                                                 : tr("Save facts as");
    // The bundled demo is never written: its facts are offered a name in the folder of the last export
    // (else the home folder) instead of the demo's own, read-only one.
    QString start = suggestion;
    if (Demo::isDemoFile(suggestion))
        start = QDir(ReportExport::lastFolder()).filePath(QFileInfo(suggestion).fileName());
    return QFileDialog::getSaveFileName(parent, title, start, tr("YAML (*.yaml *.yml);;JSON (*.json)"));
}

FactsDocument::Answer FactsPrompts::ask(QWidget* parent, FactsDocument::Question question, const QString& text)
{
    QMessageBox box(parent);
    box.setText(text);
    QAbstractButton* accept = nullptr;
    QAbstractButton* discard = nullptr;
    if (question == Question::SaveChanges || question == Question::SaveChangesAs) {
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(tr("Unsaved facts"));
        accept = question == Question::SaveChanges ? box.addButton(QMessageBox::Save)
                                                   : box.addButton(tr("Save &As…"), QMessageBox::AcceptRole);
        discard = box.addButton(QMessageBox::Discard);
        box.addButton(QMessageBox::Cancel);
    } else if (question == Question::OverwriteChanged) {
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(tr("Facts file changed on disk"));
        accept = box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole);
        box.setDefaultButton(box.addButton(QMessageBox::Cancel)); // the safe choice on Enter
        box.exec();
        return box.clickedButton() == accept ? Answer::Accept : Answer::Cancel;
    } else {
        box.setIcon(QMessageBox::Question);
        box.setWindowTitle(tr("Recover unsaved facts"));
        accept = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
        discard = box.addButton(QMessageBox::Discard);
        box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
    }
    box.setDefaultButton(qobject_cast<QPushButton*>(accept));
    box.exec();
    if (box.clickedButton() == accept)
        return Answer::Accept;
    if (box.clickedButton() == discard)
        return Answer::Discard;
    return Answer::Cancel;
}

} // namespace hiera::ui
