#include "document/factcommands.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <QUndoStack>

#include <utility>

namespace hiera::ui {

namespace {
QString keyPathOf(FactTreeModel* model, const FactTreeModel::Path& path)
{
    return model->indexFor(path).data(HieraRoles::KeyPathRole).toString();
}
} // namespace

SetFactValueCommand::SetFactValueCommand(FactTreeModel* model, FactTreeModel::Path path, hiera::Value oldValue,
                                         hiera::Value newValue, QUndoCommand* parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_path(std::move(path))
    , m_old(std::move(oldValue))
    , m_new(std::move(newValue))
{
    const QString what = keyPathOf(m_model, m_path);
    if (m_old.type() != m_new.type())
        setText(QObject::tr("Change type of %1 to %2").arg(what, ValueConvert::typeName(m_new.type())));
    else
        setText(QObject::tr("Edit %1").arg(what));
}

void SetFactValueCommand::undo()
{
    m_model->setNodeValue(m_model->indexFor(m_path), m_old);
}

void SetFactValueCommand::redo()
{
    m_model->setNodeValue(m_model->indexFor(m_path), m_new);
}

RenameFactCommand::RenameFactCommand(FactTreeModel* model, FactTreeModel::Path path, hiera::Value oldKey,
                                     hiera::Value newKey, QUndoCommand* parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_path(std::move(path))
    , m_old(std::move(oldKey))
    , m_new(std::move(newKey))
{
    setText(QObject::tr("Rename %1 to %2").arg(keyPathOf(m_model, m_path), ValueConvert::keyText(m_new)));
}

void RenameFactCommand::undo()
{
    m_model->setNodeKey(m_model->indexFor(m_path), m_old);
}

void RenameFactCommand::redo()
{
    m_model->setNodeKey(m_model->indexFor(m_path), m_new);
}

InsertFactCommand::InsertFactCommand(FactTreeModel* model, FactTreeModel::Path parentPath, int row, hiera::Value key,
                                     hiera::Value value, QUndoCommand* parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_parentPath(std::move(parentPath))
    , m_row(row)
    , m_key(std::move(key))
    , m_value(std::move(value))
{
    const QString parentText = keyPathOf(m_model, m_parentPath);
    const QString keyText = m_key.isNull() ? QStringLiteral("[%1]").arg(m_row) : ValueConvert::keyText(m_key);
    setText(QObject::tr("Add %1").arg(parentText.isEmpty() ? keyText : parentText + QLatin1Char('.') + keyText));
}

void InsertFactCommand::undo()
{
    FactTreeModel::Path path = m_parentPath;
    path << m_row;
    m_model->removeNode(m_model->indexFor(path));
}

void InsertFactCommand::redo()
{
    m_model->insertNode(m_model->indexFor(m_parentPath), m_row, m_key, m_value);
}

RemoveFactCommand::RemoveFactCommand(FactTreeModel* model, FactTreeModel::Path path, QUndoCommand* parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_path(std::move(path))
{
    const QModelIndex index = m_model->indexFor(m_path);
    m_key = m_model->nodeKey(index);
    m_value = m_model->nodeValue(index);
    setText(QObject::tr("Remove %1").arg(keyPathOf(m_model, m_path)));
}

void RemoveFactCommand::undo()
{
    FactTreeModel::Path parentPath = m_path;
    const int row = parentPath.takeLast();
    m_model->insertNode(m_model->indexFor(parentPath), row, m_key, m_value);
}

void RemoveFactCommand::redo()
{
    m_model->removeNode(m_model->indexFor(m_path));
}

ReplaceScopeCommand::ReplaceScopeCommand(FactTreeModel* model, hiera::Value scope, const QString& text,
                                         QUndoCommand* parent)
    : QUndoCommand(text, parent)
    , m_model(model)
    , m_old(model->toValue())
    , m_new(std::move(scope))
{
}

void ReplaceScopeCommand::undo()
{
    m_model->setScope(m_old);
}

void ReplaceScopeCommand::redo()
{
    m_model->setScope(m_new);
}

UndoableFactEdits::UndoableFactEdits(QUndoStack* stack) : m_stack(stack)
{
    setValue = [stack](FactTreeModel& model, const Path& path, const hiera::Value& oldValue,
                       const hiera::Value& newValue) {
        stack->push(new SetFactValueCommand(&model, path, oldValue, newValue));
    };
    rename = [stack](FactTreeModel& model, const Path& path, const hiera::Value& oldKey, const hiera::Value& newKey) {
        stack->push(new RenameFactCommand(&model, path, oldKey, newKey));
    };
    insert = [stack](FactTreeModel& model, const Path& parentPath, int row, const hiera::Value& key,
                     const hiera::Value& value) {
        stack->push(new InsertFactCommand(&model, parentPath, row, key, value));
    };
    remove = [stack](FactTreeModel& model, const Path& path) { stack->push(new RemoveFactCommand(&model, path)); };
    beginGroup = [stack](const QString& text) { stack->beginMacro(text); };
    endGroup = [stack] { stack->endMacro(); };
}

} // namespace hiera::ui
