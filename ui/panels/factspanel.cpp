#include "panels/factspanel.h"

#include "document/factsdocument.h"
#include "models/facttreemodel.h"
#include "widgets/factvaluedelegate.h"
#include "widgets/messagebanner.h"

#include <QAction>
#include <QHeaderView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

FactsPanel::FactsPanel(FactsDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("factsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_toolBar = new QToolBar(this);
    m_toolBar->setObjectName(QStringLiteral("factsToolBar"));
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    layout->addWidget(m_toolBar);
    m_banner = new MessageBanner(this);
    m_banner->setObjectName(QStringLiteral("factBanner"));
    layout->addWidget(m_banner);

    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("factView"));
    m_view->setAlternatingRowColors(true);
    m_view->setModel(document->model());
    m_view->setItemDelegate(new FactValueDelegate(m_view));
    // Typing searches the keys (QAbstractItemView::keyboardSearch) instead of starting an editor: with
    // "any key edits", a letter typed on a selected fact began renaming it and Return committed that.
    // Editing is a double click or F2, as in a file manager.
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(FactTreeModel::ValueColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(FactTreeModel::TypeColumn, QHeaderView::ResizeToContents);
    m_view->setColumnWidth(FactTreeModel::KeyColumn, 130);
    layout->addWidget(m_view, 1);

    m_addAction = m_toolBar->addAction(tr("Add"), this, &FactsPanel::addFact);
    m_addAction->setToolTip(tr("Add a fact under the selected hash or array (or next to the selected value)"));
    m_removeAction = m_toolBar->addAction(tr("Remove"), this, &FactsPanel::removeFact);
    m_removeAction->setShortcut(QKeySequence::Delete);
    m_removeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(m_removeAction);
    m_toolBar->addSeparator();

    connect(document, &FactsDocument::message, this, [this](MessageBanner::Kind kind, const QString& text) {
        if (text.isEmpty())
            m_banner->clearMessage();
        else
            m_banner->showMessage(kind, text);
    });
    connect(document, &FactsDocument::readStarted, this, [this] { setReading(true); });
    connect(document, &FactsDocument::readFinished, this, [this](bool ok) {
        setReading(false);
        if (ok)
            resizeColumns();
    });
    // A new scope (a file read, a recovery): its first level open again.
    connect(document->model(), &QAbstractItemModel::modelReset, this, &FactsPanel::expandFacts);
}

void FactsPanel::setReading(bool reading)
{
    // Visible while it lasts, and no edits meanwhile: the facts being read would replace them.
    m_view->setEnabled(!reading);
    m_toolBar->setEnabled(!reading);
    m_removeAction->setEnabled(!reading);
}

void FactsPanel::addFact()
{
    FactTreeModel* model = m_document->model();
    const QModelIndex added = model->addChild(m_view->currentIndex());
    if (!added.isValid())
        return;
    m_view->expand(added.parent());
    m_view->setCurrentIndex(added);
    m_view->scrollTo(added);
    m_view->edit(added);
}

void FactsPanel::removeFact()
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        m_document->model()->removeNodeAt(current);
}

void FactsPanel::expandFacts()
{
    // The first level open (facts, trusted, the top-scope hashes), unless there are very many: QTreeView
    // inserts each expanded row's children into one flat array, so expanding tens of thousands of
    // top-level hashes (the top-scope copies of a large facts file) is quadratic, and froze the window
    // for seconds after the file was read. Then only the facts and trusted hashes open.
    constexpr int expandEveryRowUpTo = 200;
    FactTreeModel* model = m_document->model();
    if (model->rowCount() <= expandEveryRowUpTo) {
        m_view->expandToDepth(0);
        return;
    }
    for (const QString& name : {QStringLiteral("facts"), QStringLiteral("trusted")}) {
        const QModelIndex index = model->indexForKeyPath(name);
        if (index.isValid())
            m_view->expand(index);
    }
}

void FactsPanel::resizeColumns()
{
    // Keys to their width (within reason), the type as narrow as its names; the value takes the rest.
    m_view->resizeColumnToContents(FactTreeModel::KeyColumn);
    const int keyWidth = m_view->columnWidth(FactTreeModel::KeyColumn);
    m_view->setColumnWidth(FactTreeModel::KeyColumn, std::clamp(keyWidth, 90, 160));
}

} // namespace hiera::ui
