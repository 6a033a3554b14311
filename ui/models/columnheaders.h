#pragma once

// The horizontal header of a model whose columns have fixed labels: one list per model instead of a
// switch in each headerData. The labels are translated where the model makes them (tr() in its
// constructor), so they follow the language it was made in.

#include <QStringList>
#include <QVariant>

namespace hiera::ui {

namespace ColumnHeaders {

inline QVariant label(const QStringList& labels, int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= labels.size())
        return {};
    return labels.at(section);
}

} // namespace ColumnHeaders

} // namespace hiera::ui
