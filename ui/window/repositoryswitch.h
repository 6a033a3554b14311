#pragma once

// What a repository switch keeps of the one before: the facts stay when the new hierarchy's paths can
// use them (they supply at least one variable those paths interpolate, `environment` aside, which
// every scope has), else they are closed, so that no path silently interpolates another repository's
// node — or nothing — without a word. The key and the key filters are decided by MainWindow; this
// says what to tell the user about the facts.

#include "models/snapshots.h"

#include <QString>
#include <QStringList>

namespace hiera::ui {

namespace RepositorySwitch {

struct FactsVerdict
{
    bool keep = true;
    QStringList used; // the variables the new hierarchy's paths interpolate (environment left out)
    QStringList supplied; // ... of which the facts have a value
    QStringList missing; // ... of which they have none
};

// `scope` is the facts document's scope tree (facts, trusted, top-scope variables).
FactsVerdict judgeFacts(const hiera::Engine& engine, const hiera::Value& scope);

// One sentence about the facts for the switch's notice ("kept the facts of web01 …"); `name` is how
// the facts are called (their file or node).
QString factsSentence(const FactsVerdict& verdict, const QString& name);

} // namespace RepositorySwitch

} // namespace hiera::ui
