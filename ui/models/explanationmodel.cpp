#include "models/explanationmodel.h"

#include "models/modelroles.h"
#include "models/secretmask.h"
#include "models/statusicons.h"
#include "models/treemodel_impl.h"
#include "models/valueconvert.h"

#include <hiera/lookupkey.h>
#include <hiera/merge.h>
#include <hiera/valueformat.h>

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

namespace hiera::ui {

using hiera::TraceNode;
using ValueConvert::toQString;

namespace {
using Event = TraceNode::Event;
using Kind = TraceNode::Kind;

// A container row takes the strongest event below it: failed > found > result > not found.
int eventRank(Event e)
{
    switch (e) {
    case Event::Failed:
        return 5;
    case Event::Found:
        return 4;
    case Event::Result:
        return 3;
    case Event::Warning:
        return 2;
    case Event::NotFound:
    case Event::LocationNotFound:
    case Event::InvalidKey:
        return 1;
    case Event::None:
        return 0;
    }
    return 0;
}

QColor eventColor(Event e)
{
    switch (e) {
    case Event::Found:
        return QColor(0x26, 0x8a, 0x3e);
    case Event::Result:
        return QColor(0x1c, 0x5f, 0xb8);
    case Event::Failed:
        return QColor(0xc0, 0x1c, 0x28);
    case Event::Warning:
        return QColor(0xb3, 0x5c, 0x00);
    case Event::NotFound:
    case Event::LocationNotFound:
    case Event::InvalidKey:
        return QPalette().color(QPalette::Disabled, QPalette::Text);
    case Event::None:
        break;
    }
    return {};
}
} // namespace

struct ExplanationNode : TreeNode<ExplanationNode>
{
    const TraceNode* node = nullptr;
    Event summary = Event::None; // this node's event, or the strongest below a Level/Layer/Merge
    void add(const TraceNode* n)
    {
        auto owned = std::make_unique<ExplanationNode>();
        ExplanationNode* child = append(std::move(owned));
        child->node = n;
        for (const auto& grandChild : n->children)
            child->add(grandChild.get());
        child->summary = n->event;
        if (n->kind == Kind::Level || n->kind == Kind::Layer || n->kind == Kind::Merge || n->kind == Kind::Location) {
            for (const auto& c : child->children) {
                // Sub-lookups and interpolation are about other keys: their misses say nothing here.
                if (c->node->kind == Kind::SubLookup || c->node->kind == Kind::Interpolation)
                    continue;
                if (eventRank(c->summary) > eventRank(child->summary))
                    child->summary = c->summary;
            }
        }
    }
};

template class TreeModel<ExplanationNode>;

ExplanationModel::ExplanationModel(QObject* parent)
    : TreeModel({tr("Step"), tr("Outcome"), tr("Value"), tr("Origin")}, parent)
{
}

ExplanationModel::~ExplanationModel() = default;

void ExplanationModel::setTrace(hiera::TracePtr trace, const QString& baseDirectory)
{
    auto invisible = std::make_unique<ExplanationNode>();
    if (trace)
        invisible->add(trace.get());
    m_baseDirectory = baseDirectory;
    // The new tree goes in before the old trace is let go: the old nodes point into it.
    resetRoot(std::move(invisible));
    m_trace = std::move(trace);
}

QString ExplanationModel::valueText(const hiera::Value& value)
{
    QString text;
    if (value.isStillEncrypted())
        return SecretMask::stillEncryptedText(value);
    if (value.isScalar()) {
        text = value.isString() ? QLatin1Char('"') + toQString(value.asString()) + QLatin1Char('"')
                                : ValueConvert::displayText(value);
    } else {
        try {
            text = toQString(hiera::toJson(value));
        } catch (const std::exception&) {
            text = ValueConvert::displayText(value); // NaN/Inf have no JSON form
        }
    }
    constexpr int maxLength = 300;
    if (text.size() > maxLength)
        text = text.left(maxLength) + QStringLiteral("…");
    return text;
}

QString ExplanationModel::stepText(const TraceNode& node, const QString& baseDirectory)
{
    const QString name = toQString(node.name);
    const QString key = toQString(node.key);
    switch (node.kind) {
    case Kind::Lookup:
        return tr("Searching for \"%1\"").arg(key);
    case Kind::LookupOptions:
        return key.isEmpty() ? tr("lookup_options") : tr("lookup_options for \"%1\"").arg(key);
    case Kind::Layer:
        return name.isEmpty() ? tr("Data provider") : tr("Data provider: %1").arg(name);
    case Kind::Merge:
        return node.merge
            ? tr("Merge strategy %1").arg(QString::fromLatin1(hiera::mergeStrategyName(node.merge->strategy)))
            : tr("Merge");
    case Kind::Level:
        return tr("Hierarchy entry \"%1\"").arg(name);
    case Kind::Location: {
        const QString path = ValueConvert::shortPath(toQString(node.path), baseDirectory);
        return tr("Path \"%1\"").arg(path.isEmpty() ? toQString(node.originalPath) : path);
    }
    case Kind::Interpolation:
        return tr("Interpolation on \"%1\"").arg(toQString(node.expression));
    case Kind::ScopeRead:
        return tr("Scope variable \"%1\"").arg(name);
    case Kind::SubLookup:
        return tr("%1(\"%2\")").arg(name.isEmpty() ? QStringLiteral("lookup") : name, key);
    case Kind::Dig:
        return tr("Sub key \"%1\"").arg(key);
    case Kind::Segment:
        return tr("Segment \"%1\"").arg(key);
    case Kind::ConvertTo:
        return tr("convert_to");
    case Kind::Message:
        return toQString(node.message);
    }
    return {};
}

QString ExplanationModel::eventText(const TraceNode& node)
{
    switch (node.event) {
    case Event::None:
        return {};
    case Event::Found:
        return tr("found");
    case Event::NotFound:
        return tr("no such key");
    case Event::LocationNotFound:
        return tr("path not found");
    case Event::Result:
        return tr("result");
    case Event::Failed:
        return node.message.empty() ? tr("failed") : tr("failed: %1").arg(toQString(node.message));
    case Event::Warning:
        return node.message.empty() ? tr("warning") : tr("warning: %1").arg(toQString(node.message));
    case Event::InvalidKey:
        return tr("invalid key");
    }
    return {};
}

QVariant ExplanationModel::rowData(const ExplanationNode& row, int column, int role) const
{
    const ExplanationNode* item = &row;
    const TraceNode& node = *item->node;

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case StepColumn:
            return stepText(node, m_baseDirectory);
        case OutcomeColumn:
            return eventText(node);
        case ValueColumn:
            return node.value ? valueText(*node.value) : QString();
        case OriginColumn:
            return ValueConvert::locationText(node.location, m_baseDirectory);
        }
        break;
    case Qt::ToolTipRole: {
        QStringList lines;
        if (node.kind == Kind::Location) {
            if (!node.originalPath.empty())
                lines << tr("Original path: %1").arg(toQString(node.originalPath));
            lines << toQString(node.path);
        }
        if (!node.message.empty())
            lines << toQString(node.message);
        if (node.value && column == ValueColumn) {
            lines << valueText(*node.value);
            if (node.value->isStillEncrypted())
                lines << ValueConvert::displayText(*node.value); // the ENC[...] as written
        }
        if (lines.isEmpty())
            return {};
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole: {
        const QColor color = eventColor(item->summary);
        if (color.isValid())
            return QBrush(color);
        break;
    }
    case Qt::FontRole:
        if (node.event == Event::Found || node.event == Event::Result
            || (node.kind == Kind::Level && item->summary == Event::Found)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case Qt::DecorationRole:
        if (column == ValueColumn && node.value && (node.value->isSecret() || node.value->isStillEncrypted()))
            return StatusIcons::icon(StatusIcons::Kind::Locked);
        if (column != StepColumn)
            break;
        switch (item->summary) {
        case Event::Found:
            return StatusIcons::icon(StatusIcons::Kind::Found);
        case Event::Failed:
            return StatusIcons::icon(StatusIcons::Kind::Failed);
        case Event::Warning:
            return StatusIcons::icon(StatusIcons::Kind::Warning);
        default:
            break;
        }
        break;
    case HieraRoles::SourceFileRole:
        if (node.location.isValid())
            return toQString(node.location.file);
        return toQString(node.path);
    case HieraRoles::SourceLineRole:
        return node.location.line;
    case HieraRoles::SourceColumnRole:
        return node.location.column;
    case HieraRoles::SourceKeyRole:
        if (const auto key = hiera::LookupKey::tryParse(node.key))
            return toQString(key->root());
        return toQString(node.key);
    case HieraRoles::TraceKindRole:
        return static_cast<int>(node.kind);
    case HieraRoles::SecretRole:
        return node.value && node.value->isSecret();
    case HieraRoles::TraceEventRole:
        return static_cast<int>(node.event);
    }
    return {};
}

} // namespace hiera::ui
