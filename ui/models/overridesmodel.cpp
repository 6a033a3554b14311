#include "models/overridesmodel.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QDir>
#include <QFileInfo>
#include <QPalette>

#include <algorithm>

namespace {
using Outcome = hiera::SourceContribution::Outcome;

QList<QStandardItem*> row(const QString& where, const hiera::Value& value, const hiera::SourceLocation& at, bool greyed,
                          bool reveal, const QString& base)
{
    const hiera::Value shown = reveal ? value : hiera::redactSecrets(value);
    QList<QStandardItem*> items{
        new QStandardItem(where),
        new QStandardItem(ValueConvert::cellShown(QString::fromStdString(hiera::cellText(shown)))),
        // From the repository's root, as every view names files (common.yaml alone is ambiguous with modules).
        new QStandardItem(ValueConvert::locationText(at, base))};
    for (QStandardItem* item : items) {
        item->setEditable(false);
        item->setData(QString::fromStdString(at.file), HieraRoles::SourceFileRole);
        item->setData(at.line, HieraRoles::SourceLineRole);
        item->setData(at.column, HieraRoles::SourceColumnRole);
        item->setData(greyed, OverridesModel::OverriddenRole);
        item->setToolTip(QDir::toNativeSeparators(QString::fromStdString(at.toString())));
        if (greyed)
            item->setForeground(QPalette().brush(QPalette::Disabled, QPalette::Text));
    }
    return items;
}

// Why a level gave the answer nothing, in the words of the Sources tab.
QString outcomeNote(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Removed:
        return OverridesModel::tr("knocked out: a knockout above removed all of it");
    case Outcome::RootOnly:
        return OverridesModel::tr("root key only: nothing at the dotted path");
    case Outcome::Shadowed:
        return OverridesModel::tr("shadowed: a level above was found first");
    default:
        return OverridesModel::tr("overridden: the answer uses none of this");
    }
}
} // namespace

OverridesModel::OverridesModel(QObject* parent) : QStandardItemModel(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("Where"), tr("Value"), tr("File")});
}

void OverridesModel::setResult(const OverrideChainPtr& result, bool reveal, const QString& baseDirectory)
{
    m_result = result;
    removeRows(0, rowCount());
    if (!result)
        return;
    const QString& base = baseDirectory;
    auto* levels = new QStandardItem(tr("Every level holding %1").arg(QString::fromStdString(result->key)));
    auto* leaves = new QStandardItem(tr("Each leaf of the answer: where it came from, what it overrode"));
    for (QStandardItem* group : {levels, leaves})
        group->setEditable(false);
    // With one layer (a lone hiera.yaml) its name says nothing; with several, each level names its own.
    const bool oneLayer = std::all_of(result->levels.begin(), result->levels.end(), [&](const hiera::OverrideLevel& l) {
        return l.layer == result->levels.front().layer;
    });
    for (const hiera::OverrideLevel& level : result->levels) {
        const QString where = level.layer.empty() || oneLayer
            ? QString::fromStdString(level.level)
            : QStringLiteral("%1 (%2)").arg(QString::fromStdString(level.level), QString::fromStdString(level.layer));
        auto items = row(where, level.value, level.location, !level.contributed, reveal, base);
        if (!level.contributed)
            items[0]->setToolTip(outcomeNote(level.outcome));
        levels->appendRow(items);
    }
    for (const hiera::OverrideLeaf& leaf : result->leaves) {
        const QString where =
            leaf.path.empty() ? QString::fromStdString(result->key) : QString::fromStdString(leaf.path);
        auto items = row(where, leaf.value, leaf.origin, false, reveal, base);
        // A merged array: every element under it with the level it came from, when they differ.
        const bool severalFiles = std::any_of(leaf.elements.begin(), leaf.elements.end(),
                                              [&](const auto& e) { return e.origin.file != leaf.origin.file; });
        if (severalFiles) {
            for (const hiera::OverrideElement& e : leaf.elements)
                items[0]->appendRow(row(tr("[%1] from %2").arg(e.index).arg(QString::fromStdString(e.level)), e.value,
                                        e.origin, false, reveal, base));
        }
        for (const hiera::OverriddenValue& below : leaf.overrode)
            items[0]->appendRow(row(tr("overrode %1").arg(QString::fromStdString(below.level)), below.value,
                                    below.location, true, reveal, base));
        for (const hiera::RemovedValue& removed : result->removed) {
            if (removed.path != leaf.path)
                continue;
            auto gone =
                row(tr("removed from %1 by %2 (%3)")
                        .arg(QString::fromStdString(removed.level), QString::fromStdString(removed.removedByLevel),
                             ValueConvert::locationText(removed.removedBy, base)),
                    removed.value, removed.location, true, reveal, base);
            gone[0]->setToolTip(
                tr("Knocked out by %1")
                    .arg(QDir::toNativeSeparators(QString::fromStdString(removed.removedBy.toString()))));
            items[0]->appendRow(gone);
        }
        leaves->appendRow(items);
    }
    appendRow({levels, new QStandardItem, new QStandardItem});
    appendRow({leaves, new QStandardItem, new QStandardItem});
}
