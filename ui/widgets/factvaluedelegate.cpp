#include "widgets/factvaluedelegate.h"

#include "models/facttreemodel.h"
#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <hiera/value.h>

#include <QComboBox>
#include <QLineEdit>
#include <QRegularExpressionValidator>

namespace hiera::ui {

using hiera::Value;

namespace {
// Validators accept intermediate input; FactTreeModel::setData does the final, exact parse (range
// included), so a bad value is refused rather than half-stored.
const QRegularExpression& integerPattern()
{
    static const QRegularExpression re(QStringLiteral("[+-]?[0-9]{0,19}"));
    return re;
}
const QRegularExpression& floatPattern()
{
    static const QRegularExpression re(
        QStringLiteral("[+-]?(([0-9]*\\.?[0-9]*([eE][+-]?[0-9]*)?)|\\.?[iI][nN][fF]?|\\.?[nN][aA]?[nN]?)"));
    return re;
}
} // namespace

QWidget* FactValueDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                         const QModelIndex& index) const
{
    if (index.column() == FactTreeModel::TypeColumn) {
        auto* combo = new QComboBox(parent);
        combo->addItems(ValueConvert::typeNames());
        return combo;
    }
    if (index.column() != FactTreeModel::ValueColumn)
        return QStyledItemDelegate::createEditor(parent, option, index);

    const auto type = static_cast<Value::Type>(index.data(HieraRoles::ValueTypeRole).toInt());
    switch (type) {
    case Value::Type::Boolean: {
        auto* combo = new QComboBox(parent);
        combo->addItems({QStringLiteral("true"), QStringLiteral("false")});
        return combo;
    }
    case Value::Type::Integer: {
        auto* edit = new QLineEdit(parent);
        edit->setValidator(new QRegularExpressionValidator(integerPattern(), edit));
        return edit;
    }
    case Value::Type::Float: {
        auto* edit = new QLineEdit(parent);
        edit->setValidator(new QRegularExpressionValidator(floatPattern(), edit));
        return edit;
    }
    default:
        return new QLineEdit(parent);
    }
}

void FactValueDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    const QString text = index.data(Qt::EditRole).toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        const int i = combo->findText(text);
        combo->setCurrentIndex(i >= 0 ? i : 0);
        return;
    }
    if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
        edit->setText(text);
        edit->selectAll();
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void FactValueDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        model->setData(index, combo->currentText(), Qt::EditRole);
        return;
    }
    if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
        model->setData(index, edit->text(), Qt::EditRole);
        return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
}

} // namespace hiera::ui
