#pragma once

// ElidingHeaderView — a horizontal header whose section titles are elided to their width, in the
// header's textElideMode(). Qt 6.4's QHeaderView clips a long title instead (a centred one on both
// sides, with no ellipsis), so two long node names that differ in the middle looked the same.

#include <QHeaderView>

namespace hiera::ui {

class ElidingHeaderView : public QHeaderView
{
    Q_OBJECT
public:
    explicit ElidingHeaderView(QWidget* parent = nullptr);

protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;
};

} // namespace hiera::ui
