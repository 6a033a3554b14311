#pragma once

// LookupScheduler — decides when the runner looks up and resolves the scope: a fact edit looks up at
// once (then resolves the hierarchy, once the answer is on screen, so the two do not compete for the
// CPU), typing waits for a short pause, a commit runs now, and nothing runs while the scope is about
// to change (facts being read, an autosave to offer): an answer for facts being replaced would only
// flash by. The panels show what comes back; they subscribe to the runner themselves.

#include <QObject>

class QTimer;

namespace hiera::ui {

class FactsDocument;
class LookupBar;
class LookupRunner;

class LookupScheduler : public QObject
{
    Q_OBJECT
public:
    LookupScheduler(LookupRunner* runner, FactsDocument* facts, LookupBar* bar, QObject* parent = nullptr);

    // The scope or the data changed: look up, then resolve the hierarchy.
    void refresh();

Q_SIGNALS:
    void noKey(); // the key is empty: the answer panels clear
    void waitingForFacts(); // a lookup waits for the facts being read

private:
    void scheduleLookup();
    bool runLookup(); // false if no lookup was started (no key, no engine, facts settling)
    void runScope();

    LookupRunner* m_runner;
    FactsDocument* m_facts;
    LookupBar* m_bar;
    QTimer* m_refreshTimer; // facts changed: lookup, then hierarchy
    QTimer* m_lookupTimer; // key or merge changed: lookup only
    bool m_scopeAfterLookup = false; // resolve the scope when the pending answer is shown
};

} // namespace hiera::ui
