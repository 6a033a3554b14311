#pragma once

// ElidedLabel — one line of text that fits whatever width it is given: elided ("/home/…/web01.yaml:12")
// with the whole text in its tooltip, instead of a QLabel whose long text sets the window's minimum
// width (a path in the status bar or over the source kept the window from going below 1156 px).

#include <QLabel>

namespace hiera::ui {

class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(Qt::TextElideMode mode, QWidget* parent = nullptr);

    // The text in full; shown elided when it does not fit.
    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    // A tooltip of its own (shown when the text fits; the full text and it otherwise).
    void setExtraToolTip(const QString& toolTip);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateShown();

    Qt::TextElideMode m_mode;
    QString m_full;
    QString m_toolTip;
};

} // namespace hiera::ui
