#pragma once

// FactValueDelegate — picks the fact editor by the row's type (GammaRay's property editor habit):
// a combo box for booleans, a line edit with a validator for 64-bit integers (QSpinBox is 32-bit), a
// validated line edit for floats, a plain one for strings, and a type combo box for the Type column.

#include <QStyledItemDelegate>

namespace hiera::ui {

class FactValueDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

} // namespace hiera::ui
