#include "document/factsdocument.h"

#include "document/demo.h"
#include "document/factcommands.h"
#include "facts/puppetdbnode.h"
#include "jobs/lookuprunner.h"
#include "models/facttreemodel.h"
#include "models/valueconvert.h"

#include <hiera/facts.h>

#include <hiera/valueformat.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>
#include <QTimer>
#include <QUndoStack>

namespace hiera::ui {

using hiera::Value;

namespace {
// Unsaved edits reach the autosave a second after the last one, and every five seconds at the latest
// while the user keeps editing.
constexpr int autosaveDelayMs = 1000;
constexpr int autosavePeriodMs = 5000;
} // namespace

FactsDocument::FactsDocument(LookupRunner* runner, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
    , m_model(new FactTreeModel(this))
    , m_undoStack(new QUndoStack(this))
    , m_edits(std::make_unique<UndoableFactEdits>(m_undoStack))
    , m_autosaveTimer(new QTimer(this))
    , m_autosaveTick(new QTimer(this))
{
    m_model->setEdits(m_edits.get());
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(autosaveDelayMs);
    m_autosaveTick->setInterval(autosavePeriodMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &FactsDocument::writeAutosave);
    connect(m_autosaveTick, &QTimer::timeout, this, &FactsDocument::writeAutosave);

    connect(m_model, &FactTreeModel::factsChanged, this, [this] {
        ++m_changes;
        m_scopeDirty = true;
        // Whether the edit leaves the scope unsaved is decided when the timer fires: the undo stack
        // moves its clean state only after the command that changed the model.
        m_autosavePending = true;
        m_autosaveTimer->start();
        Q_EMIT factsChanged();
    });
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            discardAutosave(); // saved, or undone back to the saved state: nothing left to recover
        else
            m_autosaveTick->start();
        Q_EMIT modifiedChanged(!clean);
    });
    connect(m_runner, &LookupRunner::factsRead, this, &FactsDocument::onFactsRead);
    connect(m_runner, &LookupRunner::factsReadFailed, this, &FactsDocument::onFactsReadFailed);
    connect(m_runner, &LookupRunner::autosaveRead, this, &FactsDocument::onAutosaveRead);
}

FactsDocument::~FactsDocument()
{
    // QUndoStack's destructor clears the stack, which announces a clean state: that must not delete the
    // autosave of edits nobody saved (the next start offers them back).
    m_undoStack->disconnect(this);
    m_model->disconnect(this);
}

bool FactsDocument::isModified() const
{
    return !m_undoStack->isClean();
}

QString FactsDocument::node() const
{
    return m_form.shape == FactsForm::Shape::PuppetDB ? ValueConvert::toQString(m_form.node) : QString();
}

QString FactsDocument::displayName() const
{
    const QString name = node();
    return name.isEmpty() ? QFileInfo(m_path).fileName() : PuppetDBNode::displayName(m_path, name);
}

Value FactsDocument::scope()
{
    if (m_scopeDirty) {
        m_scope = m_model->toValue();
        m_scopeDirty = false;
    }
    return m_scope;
}

// ---------------------------------------------------------------------------------------------------
// Reading

bool FactsDocument::open(const QString& path)
{
    if (!maybeSave())
        return false;
    read(path);
    return true;
}

bool FactsDocument::openNode(const QString& exportPath, const QString& node)
{
    if (!maybeSave())
        return false;
    read(exportPath, node);
    return true;
}

void FactsDocument::read(const QString& path, const QString& node)
{
    const QString file = QFileInfo(path).absoluteFilePath();
    m_changesAtRead = m_changes;
    m_runner->readFacts(file, node);
    const QString what = node.isEmpty() ? QDir::toNativeSeparators(file) : PuppetDBNode::displayName(file, node);
    Q_EMIT message(MessageBanner::Kind::Information, tr("Reading facts from %1…").arg(what));
    Q_EMIT statusMessage(tr("Reading facts from %1…").arg(what));
    Q_EMIT readStarted(file);
}

bool FactsDocument::isReading() const
{
    return m_runner->isReadingFacts();
}

bool FactsDocument::isSettling() const
{
    return m_runner->isReadingFacts() || m_runner->isReadingAutosave();
}

void FactsDocument::onFactsRead(const QString& path, const std::shared_ptr<FactsFile::Contents>& facts)
{
    // Unsaved edits were asked about before the read started. The panel was disabled since, but an edit
    // can still come in (an undo, a script): ask before replacing that, and keep it if the user says so.
    const bool editedMeanwhile = m_changes != m_changesAtRead;
    if (editedMeanwhile && isModified() && !maybeSave()) {
        finishRead();
        Q_EMIT message(
            MessageBanner::Kind::Warning,
            tr("Kept the unsaved edits; the facts of %1 were not applied.").arg(QDir::toNativeSeparators(path)));
        Q_EMIT readFinished(false);
        return;
    }
    Q_EMIT message(MessageBanner::Kind::Information, QString());
    const bool node = facts->form.shape == FactsForm::Shape::PuppetDB;
    Q_EMIT statusMessage(
        tr("Read facts from %1")
            .arg(node ? PuppetDBNode::displayName(path, ValueConvert::toQString(facts->form.node)) : path));
    // The tree and the scope were made on the worker: nothing here is linear in the number of facts but
    // the view's own layout. (The previous tree goes back to the runner, which frees it on a worker.)
    m_model->setPrepared(*facts->tree);
    m_scope = std::move(facts->scope);
    m_fileScope = m_scope; // shared storage: no copy
    m_scopeDirty = false;
    m_undoStack->clear();
    m_form = std::move(facts->form);
    m_stamp = facts->stamp;
    setPath(path);
    finishRead();
    Q_EMIT readFinished(true);
}

void FactsDocument::onFactsReadFailed(const QString& path, const QString& text)
{
    Q_UNUSED(path) // the message names the file
    Q_EMIT message(MessageBanner::Kind::Error, text);
    Q_EMIT statusMessage(tr("Reading facts failed"));
    finishRead();
    Q_EMIT readFinished(false);
}

void FactsDocument::finishRead()
{
    if (auto entry = std::exchange(m_pendingRecovery, nullptr))
        offerRecovery(*entry);
    Q_EMIT settled(); // the lookups that waited for these facts
}

void FactsDocument::setPath(const QString& path)
{
    // Another node of the same export is another document too (m_form says which, set before this).
    if (path == m_path && node() == m_pathNode)
        return;
    m_path = path;
    m_pathNode = node();
    Q_EMIT pathChanged(m_path);
}

// ---------------------------------------------------------------------------------------------------
// Saving

bool FactsDocument::saveTo(const QString& path, bool factsOnly)
{
    const FactsForm::Shape shape = factsOnly ? FactsForm::Shape::Facts : FactsForm::Shape::Scope;
    const bool sameFile = QFileInfo(path).absoluteFilePath() == m_path;
    // Over the file the facts came from in its own shape: edit it in place (its comments stay).
    const FactsForm::Form form = sameFile && m_form.shape == shape ? m_form : FactsForm::forNewFile(shape, path);
    return writeFile(path, form, !factsOnly);
}

bool FactsDocument::writeFile(const QString& path, const FactsForm::Form& form, bool becomesDocument)
{
    // The bundled demo is part of the installation (or the source tree): never written.
    if (Demo::isDemoFile(path)) {
        Q_EMIT message(MessageBanner::Kind::Error,
                       tr("Cannot save %1: the bundled demo is not written. Save the facts as another file.")
                           .arg(QDir::toNativeSeparators(path)));
        return false;
    }
    // Another program (an editor, a facts refresh, git) changed the file since it was read here: its
    // change would be lost without a word, so the user decides.
    // A PuppetDB export is compared entry by entry instead (PuppetDBNode::write): other nodes' changes
    // are kept anyway.
    const QString name = QDir::toNativeSeparators(path);
    const bool overDocument = !m_path.isEmpty() && QFileInfo(path).absoluteFilePath() == m_path;
    if (overDocument && m_stamp && form.shape != FactsForm::Shape::PuppetDB && FactsFile::stampOf(path) != *m_stamp) {
        const QString text = FactsFile::stampOf(path).size < 0
            ? tr("%1 was deleted since it was read here. Save the facts shown here as %1 again?").arg(name)
            : tr("%1 changed on disk since it was read here. Overwrite it with the facts shown here (the change made "
                 "elsewhere is lost)? To keep both, cancel and use File ▸ Save Facts As…")
                  .arg(name);
        if (ask(Question::OverwriteChanged, text) != Answer::Accept) {
            Q_EMIT statusMessage(tr("Not saved: %1 changed on disk").arg(name));
            return false;
        }
    }
    const Value current = scope();
    FactsForm::Written written;
    try {
        // A node of a PuppetDB export goes back into its entry of the export as the export is now.
        if (form.shape != FactsForm::Shape::PuppetDB) {
            written = FactsForm::write(form, current);
        } else {
            try {
                written = PuppetDBNode::write(path, form, current);
            } catch (const PuppetDBNode::EntryChanged&) {
                const QString text =
                    tr("The entry for %1 in %2 changed on disk since it was read here. Write the facts "
                       "shown here over it (the change made elsewhere is lost; the other nodes stay as "
                       "they are now)?")
                        .arg(ValueConvert::toQString(form.node), name);
                if (ask(Question::OverwriteChanged, text) != Answer::Accept) {
                    Q_EMIT statusMessage(
                        tr("Not saved: the entry for %1 changed on disk").arg(ValueConvert::toQString(form.node)));
                    return false;
                }
                written = PuppetDBNode::write(path, form, current, true);
            }
        }
    } catch (const PuppetDBNode::NodeGone&) {
        Q_EMIT message(
            MessageBanner::Kind::Error,
            tr("Cannot save: %1 no longer holds the node %2. The edits are kept (Save Facts As… writes them to a "
               "file of their own).")
                .arg(QDir::toNativeSeparators(path), ValueConvert::toQString(form.node)));
        return false;
    } catch (const std::exception& e) {
        Q_EMIT message(MessageBanner::Kind::Error, tr("Cannot write facts: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    const QByteArray& bytes = written.bytes;
    // QSaveFile writes a new file and renames it over the target: over a device or a FIFO (/dev/full,
    // as root) that would replace the special file itself. Only regular files (or new ones) are saved to.
    if (const QFileInfo target(path); target.exists() && !target.isFile()) {
        Q_EMIT message(MessageBanner::Kind::Error, tr("Cannot save %1: it is not a regular file").arg(path));
        return false;
    }
    // QSaveFile: a crash or a full disk never leaves a half-written facts file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        Q_EMIT message(MessageBanner::Kind::Error, tr("Cannot save %1: %2").arg(path, file.errorString()));
        return false;
    }
    // Read it back: a full file system (or a device such as /dev/full named as the file) can take the
    // bytes without an error and keep none of them; the edits must then stay unsaved.
    if (QFile back(path); !back.open(QIODevice::ReadOnly) || back.read(bytes.size() + 1) != bytes) {
        Q_EMIT message(MessageBanner::Kind::Error,
                       tr("Cannot save %1: the file does not hold what was written (is the disk full?)").arg(path));
        return false;
    }
    // What the file could not keep is said once, in the facts panel, until the next save or read.
    QStringList notes;
    if (written.commentsDropped)
        notes << tr("Facts were added, removed or renamed, so the file was written anew: only its leading "
                    "comments were kept.");
    if (form.shape != FactsForm::Shape::Scope) {
        if (const QStringList lost = notInFactsFile(form); !lost.isEmpty())
            notes << tr("A facts file does not hold %1: File ▸ Save Scope As… keeps them.")
                         .arg(lost.join(QStringLiteral(", ")));
    }
    Q_EMIT message(notes.isEmpty() ? MessageBanner::Kind::Information : MessageBanner::Kind::Warning,
                   notes.isEmpty()
                       ? QString()
                       : tr("Saved %1. %2").arg(QDir::toNativeSeparators(path), notes.join(QLatin1Char(' '))));
    if (becomesDocument || overDocument)
        m_stamp = FactsFile::stampOf(path); // what this save left: the next one compares with it
    if (becomesDocument) {
        m_fileScope = scope();
        m_form = written.form;
        setPath(QFileInfo(path).absoluteFilePath());
        discardAutosave(); // also when the stack was clean already (saved as another file)
        m_undoStack->setClean();
    }
    Q_EMIT statusMessage(tr("Saved %1")
                             .arg(form.shape == FactsForm::Shape::PuppetDB
                                      ? PuppetDBNode::displayName(path, ValueConvert::toQString(form.node))
                                      : path));
    Q_EMIT fileWritten(QFileInfo(path).absoluteFilePath());
    return true;
}

QStringList FactsDocument::notInFactsFile(const FactsForm::Form& form) const
{
    const Value current = m_scopeDirty ? m_model->toValue() : m_scope;
    if (!current.isHash())
        return {};
    const Value* facts = current.asHash().find(std::string_view("facts"));
    Value rebuilt;
    try {
        const Value f = facts && facts->isHash() ? *facts : Value(hiera::Hash());
        // A PuppetDB node is named by its entry's certname, as reading it names it.
        const bool node = form.shape == FactsForm::Shape::PuppetDB;
        rebuilt = hiera::scopeFromFacts(f, node ? form.node : std::string());
    } catch (const std::exception&) {
        return {};
    }
    QStringList lost;
    for (const auto& entry : current.asHash()) {
        const Value* again = rebuilt.asHash().find(entry.key);
        if (!again || !(*again == entry.value))
            lost << ValueConvert::keyText(entry.key);
    }
    return lost;
}

bool FactsDocument::save()
{
    if (m_path.isEmpty() || Demo::isDemoFile(m_path))
        return saveAs();
    return writeFile(m_path, m_form, true);
}

bool FactsDocument::saveAs()
{
    const QString path = m_savePathPrompt ? m_savePathPrompt(m_path, SaveKind::Facts) : QString();
    if (path.isEmpty())
        return false;
    // The same form; its text (and so its comments) goes along unless YAML becomes JSON or back. A node of
    // a PuppetDB export becomes a facts file of its own.
    const bool ownForm = !m_path.isEmpty() && m_form.shape != FactsForm::Shape::PuppetDB;
    FactsForm::Form form = FactsForm::forNewFile(ownForm ? m_form.shape : FactsForm::Shape::Facts, path);
    if (form.json == m_form.json && ownForm)
        form = m_form;
    return writeFile(path, form, true);
}

bool FactsDocument::saveScopeAs()
{
    QString suggestion = m_path;
    if (!suggestion.isEmpty() && m_form.shape != FactsForm::Shape::Scope) {
        const QString base = node().isEmpty() ? QFileInfo(m_path).completeBaseName() : node();
        suggestion = QFileInfo(m_path).dir().filePath(base + QStringLiteral("-scope.yaml"));
    }
    const QString path = m_savePathPrompt ? m_savePathPrompt(suggestion, SaveKind::Scope) : QString();
    if (path.isEmpty())
        return false;
    const bool sameFile = QFileInfo(path).absoluteFilePath() == m_path && m_form.shape == FactsForm::Shape::Scope;
    return writeFile(path, sameFile ? m_form : FactsForm::forNewFile(FactsForm::Shape::Scope, path), true);
}

bool FactsDocument::maybeSave(bool revertOnDiscard)
{
    if (!isModified())
        return true;
    const QString text = revertOnDiscard
        ? tr("The facts have unsaved changes. Save them before opening another hierarchy?\n"
             "Discard goes back to the facts as they were last saved.")
        : tr("The facts have unsaved changes. Save them first?");
    // save() asks for a name then: the question says so, so that no one expects the demo's file written.
    const bool needsName = m_path.isEmpty() || Demo::isDemoFile(m_path);
    switch (ask(needsName ? Question::SaveChangesAs : Question::SaveChanges, text)) {
    case Answer::Accept:
        return save();
    case Answer::Discard:
        discardAutosave();
        if (revertOnDiscard)
            revert();
        return true;
    case Answer::Cancel:
        break;
    }
    return false;
}

void FactsDocument::close()
{
    // Not the autosave: that is the next hierarchy's (setHierarchy comes after), or was asked about.
    m_model->setScope(Value(hiera::Hash()));
    m_undoStack->clear();
    m_fileScope = Value(hiera::Hash());
    m_form = FactsForm::Form{};
    m_stamp.reset();
    setPath(QString());
    Q_EMIT modifiedChanged(false);
}

FactsDocument::Answer FactsDocument::ask(Question question, const QString& text)
{
    return m_questionHandler ? m_questionHandler(question, text) : Answer::Cancel;
}

void FactsDocument::revert()
{
    // Back to the facts as they were last opened or saved here: the undo stack has them, with no file
    // to read (and the edits stay on the redo stack).
    if (m_undoStack->cleanIndex() >= 0) {
        m_undoStack->setIndex(m_undoStack->cleanIndex());
        return;
    }
    if (!m_path.isEmpty() && QFileInfo::exists(m_path)) {
        read(m_path, node()); // the stack lost its clean state: read the file again, in the background
        return;
    }
    m_model->setScope(Value(hiera::Hash()));
    m_undoStack->clear();
}

// ---------------------------------------------------------------------------------------------------
// Autosave and recovery

void FactsDocument::setHierarchy(const QString& hieraYaml)
{
    if (hieraYaml == m_hieraYaml)
        return;
    m_hieraYaml = hieraYaml;
    // The autosave is offered before the first lookup, so that recovered facts give the first answer:
    // lookups wait for it (isSettling()).
    m_pendingRecovery.reset();
    m_runner->readAutosave(hieraYaml);
}

QString FactsDocument::autosaveFile() const
{
    return FactsAutosave::fileFor(m_hieraYaml);
}

void FactsDocument::setAutosaveDelays(int afterEditMs, int periodMs)
{
    m_autosaveTimer->setInterval(afterEditMs);
    m_autosaveTick->setInterval(periodMs);
}

void FactsDocument::writeAutosave()
{
    m_autosaveTimer->stop();
    if (!isModified()) {
        m_autosavePending = false;
        m_autosaveTick->stop();
        return;
    }
    if (!m_autosavePending)
        return;
    QString error;
    if (!FactsAutosave::write(m_hieraYaml, m_path, node(), scope(), &error)) {
        Q_EMIT statusMessage(tr("Cannot autosave the facts: %1").arg(error));
        return;
    }
    if (!m_autosaveKey.isEmpty() && m_autosaveKey != m_hieraYaml)
        FactsAutosave::remove(m_autosaveKey); // the edits moved on to another hierarchy
    m_autosaveKey = m_hieraYaml;
    m_autosavePending = false;
}

void FactsDocument::discardAutosave()
{
    m_autosaveTimer->stop();
    m_autosaveTick->stop();
    m_autosavePending = false;
    FactsAutosave::remove(m_hieraYaml);
    if (!m_autosaveKey.isEmpty())
        FactsAutosave::remove(m_autosaveKey);
    m_autosaveKey.clear();
}

void FactsDocument::onAutosaveRead(const QString& hieraYaml, const std::shared_ptr<const FactsAutosave::Entry>& entry)
{
    if (entry && hieraYaml == m_hieraYaml) {
        if (m_runner->isReadingFacts())
            m_pendingRecovery = entry; // offered on top of the facts being read, once they are in
        else
            offerRecovery(*entry);
    }
    Q_EMIT settled(); // the lookups that waited for the autosave
}

void FactsDocument::offerRecovery(const FactsAutosave::Entry& entry)
{
    const QString from = entry.factsPath.isEmpty() ? tr("facts that were never saved")
        : entry.factsNode.isEmpty()                ? QDir::toNativeSeparators(entry.factsPath)
                                                   : PuppetDBNode::displayName(entry.factsPath, entry.factsNode);
    const QString text = tr("Fact edits for this hierarchy were not saved when Hiera Explorer last closed "
                            "(%1, autosaved %2). Recover them?")
                             .arg(from, QLocale().toString(entry.written, QLocale::ShortFormat));
    switch (ask(Question::RecoverAutosave, text)) {
    case Answer::Accept:
        // The form read belongs to another file (or node): it gets the default one, or the node's entry.
        if (entry.factsPath != m_path || entry.factsNode != node())
            m_form = entry.factsNode.isEmpty() ? FactsForm::forNewFile(FactsForm::Shape::Facts, entry.factsPath)
                                               : PuppetDBNode::formFor(entry.factsNode);
        if (entry.factsPath != m_path) {
            m_stamp.reset();
            m_fileScope = hiera::Value();
        }
        setPath(entry.factsPath);
        Q_EMIT message(MessageBanner::Kind::Information, QString());
        // Undoable, and it leaves the scope unsaved: the facts file still holds the old facts.
        m_undoStack->push(new ReplaceScopeCommand(m_model, entry.scope, tr("Recover autosaved facts")));
        Q_EMIT statusMessage(tr("Recovered the unsaved fact edits"));
        break;
    case Answer::Discard:
        FactsAutosave::remove(m_hieraYaml);
        break;
    case Answer::Cancel:
        break;
    }
}

} // namespace hiera::ui
