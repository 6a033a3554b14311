#include "panels/nodespanel.h"

#include "jobs/lookuprunner.h"
#include "models/nodelistmodel.h"
#include "models/valueconvert.h"
#include "panels/nodediffpanel.h"
#include "widgets/elidedlabel.h"
#include "widgets/elidingheaderview.h"
#include "widgets/messagebanner.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace hiera::ui {

namespace {

const QString libraryKey = QStringLiteral("nodes/library");

// Space-separated terms, all of which a row must meet: "text" keeps the rows where any column
// contains it; "fact=value" the rows whose column of that fact equals it, or is a list holding it. The
// fact is a column's name ("facts.role") or its last part ("role"). Both ignore case.
class NodeFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setText(const QString& text)
    {
        m_terms.clear();
        for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            Term term{-1, word, {}};
            const qsizetype eq = word.indexOf(QLatin1Char('='));
            if (eq > 0) {
                term.column = columnOf(word.left(eq));
                term.text = word.mid(eq + 1);
                if (term.column < 0) {
                    // Not a column: any fact of the node (team=web, facts.os.family=Debian), looked up
                    // in its scope as a path would (a leading :: is the top scope, as in %{::team}).
                    term.column = AnyFact;
                    QString reference = word.left(eq);
                    if (reference.startsWith(QStringLiteral("::")))
                        reference.remove(0, 2);
                    term.reference = ValueConvert::toStd(reference);
                }
            }
            m_terms.push_back(term);
        }
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        for (const Term& term : m_terms)
            if (!accepts(term, row, parent))
                return false;
        return true;
    }

private:
    static constexpr int AnyFact = -2;
    struct Term
    {
        int column; // -1: any column contains `text`; AnyFact: the fact `reference` is `text`
        QString text;
        std::string reference;
    };

    int columnOf(const QString& fact) const
    {
        int suffixMatch = -1;
        for (int c = 0; c < sourceModel()->columnCount(); ++c) {
            const QString name = sourceModel()->headerData(c, Qt::Horizontal).toString();
            if (name.compare(fact, Qt::CaseInsensitive) == 0)
                return c;
            if (suffixMatch < 0 && name.endsWith(QLatin1Char('.') + fact, Qt::CaseInsensitive))
                suffixMatch = c;
        }
        return suffixMatch;
    }

    bool accepts(const Term& term, int row, const QModelIndex& parent) const
    {
        if (term.column == AnyFact)
            return static_cast<const NodeListModel*>(sourceModel())->factEquals(row, term.reference, term.text);
        if (term.column >= 0) {
            const QModelIndex cell = sourceModel()->index(row, term.column, parent);
            return cell.data().toString().compare(term.text, Qt::CaseInsensitive) == 0
                || cell.data(NodeListModel::ItemsRole).toStringList().contains(term.text, Qt::CaseInsensitive);
        }
        for (int c = 0; c < sourceModel()->columnCount(parent); ++c)
            if (sourceModel()->index(row, c, parent).data().toString().contains(term.text, Qt::CaseInsensitive))
                return true;
        return false;
    }

    std::vector<Term> m_terms;
};

} // namespace

NodesPanel::NodesPanel(FleetRunner* fleet, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new NodeListModel(this))
    , m_proxy(new NodeFilter(this))
{
    setObjectName(QStringLiteral("nodesPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    // A row, not a QToolBar: a narrow dock folded the filter away behind the toolbar's "»" menu.
    auto* row = new QHBoxLayout;
    auto* open = new QToolButton(this);
    open->setObjectName(QStringLiteral("openLibrary"));
    open->setText(tr("Open Library…"));
    open->setAutoRaise(true);
    open->setToolTip(tr("A folder of fact files (facter, puppet facts, onceover) or a PuppetDB factsets export"));
    connect(open, &QToolButton::clicked, this, &NodesPanel::chooseLibrary);
    row->addWidget(open);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("nodeFilter"));
    m_filter->setPlaceholderText(tr("Filter: text, or fact=value"));
    m_filter->setToolTip(tr("<p>Keeps the nodes that match every word:</p><ul>"
                            "<li><b>web</b>: the name or a column contains it</li>"
                            "<li><b>facts.role=db</b> or <b>role=db</b>: that fact is exactly db (any fact of "
                            "the node, not only the columns: <b>team=payments</b>)</li>"
                            "<li><b>datacenters=dc1</b>: that fact is a list holding dc1</li></ul>"
                            "<p>For example <b>role=db env=prod</b>. Case is ignored.</p>"));
    m_filter->setClearButtonEnabled(true);
    // Escape clears the filter, as in a browser's find bar.
    auto* clearFilter = new QAction(m_filter);
    clearFilter->setShortcut(QKeySequence(Qt::Key_Escape));
    clearFilter->setShortcutContext(Qt::WidgetShortcut);
    connect(clearFilter, &QAction::triggered, m_filter, &QLineEdit::clear);
    m_filter->addAction(clearFilter);
    m_filter->setMinimumWidth(m_filter->fontMetrics().horizontalAdvance(QStringLiteral("role=web")) + 16);
    row->addWidget(m_filter, 1);
    layout->addLayout(row);
    m_banner = new MessageBanner(this);
    m_banner->setObjectName(QStringLiteral("nodesBanner"));
    layout->addWidget(m_banner);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("nodeView"));
    m_view->setHorizontalHeader(new ElidingHeaderView(m_view)); // a long fact name elided, not clipped
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the library's order until a header is clicked
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Two nodes selected compare with each other (the context menu).
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Column widths from a sample of rows: measuring all 20,000 nodes' cells took ~100 ms per library.
    m_view->horizontalHeader()->setResizeContentsPrecision(200);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Rows one line of text high (the style's default is taller): more nodes in view.
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    // One line per node: a long name is elided in the middle (its start and its domain stay; the
    // tooltip has it whole) rather than wrapped in some rows and not others.
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(m_view, 1);
    // Before any library: what the panel is for, wrapped to the dock's width (one elided line cut it off).
    m_hint = new QLabel(tr("No node library is open. <b>Open Library…</b> reads a folder of fact files "
                           "(<tt>facter -j</tt>, <tt>puppet facts</tt>, onceover) or a PuppetDB export; "
                           "double-click a node to answer for it, select two to compare them."),
                        this);
    m_hint->setObjectName(QStringLiteral("nodesHint"));
    m_hint->setWordWrap(true);
    m_hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_hint->setMargin(6);
    layout->addWidget(m_hint, 1);
    // One line, elided in the middle (the counts first, the library's folder last; whole in the
    // tooltip): a long path wrapped over four lines in a narrow dock and never widens the window.
    m_status = new ElidedLabel(Qt::ElideMiddle, this);
    m_status->setObjectName(QStringLiteral("nodesStatus"));
    layout->addWidget(m_status);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        static_cast<NodeFilter*>(m_proxy)->setText(text);
        m_status->setFullText(statusText());
        markOpened(m_opened); // filtering drops the selection: the open node is marked again when shown
        Q_EMIT selectionChanged(selection());
    });
    connect(m_view, &QTableView::activated, this, &NodesPanel::activate);
    connect(m_view, &QTableView::customContextMenuRequested, this, &NodesPanel::showContextMenu);
    connect(fleet, &FleetRunner::libraryLoaded, this, &NodesPanel::showLibrary);
    connect(fleet, &FleetRunner::libraryCancelled, this, [this](const QString& path) {
        m_banner->showMessage(
            MessageBanner::Kind::Information,
            m_model->library()
                ? tr("Stopped reading %1: the library before stays open.").arg(QDir::toNativeSeparators(path))
                : tr("Stopped reading %1.").arg(QDir::toNativeSeparators(path)));
    });
    connect(fleet, &FleetRunner::libraryFailed, this, [this](const QString& path, const QString& message) {
        m_banner->showMessage(MessageBanner::Kind::Error,
                              tr("Cannot open the node library %1: %2").arg(QDir::toNativeSeparators(path), message));
    });
    connect(runner, &LookupRunner::engineLoaded, this, [this](const QString&, EnginePtr engine) {
        m_model->setHierarchy(engine);
        fitColumns();
        if (m_model->library())
            showProblems();
    });
    showStatus();
}

void NodesPanel::showStatus()
{
    const bool none = !m_model->library();
    m_hint->setVisible(none);
    m_view->setVisible(!none);
    m_status->setFullText(statusText());
}

void NodesPanel::openLibrary(const QString& path)
{
    m_banner->showMessage(MessageBanner::Kind::Information,
                          tr("Reading the node library %1…").arg(QDir::toNativeSeparators(path)));
    m_fleet->loadLibrary(path);
}

void NodesPanel::chooseLibrary()
{
    // A folder is what most people have; a PuppetDB export is a file: the folder dialog lets one type
    // a file name too.
    // It starts beside the library opened last (inside it, its files would be hidden: the dialog shows
    // folders), else in the hierarchy's repository, where a facts folder usually is.
    const QString previous = QSettings().value(libraryKey).toString();
    const QString start = !previous.isEmpty() ? QFileInfo(previous).absolutePath()
        : !m_runner->hieraYaml().isEmpty()    ? QFileInfo(m_runner->hieraYaml()).absolutePath()
                                              : QDir::homePath();
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Open a node library (a folder of fact files)"), start);
    if (!path.isEmpty())
        openLibrary(path);
}

void NodesPanel::showLibrary(const NodeLibraryPtr& library)
{
    QSettings().setValue(libraryKey, ValueConvert::toQString(library->path()));
    NodeLibraryPtr previous = m_model->library();
    // Another library: a filter typed for the last one would hide nodes that are there (the same
    // library read again keeps it).
    const bool another = !previous || previous->path() != library->path();
    if (another)
        m_filter->clear();
    m_model->setLibrary(library);
    // A model reset keeps the scroll position: another library starts at its top (then the open node,
    // if it is in it, is scrolled to when marked), not where the last one was left.
    if (another)
        m_view->scrollToTop();
    m_fleet->release(std::move(previous)); // not on the GUI thread, should this have been the last reference
    fitColumns();
    showProblems();
    showStatus();
    Q_EMIT selectionChanged(selection());
}

void NodesPanel::fitColumns()
{
    // As wide as their contents, but no column wider than this: a 150-character node name pushed the
    // fact columns out of sight.
    constexpr int widest = 320;
    m_view->resizeColumnsToContents();
    for (int column = 0; column < m_model->columnCount(); ++column)
        if (m_view->columnWidth(column) > widest)
            m_view->setColumnWidth(column, widest);
}

void NodesPanel::markOpened(const QString& name)
{
    m_opened = name;
    const NodeLibraryPtr library = m_model->library();
    if (!library)
        return;
    const auto& nodes = library->nodes();
    const std::string wanted = ValueConvert::toStd(name);
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const hiera::Node& n) { return n.name == wanted; });
    const QModelIndex row = it == nodes.end()
        ? QModelIndex()
        : m_proxy->mapFromSource(m_model->index(static_cast<int>(it - nodes.begin()), 0));
    if (!row.isValid()) {
        m_view->clearSelection(); // not in the library, or filtered out: no other node may look open
        return;
    }
    m_view->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(row);
}

NodeSelection NodesPanel::selection() const
{
    NodeSelection s{m_model->library(), nullptr, m_filter->text().trimmed()};
    if (!s.library || s.filter.isEmpty())
        return s;
    auto nodes = std::make_shared<std::vector<std::size_t>>();
    nodes->reserve(static_cast<std::size_t>(m_proxy->rowCount()));
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        nodes->push_back(static_cast<std::size_t>(m_proxy->mapToSource(m_proxy->index(row, 0)).row()));
    std::sort(nodes->begin(), nodes->end()); // the library's order, whatever column the list is sorted by
    s.nodes = std::move(nodes);
    return s;
}

void NodesPanel::showProblems()
{
    const NodeLibraryPtr library = m_model->library();
    if (!library)
        return;
    // Skipped files, each one line naming file:line:col; duplicate names. The rest answers.
    QStringList problems;
    for (const hiera::Error& e : library->errors())
        problems << tr("Skipped %1").arg(QString::fromUtf8(e.what()));
    for (const std::string& w : library->warnings())
        problems << ValueConvert::toQString(w);
    const QStringList missing = m_model->columnsNoNodeHas();
    Q_EMIT missingFactsChanged(missing);
    if (!missing.isEmpty())
        problems.prepend(tr("No node of this library has %1, which the hierarchy's paths use: the paths that use "
                            "%2 match no file for any node. Is this the library for this hierarchy?",
                            nullptr, int(missing.size()))
                             .arg(missing.join(QStringLiteral(", ")), missing.size() == 1 ? tr("it") : tr("them")));
    if (problems.isEmpty())
        m_banner->clearMessage();
    else
        m_banner->showMessage(MessageBanner::Kind::Warning, problems.join(QLatin1Char('\n')));
}

QString NodesPanel::statusText() const
{
    const NodeLibraryPtr library = m_model->library();
    if (!library)
        return tr("No node library");
    QString text = m_proxy->rowCount() == static_cast<int>(library->size())
        ? tr("%1 nodes").arg(library->size())
        : tr("%1 of %2 nodes").arg(m_proxy->rowCount()).arg(library->size());
    if (!library->errors().empty())
        text += library->errors().size() == 1 ? tr(", 1 file skipped")
                                              : tr(", %1 files skipped").arg(library->errors().size());
    return text + tr(" · %1").arg(QDir::toNativeSeparators(ValueConvert::toQString(library->path())));
}

void NodesPanel::activate(const QModelIndex& index)
{
    const NodeLibraryPtr library = m_model->library();
    if (!library || !index.isValid())
        return;
    const hiera::Node& node = library->nodes()[static_cast<std::size_t>(m_proxy->mapToSource(index).row())];
    // A node of its own file opens as that file; a node of a PuppetDB export as its entry there (a save
    // replaces that entry only).
    Q_EMIT nodeChosen(ValueConvert::toQString(node.name), ValueConvert::toQString(node.sourceFile),
                      node.format != hiera::FactsFormat::PuppetDB);
}

QString NodesPanel::rememberedLibrary()
{
    return QSettings().value(libraryKey).toString();
}

QStringList NodesPanel::selectedNodes() const
{
    QStringList names;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        names << index.siblingAtColumn(0).data().toString();
    return names;
}

void NodesPanel::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (!index.isValid())
        return;
    const QString name = index.siblingAtColumn(0).data().toString();
    // Names elided in the menu's text (a 150-character name made it wider than the screen); the actions
    // still act on the full names.
    const auto shown = [this](const QString& node) { return fontMetrics().elidedText(node, Qt::ElideMiddle, 300); };
    QMenu menu(this);
    menu.addAction(tr("Open %1").arg(shown(name)), this, [this, index] { activate(index); });
    menu.addAction(tr("Compare with the current facts"), this,
                   [this, name] { Q_EMIT compareRequested(NodeDiffPanel::currentFactsName(), name); });
    const QStringList selected = selectedNodes();
    if (selected.size() == 2)
        menu.addAction(tr("Compare %1 with %2").arg(shown(selected[0]), shown(selected[1])), this,
                       [this, selected] { Q_EMIT compareRequested(selected[0], selected[1]); });
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace hiera::ui
