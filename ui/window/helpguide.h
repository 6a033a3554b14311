#pragma once

// HelpGuide — the in-app guide (F1): what every panel shows, and a tour of the bundled demo whose links
// run the lookups they talk about ("lookup:profile::ntp" links).

#include <QDialog>

class QTextBrowser;
class QUrl;

namespace hiera::ui {

class HelpGuide : public QDialog
{
    Q_OBJECT
public:
    explicit HelpGuide(QWidget* parent = nullptr);

    QTextBrowser* browser() const { return m_browser; }
    // What a click on a link does: lookup: links ask for the key, others open in the browser.
    void followLink(const QUrl& url);
    // Puts the guide beside `window` (right, else left) where the screen has room for it, else over
    // the window's right edge: it is read next to the answer, not over it.
    void placeBeside(const QWidget* window);

Q_SIGNALS:
    void lookupRequested(const QString& key);

private:
    QTextBrowser* m_browser;
};

} // namespace hiera::ui
