#include "panels/answersummary.h"

#include "models/contributionmodel.h"
#include "models/explanationmodel.h"
#include "models/valueconvert.h"

#include <hiera/lookupkey.h>
#include <hiera/valueformat.h>

#include <QCoreApplication>
#include <QStringList>

#include <string>
#include <unordered_set>

namespace hiera::ui {

using ValueConvert::toQString;

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("AnswerSummary", text);
}
} // namespace

namespace AnswerSummary {

QString mergeText(const std::optional<hiera::MergeSpec>& spec)
{
    if (!spec || spec->strategy == hiera::MergeStrategy::First)
        return tr("first found");
    QString text = tr("%1 merge").arg(QString::fromLatin1(hiera::mergeStrategyName(spec->strategy)));
    QStringList options;
    if (spec->knockoutPrefix)
        options << QStringLiteral("knockout_prefix %1").arg(toQString(*spec->knockoutPrefix));
    if (spec->sortMergedArrays)
        options << QStringLiteral("sort_merged_arrays");
    if (spec->mergeHashArrays)
        options << QStringLiteral("merge_hash_arrays");
    if (!options.isEmpty())
        text += QStringLiteral(" (%1)").arg(options.join(QStringLiteral(", ")));
    return text;
}

QString mergeSummary(const hiera::TraceNode& root, bool chosenInSelector)
{
    const QString entry = toQString(root.lookupOptionsEntry);
    QString text = mergeText(root.merge);
    if (chosenInSelector) {
        text += tr(", chosen in the merge selector");
        if (!entry.isEmpty() && root.mergeFromLookupOptions)
            text += tr(" (overrides lookup_options entry '%1')").arg(entry);
    } else if (root.mergeFromLookupOptions) {
        text += tr(" from lookup_options entry '%1'").arg(entry);
    } else {
        text += tr(" (default)");
    }
    if (root.lookupOptions && root.lookupOptions->isHash()) {
        QStringList others;
        for (const auto& option : root.lookupOptions->asHash()) {
            const QString name = ValueConvert::keyText(option.key);
            if (name == QLatin1String("merge"))
                continue;
            others << QStringLiteral("%1 %2").arg(name, ExplanationModel::valueText(option.value));
        }
        if (!others.isEmpty()) {
            text += root.mergeFromLookupOptions ? QStringLiteral(", ") : tr("; lookup_options entry '%1': ").arg(entry);
            text += others.join(QStringLiteral(", "));
        }
    }
    return text;
}

QString text(const LookupOutcome& outcome)
{
    const hiera::LookupResult& result = outcome.result;
    QStringList summary;
    int contributed = 0, rootOnly = 0, lacking = 0, missing = 0;
    if (result.trace) {
        std::unordered_set<std::string> contributing; // a file two levels list is one file
        for (const hiera::SourceContribution& row : outcome.contributions) {
            if (row.outcome == ContributionModel::Outcome::Won || row.outcome == ContributionModel::Outcome::Merged)
                contributing.insert(row.path);
            rootOnly += row.outcome == ContributionModel::Outcome::RootOnly;
            lacking += row.outcome == ContributionModel::Outcome::NotFound;
            missing += row.outcome == ContributionModel::Outcome::Missing;
        }
        contributed = static_cast<int>(contributing.size());
        summary << mergeSummary(*result.trace, outcome.request.merge.has_value());
    }
    QString files = contributed == 1 ? tr("1 file contributed") : tr("%1 files contributed").arg(contributed);
    if (rootOnly > 0) {
        const auto key = hiera::LookupKey::tryParse(outcome.request.key);
        const QString root = key ? toQString(key->root()) : toQString(outcome.request.key);
        const QString sub = key ? toQString(key->subKey()) : QString();
        files += rootOnly == 1 ? tr(", 1 with %1 but no %2").arg(root, sub)
                               : tr(", %1 with %2 but no %3").arg(rootOnly).arg(root, sub);
    }
    if (lacking > 0)
        files += tr(", %1 without the key").arg(lacking);
    if (missing > 0)
        files += tr(", %1 missing").arg(missing);
    summary << files;
    summary << tr("%1 ms").arg(outcome.elapsedMs, 0, 'f', 1);
    return summary.join(QStringLiteral(" · "));
}

QString yaml(const LookupOutcome& outcome)
{
    const hiera::LookupResult& result = outcome.result;
    const QString key = toQString(outcome.request.key);
    const auto parsedKey = hiera::LookupKey::tryParse(outcome.request.key);
    QString yaml;
    try {
        if (result.found())
            yaml = QStringLiteral("# %1\n").arg(key) + toQString(hiera::toYaml(result.value));
        if (result.rootFound && parsedKey && parsedKey->isDotted())
            yaml += QStringLiteral("\n# %1 (root key, merged)\n").arg(toQString(parsedKey->root()))
                + toQString(hiera::toYaml(result.rootValue));
    } catch (const std::exception& e) {
        yaml = QString::fromUtf8(e.what());
    }
    return yaml;
}

} // namespace AnswerSummary

} // namespace hiera::ui
