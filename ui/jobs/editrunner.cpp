#include "jobs/editrunner.h"

#include <hiera/error.h>
#include <hiera/nodes/editimpact.h>
#include <hiera/yaml.h>

#include <QElapsedTimer>

namespace hiera::ui {

EditRunner::EditRunner(QObject* parent)
    : QObject(parent)
    , m_parses(*this, JobChannelBase::Policy::Coalesce, [this](ParsedEditPtr& parsed) { Q_EMIT textParsed(parsed); })
    // One evaluation at a time, the newest text waiting behind it (the one running is asked to stop).
    , m_impacts(*this, JobChannelBase::Policy::Coalesce, [this](Evaluated& evaluated) {
        Q_EMIT editEngineReady(evaluated.engine);
        Q_EMIT impactEvaluated(evaluated.report);
    })
{
}

EditRunner::~EditRunner()
{
    m_progress.cancel();
    m_jobs.waitForIdle();
}

void EditRunner::parse(const QString& path, const QString& text)
{
    m_parses.submit([path, text] {
        auto parsed = std::make_shared<ParsedEdit>();
        parsed->path = path;
        parsed->text = text;
        const std::string file = path.toStdString();
        const hiera::DataFormat format =
            path.endsWith(QLatin1String(".json")) ? hiera::DataFormat::Json : hiera::DataFormat::Yaml;
        try {
            hiera::parseData(text.toStdString(), file, format);
        } catch (const hiera::Error& e) {
            parsed->error = QString::fromUtf8(e.what());
            parsed->line = e.location().line;
            parsed->column = e.location().column;
        } catch (const std::exception& e) {
            parsed->error = path + QStringLiteral(": ") + QString::fromUtf8(e.what());
        }
        return ParsedEditPtr(std::move(parsed));
    });
}

void EditRunner::startSession(EnginePtr engine, NodeLibraryPtr library, const QString& path, const QString& root)
{
    endSession();
    if (!engine || !library)
        return;
    m_session = std::make_shared<const hiera::EditSession>(engine, library, path.toStdString());
    m_sessionFile = path;
    m_root = root;
    m_library = std::move(library);
}

void EditRunner::endSession()
{
    m_progress.cancel();
    m_impacts.invalidate();
    m_session.reset();
    m_sessionFile.clear();
    m_library.reset();
}

void EditRunner::evaluate(const QString& text)
{
    if (!m_session)
        return;
    // A new ticket stops the evaluation of the text before (JobProgress::start).
    m_impacts.submit([session = m_session, library = m_library, root = m_root, text, progress = m_progress.start(),
                      executor = &jobPool().executor()] {
        QElapsedTimer timer;
        timer.start();
        Evaluated out;
        hiera::EditImpactOptions options;
        options.executor = executor;
        options.stop = progress->stop.get_token();
        const std::string edited = text.toStdString();
        hiera::EditImpact impact = session->evaluate(edited, options);
        auto report = std::make_shared<RevisionDiffReport>();
        report->from = tr("on disk");
        report->to = tr("unsaved edit");
        report->fromName = "on disk";
        report->toName = "with the unsaved edit";
        report->root = root.toStdString();
        report->library = library;
        report->error = QString::fromStdString(impact.error);
        report->diff = std::move(impact.diff);
        if (impact.error.empty() && !impact.cancelled)
            out.engine = session->engineWith(edited);
        report->elapsedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        out.report = std::move(report);
        return out;
    });
}

void EditRunner::jobStateChanged()
{
    const bool busy = m_impacts.isBusy();
    if (!busy)
        m_progress.stopPolling();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

} // namespace hiera::ui
