#include "window/switchnotice.h"

#include "document/factsdocument.h"
#include "jobs/lookuprunner.h"
#include "panels/allkeyspanel.h"
#include "panels/answerpanel.h"
#include "panels/lookupbar.h"
#include "panels/nodediffpanel.h"
#include "widgets/messagebanner.h"
#include "window/panelsetup.h"
#include "window/repositoryswitch.h"

#include <QDir>
#include <QLineEdit>

namespace hiera::ui {

void SwitchNotice::leave(const WindowParts& parts, const QString& opened)
{
    // What the previous repository held is what is judged: the facts and filters still on screen.
    QStringList notice;
    const EnginePtr engine = parts.runner->engine();
    const hiera::Value facts = parts.facts->scope();
    // Facts being read were chosen for this repository (the demo's, a node's): nothing to judge.
    const bool anyFacts = !parts.facts->path().isEmpty() || (facts.isHash() && !facts.asHash().empty());
    if (engine && anyFacts && !parts.facts->isReading()) {
        const RepositorySwitch::FactsVerdict verdict = RepositorySwitch::judgeFacts(*engine, facts);
        const QString name = parts.facts->path().isEmpty() ? tr("the unsaved facts") : parts.facts->displayName();
        notice << RepositorySwitch::factsSentence(verdict, name);
        if (!verdict.keep)
            parts.facts->close(); // its unsaved edits were asked about before the switch (openHierarchy)
    }
    // Searches typed for the other repository's keys would hide this one's.
    const std::pair<QLineEdit*, QString> keyFilters[] = {
        {parts.allKeysPanel->searchEdit(), tr("the All keys search")},
        {parts.nodeDiffPanel->prefixEdit(), tr("the Compare nodes prefix")},
    };
    for (const auto& [edit, what] : keyFilters) {
        if (edit->text().isEmpty())
            continue;
        notice << tr("cleared %1 “%2”").arg(what, edit->text());
        edit->clear();
    }
    m_notice = notice;
    m_engine = parts.lookupBar->key().isEmpty() ? nullptr : engine;
    if (!m_engine && !notice.isEmpty())
        parts.answerPanel->banner()->showMessage(
            MessageBanner::Kind::Information,
            tr("Opened %1: %2.").arg(QDir::toNativeSeparators(opened), notice.join(QStringLiteral("; "))));
}

void SwitchNotice::settleKey(const WindowParts& parts, const QString& opened)
{
    const LookupOutcomePtr outcome = parts.answerPanel->outcome();
    if (!m_engine || !outcome || outcome->engine != m_engine)
        return; // no switch, or an answer of the engine before
    m_engine = nullptr;
    const QString key = parts.lookupBar->key();
    const bool keep = outcome->result.status != hiera::LookupResult::Status::NotFound;
    m_notice << (keep ? tr("kept the key %1").arg(key)
                      : tr("cleared the key %1, which it does not hold for these facts").arg(key));
    const QString text =
        tr("Opened %1: %2.").arg(QDir::toNativeSeparators(opened), m_notice.join(QStringLiteral("; ")));
    if (keep) {
        parts.answerPanel->banner()->showMessage(MessageBanner::Kind::Information, text);
    } else {
        parts.answerPanel->setNoKeyNotice(text); // said when the emptied key field is answered
        parts.lookupBar->setKey(QString());
    }
}

} // namespace hiera::ui
