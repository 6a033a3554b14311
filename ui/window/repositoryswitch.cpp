#include "window/repositoryswitch.h"

#include "models/nodelistmodel.h"
#include "models/valueconvert.h"

#include <hiera/nodescope.h>

#include <QCoreApplication>

namespace hiera::ui {

namespace RepositorySwitch {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("RepositorySwitch", text);
}

bool isEnvironment(const QString& variable)
{
    return variable == QLatin1String("environment") || variable == QLatin1String("::environment");
}
} // namespace

FactsVerdict judgeFacts(const hiera::Engine& engine, const hiera::Value& scope)
{
    FactsVerdict verdict;
    // Looked up as the paths look them up: through the one node scope (certname, $facts, $trusted).
    const hiera::NodeScope nodeScope = hiera::NodeScope::ofTree(scope, {});
    for (const QString& variable : NodeListModel::hierarchyFacts(engine)) {
        if (isEnvironment(variable))
            continue;
        verdict.used << variable;
        const std::optional<hiera::Value> value = nodeScope.lookup(ValueConvert::toStd(variable));
        (value && !value->isNull() ? verdict.supplied : verdict.missing) << variable;
    }
    verdict.keep = verdict.used.isEmpty() || !verdict.supplied.isEmpty();
    return verdict;
}

QString factsSentence(const FactsVerdict& verdict, const QString& name)
{
    const QString comma = QStringLiteral(", ");
    if (!verdict.keep)
        return tr("closed the facts of %1: they have none of %2, which its paths use")
            .arg(name, verdict.used.join(comma));
    if (verdict.used.isEmpty())
        return tr("kept the facts of %1 (its paths use no variable)").arg(name);
    QString text = tr("kept the facts of %1: its paths use %2 from them").arg(name, verdict.supplied.join(comma));
    if (!verdict.missing.isEmpty())
        text += tr(" (they lack %1)").arg(verdict.missing.join(comma));
    return text;
}

} // namespace RepositorySwitch

} // namespace hiera::ui
