#include "panels/lookupscheduler.h"

#include "document/factsdocument.h"
#include "jobs/lookuprunner.h"
#include "panels/lookupbar.h"

#include <QTimer>

namespace hiera::ui {

namespace {
// Small enough to feel instant, long enough to fold a burst of keystrokes or a paste into one job.
constexpr int keyDelayMs = 15;
} // namespace

LookupScheduler::LookupScheduler(LookupRunner* runner, FactsDocument* facts, LookupBar* bar, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
    , m_facts(facts)
    , m_bar(bar)
    , m_refreshTimer(new QTimer(this))
    , m_lookupTimer(new QTimer(this))
{
    // A fact edit is one commit of an editor, not a keystroke: it is looked up at once (the zero
    // interval only folds the several changes of one undo step). The runner coalesces what comes faster.
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(0);
    m_lookupTimer->setSingleShot(true);
    m_lookupTimer->setInterval(keyDelayMs);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (runLookup())
            m_scopeAfterLookup = true;
        else
            runScope();
    });
    connect(m_lookupTimer, &QTimer::timeout, this, &LookupScheduler::runLookup);

    connect(facts, &FactsDocument::factsChanged, this, &LookupScheduler::refresh);
    connect(facts, &FactsDocument::settled, this, &LookupScheduler::refresh);
    connect(bar, &LookupBar::edited, this, &LookupScheduler::scheduleLookup);
    connect(bar, &LookupBar::committed, this, &LookupScheduler::runLookup);
    // Through the refresh timer: whoever else hears of the new engine (the facts document reading its
    // autosave) has done so before the first lookup asks whether the scope is settled.
    connect(runner, &LookupRunner::engineLoaded, this, &LookupScheduler::refresh);
    connect(runner, &LookupRunner::lookupFinished, this, [this] {
        if (std::exchange(m_scopeAfterLookup, false))
            runScope();
    });
}

void LookupScheduler::refresh()
{
    m_refreshTimer->start();
}

void LookupScheduler::scheduleLookup()
{
    if (!m_refreshTimer->isActive())
        m_lookupTimer->start();
}

void LookupScheduler::runScope()
{
    if (m_runner->engine() && !m_facts->isSettling())
        m_runner->resolveScope(m_facts->scope());
}

bool LookupScheduler::runLookup()
{
    m_lookupTimer->stop();
    AnswerRequest request = m_bar->request();
    if (request.key.empty()) {
        Q_EMIT noKey();
        return false;
    }
    if (!m_runner->engine())
        return false;
    if (m_facts->isSettling()) {
        if (m_facts->isReading())
            Q_EMIT waitingForFacts();
        return false;
    }
    m_runner->lookup(m_facts->scope(), std::move(request));
    return true;
}

} // namespace hiera::ui
