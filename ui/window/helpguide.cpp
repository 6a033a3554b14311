#include "window/helpguide.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QScreen>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

namespace {
const auto lookupScheme = QStringLiteral("lookup");

QString guideHtml()
{
    return HelpGuide::tr(
               "<h2>Hiera Explorer</h2>"
               "<p>Type a key in the <b>Key</b> field (Ctrl+L or Ctrl+F) and the answer follows as you type: the value "
               "with the file and line of every leaf, how it was merged, and every file the lookup consulted.</p>"
               "<h3>The panels</h3>"
               "<ul>"
               "<li><b>Facts and scope</b> (left): the facts the hierarchy is interpolated with. Edit a value "
               "(double click or F2) and the answer follows at once; Ctrl+Z undoes; Save (Ctrl+S) writes them "
               "back in their file's format.</li>"
               "<li><b>Nodes</b> (tab beside the facts): a node library, a directory of facts files or a "
               "PuppetDB export (File ▸ Open Node Library). Click a node to make its facts the scope; pick two "
               "and Compare.</li>"
               "<li><b>Key</b> and <b>Merge</b> (top): the key, dotted to dig into a value "
               "(<code>profile::ntp.servers.0</code>), and the merge: as lookup_options says, or one you "
               "choose. The line under them says how the answer was made and how many files contributed.</li>"
               "<li><b>Value / Root value / YAML</b>: the answer, with the <i>file:line</i> of every leaf; "
               "Root value is the whole root key with the dug element marked. Click an origin to see it in "
               "the <b>Source</b> panel (right), which opens the file at that line.</li>"
               "<li><b>Sources</b>: each data file in priority order and what it gave (won, merged, no key, "
               "missing). <b>Explain</b> is the trace as a tree; <b>Explain text</b> reads as Puppet's "
               "<code>--explain</code>. File ▸ Export Explanation saves it as a report.</li>"
               "<li><b>Hierarchy</b> (bottom): the levels as your facts make them, with the files found or "
               "missing, and why a path is missing (an empty fact, outside the repository).</li>"
               "<li><b>Overridden values</b>: every level's value for the key, which one won, which were "
               "overridden, and what a knockout removed.</li>"
               "<li><b>Across nodes</b>: the key on every node of the library, grouped by value, with the level "
               "and file behind each group.</li>"
               "<li><b>All keys</b>: every key of the current node with its answer and source; the warnings "
               "button lists undefined variables with their file and line.</li>"
               "<li><b>Compare nodes</b>: every key whose answer differs between two nodes (or a node and "
               "the current facts), leaf by leaf; a double click opens the answer as that node has it.</li>"
               "<li><b>Revision diff</b>: what a change to the data does to the fleet. Pick two revisions of "
               "the repository (a commit, a branch, a tag; the newer side is the working tree unless you pick "
               "one) and Compare: every node of the library is resolved on both, and each key whose answer "
               "changes is listed with its value before and after, the nodes and the file:line behind each "
               "side. The key prefix and the Nodes panel's filter narrow the rows (the files shown are "
               "those behind the whole change). A double click opens a node's answer explained on both "
               "revisions. Escape cancels; Export writes what is shown: the Markdown of a "
               "merge-request comment, a self-contained HTML page, or JSON.</li>"
               "<li><b>Impact</b>: what one data file decides across the node library, before you edit it: "
               "the nodes that read it, and each key it defines with the nodes for which it is the winner or "
               "a contributor to a merge. Ask it from a file's context menu in the Hierarchy panel, the "
               "Source pane's Impact button, or type a path from the repository's root; it runs again when the data "
               "changes on disk. A double click opens "
               "the key on its first node; Export writes Markdown or JSON.</li>"
               "<li><b>Repository</b> menu: the environment name, a global hiera.yaml, where the repository "
               "is deployed (for absolute datadirs), and whether to reveal decrypted secrets.</li>"
               "</ul>"
               "<h3>A tour of the demo</h3>"
               "<p>Open it with File ▸ Open Demo (the links below open it when needed).</p>"
               "<ol>"
               "<li><a href=\"lookup:profile::web::workers\">profile::web::workers</a>: a first-found lookup; the "
               "node's role and environment pick the file.</li>"
               "<li><a href=\"lookup:profile::ntp\">profile::ntp</a>: a deep merge with a knockout prefix, chosen "
               "by lookup_options; each leaf says which file it came from.</li>"
               "<li><a href=\"lookup:profile::ntp.servers.0\">profile::ntp.servers.0</a>: a dotted key digs into "
               "the merged value.</li>"
               "<li><a href=\"lookup:site::dns_servers\">site::dns_servers</a>: try Merge: unique to see every "
               "level's servers together.</li>"
               "<li><a href=\"lookup:profile::backup::exclude\">profile::backup::exclude</a>: the module layer. The "
               "demo is a control repository, and its site/profile module has its own hiera.yaml and data; its "
               "lookup_options make this a unique merge (open db01's facts to see roles/db.yaml's entries joined "
               "to the module's).</li>"
               "<li><a href=\"lookup:profile::backup::compression\">profile::backup::compression</a>: found only "
               "in the module's default_hierarchy, which is asked when no layer has the key.</li>"
               "<li><a href=\"lookup:profile::monitoring::api_token\">profile::monitoring::api_token</a>: an "
               "eyaml level (secrets/*.eyaml). The value is decrypted with the demo's key pair (keys/, published "
               "and insecure) and stays masked until you reveal it; without a key it is shown encrypted.</li>"
               "</ol>")
        + QStringLiteral("<p>Ctrl+L: key field · F5: reload · Ctrl+Shift+O: open facts · Ctrl+S: save facts</p>");
}
} // namespace

HelpGuide::HelpGuide(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("helpGuide"));
    setWindowTitle(tr("Hiera Explorer Guide"));
    auto* layout = new QVBoxLayout(this);
    m_browser = new QTextBrowser(this);
    m_browser->setOpenLinks(false);
    m_browser->setHtml(guideHtml());
    layout->addWidget(m_browser);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpGuide::followLink);
    resize(620, 560);
}

void HelpGuide::placeBeside(const QWidget* window)
{
    // Beside the window where the screen has room, else over its right edge (where the Source panel
    // is), never over the answer in the middle.
    const QScreen* screen = window->screen();
    if (!screen)
        return;
    const QRect free = screen->availableGeometry();
    const QRect frame = window->frameGeometry();
    const int wanted = 620, least = 420;
    const int height = std::min(free.height(), std::max(560, frame.height()));
    const int top = std::clamp(frame.top(), free.top(), free.bottom() - height + 1);
    const int right = free.right() - frame.right();
    const int left = frame.left() - free.left();
    if (right >= least) {
        setGeometry(frame.right() + 1, top, std::min(wanted, right), height);
    } else if (left >= least) {
        const int width = std::min(wanted, left);
        setGeometry(frame.left() - width, top, width, height);
    } else {
        const int width = std::max(least, std::min(wanted, free.width() / 3));
        setGeometry(free.right() - width + 1, top, width, height);
    }
}

void HelpGuide::followLink(const QUrl& url)
{
    if (url.scheme() == lookupScheme)
        Q_EMIT lookupRequested(url.path());
    else
        QDesktopServices::openUrl(url);
}

} // namespace hiera::ui
