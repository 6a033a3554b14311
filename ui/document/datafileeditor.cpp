#include "document/datafileeditor.h"

#include "document/demo.h"
#include "jobs/editrunner.h"
#include "jobs/lookuprunner.h"
#include "jobs/repositoryoptions.h"
#include "widgets/sourceviewer.h"

#include <hiera/engine.h>
#include <hiera/nodes/nodelibrary.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>

#include <utility>

namespace hiera::ui {

namespace {
// A parse after each pause in typing, not after each key: the newest text is what matters, and a
// YAML error in a half-typed line should not flash while the user is still typing it.
constexpr int parseDelayMs = 50;
} // namespace

DataFileEditor::DataFileEditor(SourceViewer* viewer, EditRunner* edits, LookupRunner* runner, QObject* parent)
    : QObject(parent)
    , m_viewer(viewer)
    , m_edits(edits)
    , m_runner(runner)
    , m_parseTimer(new QTimer(this))
{
    m_parseTimer->setSingleShot(true);
    m_parseTimer->setInterval(parseDelayMs);
    connect(m_parseTimer, &QTimer::timeout, this, [this] {
        // Also when undone back to the file's own text: its parse ends the edit (parsed()).
        if (!m_viewer->currentFile().isEmpty() && m_viewer->isEditable())
            m_edits->parse(m_viewer->currentFile(), m_viewer->editedText());
    });
    connect(viewer, &SourceViewer::fileLoaded, this, &DataFileEditor::fileLoaded);
    connect(viewer, &SourceViewer::textEdited, this, &DataFileEditor::textEdited);
    connect(viewer, &SourceViewer::saveRequested, this, [this] { save(); });
    connect(viewer, &SourceViewer::revertRequested, this, [this] { m_viewer->revert(); });
    connect(viewer, &SourceViewer::changedOnDiskWhileEdited, this, [this](const QString& file) {
        m_viewer->setNotice(tr("%1 changed on disk: your edits are kept; Save asks before overwriting it, Revert "
                               "reads it again")
                                .arg(QDir::toNativeSeparators(file)));
    });
    connect(edits, &EditRunner::textParsed, this, &DataFileEditor::parsed);
    connect(this, &DataFileEditor::editParsed, this, [this](const QString&, const QString& text) { evaluate(text); });
    connect(this, &DataFileEditor::editEnded, this, &DataFileEditor::endEdit);
    connect(edits, &EditRunner::impactEvaluated, this, [this](const RevisionDiffReportPtr& report) {
        if (m_viewer->isModified() && m_edits->sessionFile() == m_viewer->currentFile())
            Q_EMIT editImpactReady(report, m_viewer->currentFile());
    });
    connect(edits, &EditRunner::editEngineReady, this, [this](const EnginePtr& engine) {
        if (engine && m_viewer->isModified() && m_edits->sessionFile() == m_viewer->currentFile())
            useEngine(engine);
    });
    // Another hierarchy, or the same one reloaded: the disk's engine is the new one.
    connect(runner, &LookupRunner::engineLoaded, this, [this] {
        m_swapped = false;
        m_diskEngine.reset();
        m_edits->endSession();
        if (m_viewer->isModified())
            evaluate(m_lastGood);
    });
    viewer->setLeaveGuard([this] { return maybeSave(); });
}

QString DataFileEditor::path() const
{
    return m_viewer->currentFile();
}

bool DataFileEditor::isModified() const
{
    return m_viewer->isModified();
}

QString DataFileEditor::readOnlyReason(const QString& path) const
{
    const QFileInfo info(path);
    const QString hieraYaml = m_runner->hieraYaml();
    const QString root =
        hieraYaml.isEmpty() ? QString() : QFileInfo(RepositoryOptions::rootOf(hieraYaml)).canonicalFilePath();
    const QString file = info.canonicalFilePath();
    if (Demo::isDemoFile(path))
        return tr("a file of the bundled demo, which the explorer never writes");
    if (const EnginePtr engine = m_runner->engine()) {
        for (const hiera::Layer& layer : engine->layers())
            if (!layer.config.path.empty()
                && QFileInfo(QString::fromStdString(layer.config.path)).canonicalFilePath() == file)
                return tr("a hiera.yaml (the hierarchy is reloaded from it when saved): edit it in your editor");
    }
    const QString suffix = info.suffix().toLower();
    if (suffix != QLatin1String("yaml") && suffix != QLatin1String("yml") && suffix != QLatin1String("eyaml")
        && suffix != QLatin1String("json"))
        return tr("not a YAML or JSON data file");
    if (!root.isEmpty() && !file.startsWith(root + QLatin1Char('/')))
        return tr("outside the repository opened (%1): a deployed copy; edit it in the repository")
            .arg(QDir::toNativeSeparators(root));
    // Its owner's write bit too: a file marked read-only stays so for a user who could write it anyway
    // (root), as editors treat it.
    if (!info.isWritable() || !(info.permissions() & QFileDevice::WriteOwner))
        return tr("the file is not writable (its permissions)");
    return {};
}

void DataFileEditor::fileLoaded(const QString& path)
{
    m_parseTimer->stop();
    m_viewer->setReadOnlyReason(readOnlyReason(path));
    m_viewer->showProblem({});
    m_lastGood = m_viewer->editedText();
    Q_EMIT editEnded(path);
}

void DataFileEditor::textEdited()
{
    m_parseTimer->start();
}

void DataFileEditor::parsed(const std::shared_ptr<const ParsedEdit>& parsed)
{
    // A text typed over since, or another file: its own parse follows.
    if (parsed->path != m_viewer->currentFile() || parsed->text != m_viewer->editedText())
        return;
    if (!parsed->error.isEmpty()) {
        // The last text that parsed stays what the answer and the Impact panel show.
        m_viewer->showProblem(parsed->error, parsed->line, parsed->column);
        return;
    }
    m_viewer->showProblem({});
    m_lastGood = parsed->text;
    if (m_viewer->isModified())
        Q_EMIT editParsed(parsed->path, parsed->text);
    else
        Q_EMIT editEnded(parsed->path); // undone back to the file's own text
}

DataFileEditor::Answer DataFileEditor::ask(Question question, const QString& text) const
{
    // No one to ask (a test without a handler): the safe answer.
    return m_questionHandler ? m_questionHandler(question, text) : Answer::Cancel;
}

bool DataFileEditor::save()
{
    const QString path = m_viewer->currentFile();
    if (path.isEmpty() || !m_viewer->isModified())
        return true;
    if (!m_viewer->isEditable())
        return false;
    const DataFileText& read = m_viewer->fileText();
    const QByteArray bytes = read.saved(m_viewer->editedText());
    // Another program's change since the file was read is not overwritten without asking.
    QFile now(path);
    if (now.open(QIODevice::ReadOnly)) {
        const QByteArray onDisk = now.readAll();
        now.close();
        if (onDisk != read.bytes()
            && ask(Question::OverwriteChanged,
                   tr("%1 changed on disk since it was read. Overwrite it with your edits?")
                       .arg(QDir::toNativeSeparators(path)))
                != Answer::Accept)
            return false;
    }
    // Atomically: the file is the old one or the new one, never half written.
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        const QString message = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), out.errorString());
        m_viewer->setNotice(message);
        Q_EMIT saveFailed(message);
        return false;
    }
    m_viewer->markSaved(bytes);
    m_viewer->showProblem({});
    m_lastGood = m_viewer->editedText();
    // The disk's engine reads the saved file at once (its watcher says so too, a moment later).
    if (const EnginePtr disk = m_swapped ? m_diskEngine : m_runner->engine())
        disk->invalidate(path.toStdString());
    Q_EMIT saved(path);
    Q_EMIT editEnded(path);
    return true;
}

bool DataFileEditor::maybeSave()
{
    if (!m_viewer->isModified())
        return true;
    switch (ask(Question::SaveChanges,
                tr("%1 has unsaved edits. Save them?").arg(QDir::toNativeSeparators(m_viewer->currentFile())))) {
    case Answer::Accept:
        return save();
    case Answer::Discard:
        m_viewer->revert();
        return true;
    case Answer::Cancel:
        break;
    }
    return false;
}

void DataFileEditor::setNodeLibrary(NodeLibraryPtr library)
{
    m_library = std::move(library);
    m_edits->endSession();
    if (m_viewer->isModified())
        evaluate(m_lastGood);
}

void DataFileEditor::evaluate(const QString& text)
{
    const EnginePtr disk = m_swapped ? m_diskEngine : m_runner->engine();
    const QString file = m_viewer->currentFile();
    if (!disk || file.isEmpty())
        return;
    if (!m_edits->hasSession() || m_edits->sessionFile() != file) {
        // Without a library the edit still has an engine (the answer follows it); no node is evaluated.
        NodeLibraryPtr library = m_library ? m_library : std::make_shared<const hiera::NodeLibrary>();
        m_edits->startSession(disk, std::move(library), file, RepositoryOptions::rootOf(m_runner->hieraYaml()));
    }
    m_edits->evaluate(text);
}

void DataFileEditor::useEngine(const EnginePtr& engine)
{
    if (!m_swapped) {
        m_diskEngine = m_runner->engine();
        m_swapped = true;
    }
    m_runner->setEngine(engine, m_runner->hieraYaml());
    Q_EMIT answerEngineChanged();
}

void DataFileEditor::endEdit()
{
    m_edits->endSession(); // after a save the disk is another: a new session for the next edit
    if (m_swapped) {
        m_swapped = false;
        m_runner->setEngine(std::exchange(m_diskEngine, nullptr), m_runner->hieraYaml());
        Q_EMIT answerEngineChanged();
    }
    Q_EMIT editImpactCleared();
}

void DataFileEditor::filesChangedOnDisk(const QSet<QString>& files)
{
    if (!m_swapped && !m_edits->hasSession())
        return;
    // The watcher told the engine the lookups run on (the edit's); the disk's must forget them too.
    if (m_diskEngine)
        for (const QString& file : files)
            m_diskEngine->invalidate(file.toStdString());
    m_edits->endSession();
    if (m_viewer->isModified())
        evaluate(m_lastGood);
}

} // namespace hiera::ui
