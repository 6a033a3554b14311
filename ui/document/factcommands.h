#pragma once

// Undoable fact edits. Each command remembers rows by path (FactTreeModel::Path) and whole subtrees as
// hiera::Value (a copy is a reference count), then replays the model's primitive operations.

#include "models/facttreemodel.h"

#include <hiera/value.h>

#include <QUndoCommand>

class QUndoStack;

namespace hiera::ui {

// FactTreeModel's edits recorded as the commands below on an undo stack (FactsDocument's): a FactEdits
// whose callbacks push them.
class UndoableFactEdits : public FactEdits
{
public:
    explicit UndoableFactEdits(QUndoStack* stack);
    QUndoStack* stack() const { return m_stack; }

private:
    QUndoStack* m_stack;
};

class SetFactValueCommand : public QUndoCommand
{
public:
    SetFactValueCommand(FactTreeModel* model, FactTreeModel::Path path, hiera::Value oldValue, hiera::Value newValue,
                        QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    FactTreeModel* m_model;
    FactTreeModel::Path m_path;
    hiera::Value m_old;
    hiera::Value m_new;
};

class RenameFactCommand : public QUndoCommand
{
public:
    RenameFactCommand(FactTreeModel* model, FactTreeModel::Path path, hiera::Value oldKey, hiera::Value newKey,
                      QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    FactTreeModel* m_model;
    FactTreeModel::Path m_path;
    hiera::Value m_old;
    hiera::Value m_new;
};

class InsertFactCommand : public QUndoCommand
{
public:
    // Inserts `value` as row `row` of the row at `parentPath` (empty path: the top level).
    InsertFactCommand(FactTreeModel* model, FactTreeModel::Path parentPath, int row, hiera::Value key,
                      hiera::Value value, QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    FactTreeModel* m_model;
    FactTreeModel::Path m_parentPath;
    int m_row;
    hiera::Value m_key;
    hiera::Value m_value;
};

class RemoveFactCommand : public QUndoCommand
{
public:
    RemoveFactCommand(FactTreeModel* model, FactTreeModel::Path path, QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    FactTreeModel* m_model;
    FactTreeModel::Path m_path;
    hiera::Value m_key;
    hiera::Value m_value;
};

class ReplaceScopeCommand : public QUndoCommand
{
public:
    // Replaces the whole scope (recovering an autosave): undo brings the previous one back.
    ReplaceScopeCommand(FactTreeModel* model, hiera::Value scope, const QString& text, QUndoCommand* parent = nullptr);
    void undo() override;
    void redo() override;

private:
    FactTreeModel* m_model;
    hiera::Value m_old;
    hiera::Value m_new;
};

} // namespace hiera::ui
