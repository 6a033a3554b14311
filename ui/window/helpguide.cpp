#include "window/helpguide.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace {
const auto lookupScheme = QStringLiteral("lookup");

QString guideHtml()
{
    return HelpGuide::tr(
               "<h2>Hiera Explorer</h2>"
               "<p>Type a key in the <b>Key</b> field (Ctrl+L or Ctrl+F) and the answer follows as you type: the value "
               "with the file and line of every leaf, how it was merged, and every file the lookup consulted.</p>"
               "<ul>"
               "<li><b>Facts and scope</b> (left): the facts the hierarchy is interpolated with. Edit a value "
               "(double click or F2) and the answer follows at once; Ctrl+Z undoes.</li>"
               "<li><b>Value / Root value / YAML</b>: the answer. Click an origin (<i>file:line</i>) to see it in "
               "the <b>Source</b> panel.</li>"
               "<li><b>Sources</b>: each data file in priority order and what it gave (won, merged, no key, "
               "missing). <b>Explain</b> is the trace as a tree; <b>Explain text</b> reads as Puppet's "
               "<code>--explain</code>.</li>"
               "<li><b>Hierarchy</b> (bottom): the levels as your facts make them, with the files found or "
               "missing, and a warning where a fact was empty.</li>"
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

void HelpGuide::followLink(const QUrl& url)
{
    if (url.scheme() == lookupScheme)
        Q_EMIT lookupRequested(url.path());
    else
        QDesktopServices::openUrl(url);
}
