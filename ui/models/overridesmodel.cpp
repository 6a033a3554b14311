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
QString fileText(const hiera::SourceLocation& at)
{
    if (!at.isValid())
        return {};
    const QString name = QFileInfo(QString::fromStdString(at.file)).fileName();
    return at.line > 0 ? QStringLiteral("%1:%2").arg(name).arg(at.line) : name;
}

QList<QStandardItem*> row(const QString& where, const hiera::Value& value, const hiera::SourceLocation& at,
                          bool overridden, bool reveal)
{
    const hiera::Value shown = reveal ? value : hiera::redactSecrets(value);
    QList<QStandardItem*> items{
        new QStandardItem(where),
        new QStandardItem(ValueConvert::cellShown(QString::fromStdString(hiera::cellText(shown)))),
        new QStandardItem(fileText(at))};
    for (QStandardItem* item : items) {
        item->setEditable(false);
        item->setData(QString::fromStdString(at.file), HieraRoles::SourceFileRole);
        item->setData(at.line, HieraRoles::SourceLineRole);
        item->setData(at.column, HieraRoles::SourceColumnRole);
        item->setData(overridden, OverridesModel::OverriddenRole);
        item->setToolTip(QDir::toNativeSeparators(QString::fromStdString(at.toString())));
        if (overridden)
            item->setForeground(QPalette().brush(QPalette::Disabled, QPalette::Text));
    }
    return items;
}
} // namespace

OverridesModel::OverridesModel(QObject* parent) : QStandardItemModel(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("Where"), tr("Value"), tr("File")});
}

void OverridesModel::setResult(const OverrideChainPtr& result, bool reveal)
{
    m_result = result;
    removeRows(0, rowCount());
    if (!result)
        return;
    auto* levels = new QStandardItem(tr("Every level holding %1").arg(QString::fromStdString(result->key)));
    auto* leaves = new QStandardItem(tr("Each leaf of the answer, and what it overrode"));
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
        auto items = row(where, level.value, level.location, !level.contributed, reveal);
        if (!level.contributed)
            items[0]->setToolTip(tr("Overridden: the answer uses none of this"));
        levels->appendRow(items);
    }
    for (const hiera::OverrideLeaf& leaf : result->leaves) {
        const QString where =
            leaf.path.empty() ? QString::fromStdString(result->key) : QString::fromStdString(leaf.path);
        auto items = row(where, leaf.value, leaf.origin, false, reveal);
        for (const hiera::OverriddenValue& below : leaf.overrode)
            items[0]->appendRow(row(tr("overrode %1").arg(QString::fromStdString(below.level)), below.value,
                                    below.location, true, reveal));
        leaves->appendRow(items);
    }
    appendRow({levels, new QStandardItem, new QStandardItem});
    appendRow({leaves, new QStandardItem, new QStandardItem});
}
