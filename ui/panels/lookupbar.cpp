#include "panels/lookupbar.h"

#include "jobs/lookuprunner.h"
#include "models/valueconvert.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QStringListModel>
#include <QVBoxLayout>

namespace hiera::ui {

namespace {
constexpr int maxKeyHistory = 30;
}

LookupBar::LookupBar(LookupRunner* runner, QWidget* parent) : QWidget(parent), m_runner(runner)
{
    setObjectName(QStringLiteral("lookupBar"));
    // The deep-merge options get a row of their own under the key: on the key's row they widened the
    // central area's minimum, and the main window took that width from the docks (the facts dock went
    // down to 60 px, and the squeezed layout was saved for the next start).
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    rows->addLayout(bar);
    m_deepOptions = new QWidget(this);
    auto* deepRow = new QHBoxLayout(m_deepOptions);
    deepRow->setContentsMargins(0, 0, 0, 0);
    // It never asks for more width than the key's row: on a narrow window its end is cut, not the docks.
    m_deepOptions->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    rows->addWidget(m_deepOptions);

    m_keyCombo = new QComboBox(this);
    m_keyCombo->setObjectName(QStringLiteral("keyCombo"));
    m_keyCombo->setEditable(true);
    m_keyCombo->setInsertPolicy(QComboBox::NoInsert);
    m_keyCombo->setMinimumContentsLength(18); // it stretches; this is its floor on a small screen
    m_keyCombo->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_keyCombo->lineEdit()->setPlaceholderText(tr("Key to look up, e.g. profile::ntp.servers.0"));
    m_keyCombo->lineEdit()->setClearButtonEnabled(true);
    m_keyCombo->setToolTip(tr("The key to look up; dotted keys dig into the value. Recent keys are in the list."));
    m_keyList = new QStringListModel(this);
    m_completer = new QCompleter(m_keyList, this);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setMaxVisibleItems(16);
    // A large hierarchy has tens of thousands of keys and the first letter matches most of them: a
    // popup that measured every row would freeze each keystroke.
    auto* popup = new QListView;
    popup->setUniformItemSizes(true);
    popup->setLayoutMode(QListView::Batched);
    m_completer->setPopup(popup);
    m_keyCombo->setCompleter(m_completer);
    auto* keyLabel = new QLabel(tr("&Key:"), this);
    keyLabel->setBuddy(m_keyCombo);
    bar->addWidget(keyLabel);
    bar->addWidget(m_keyCombo, 1);

    m_mergeCombo = new QComboBox(this);
    m_mergeCombo->setObjectName(QStringLiteral("mergeCombo"));
    m_mergeCombo->addItem(tr("as lookup_options says"), QString());
    for (hiera::MergeStrategy strategy : hiera::kMergeStrategies) {
        const QString name = QString::fromLatin1(hiera::mergeStrategyName(strategy));
        m_mergeCombo->addItem(name, name);
    }
    m_mergeCombo->setToolTip(tr("Merge strategy: overrides lookup_options when set"));
    auto* mergeLabel = new QLabel(tr("&Merge:"), this);
    mergeLabel->setBuddy(m_mergeCombo);
    bar->addWidget(mergeLabel);
    bar->addWidget(m_mergeCombo);
    m_knockoutEdit = new QLineEdit(m_deepOptions);
    m_knockoutEdit->setPlaceholderText(tr("knockout_prefix"));
    m_knockoutEdit->setMinimumWidth(m_knockoutEdit->fontMetrics().horizontalAdvance(m_knockoutEdit->placeholderText())
                                    + 16);
    m_knockoutEdit->setMaximumWidth(140);
    m_sortArraysCheck = new QCheckBox(tr("sort_merged_arrays"), m_deepOptions);
    m_mergeHashArraysCheck = new QCheckBox(tr("merge_hash_arrays"), m_deepOptions);
    deepRow->addWidget(new QLabel(tr("Deep merge options:"), m_deepOptions));
    deepRow->addWidget(m_knockoutEdit);
    deepRow->addWidget(m_sortArraysCheck);
    deepRow->addWidget(m_mergeHashArraysCheck);
    deepRow->addStretch(1);
    updateMergeOptions();

    connect(m_keyCombo->lineEdit(), &QLineEdit::textEdited, this, &LookupBar::edited);
    connect(m_keyCombo->lineEdit(), &QLineEdit::returnPressed, this, &LookupBar::commit);
    connect(m_keyCombo, &QComboBox::activated, this, &LookupBar::edited);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& key) {
        m_keyCombo->setEditText(key);
        commit();
    });
    connect(m_mergeCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateMergeOptions();
        Q_EMIT edited();
    });
    connect(m_knockoutEdit, &QLineEdit::textEdited, this, &LookupBar::edited);
    connect(m_sortArraysCheck, &QCheckBox::toggled, this, &LookupBar::edited);
    connect(m_mergeHashArraysCheck, &QCheckBox::toggled, this, &LookupBar::edited);
    connect(runner, &LookupRunner::scopeResolved, this, &LookupBar::onScopeResolved);
}

LookupBar::~LookupBar()
{
    // Destroying the child widgets moves the focus, and a focused editor then emits signals (the key
    // combo's activated()) whose receivers may be half destroyed: cut them first.
    m_keyCombo->disconnect();
    m_keyCombo->lineEdit()->disconnect();
    disconnect();
}

AnswerRequest LookupBar::request() const
{
    AnswerRequest request;
    request.key = ValueConvert::toStd(key());
    // The engine's one reading of a strategy name (the combo's data are its names).
    const auto strategy = hiera::mergeStrategyFromName(ValueConvert::toStd(m_mergeCombo->currentData().toString()));
    if (!strategy)
        return request; // "as lookup_options says"
    hiera::MergeSpec spec;
    spec.strategy = *strategy;
    if (spec.strategy == hiera::MergeStrategy::Deep) {
        if (!m_knockoutEdit->text().isEmpty())
            spec.knockoutPrefix = ValueConvert::toStd(m_knockoutEdit->text());
        spec.sortMergedArrays = m_sortArraysCheck->isChecked();
        spec.mergeHashArrays = m_mergeHashArraysCheck->isChecked();
    }
    request.merge = spec;
    return request;
}

QString LookupBar::key() const
{
    return m_keyCombo->currentText().trimmed();
}

void LookupBar::setKey(const QString& key)
{
    m_keyCombo->setEditText(key);
    commit();
}

void LookupBar::setMergeStrategy(const QString& strategy)
{
    const int index = m_mergeCombo->findData(strategy);
    m_mergeCombo->setCurrentIndex(index >= 0 ? index : 0);
}

void LookupBar::focusKey()
{
    m_keyCombo->setFocus(Qt::ShortcutFocusReason);
    m_keyCombo->lineEdit()->selectAll();
}

QLineEdit* LookupBar::keyEdit() const
{
    return m_keyCombo->lineEdit();
}

void LookupBar::commit()
{
    addToHistory(key());
    Q_EMIT committed();
}

void LookupBar::updateMergeOptions()
{
    // The deep-merge options only where they apply.
    m_deepOptions->setVisible(m_mergeCombo->currentData().toString() == QLatin1String("deep"));
}

void LookupBar::addToHistory(const QString& key)
{
    if (key.isEmpty())
        return;
    const QString text = m_keyCombo->currentText();
    const int existing = m_keyCombo->findText(key);
    if (existing == 0)
        return;
    if (existing > 0)
        m_keyCombo->removeItem(existing);
    m_keyCombo->insertItem(0, key);
    while (m_keyCombo->count() > maxKeyHistory)
        m_keyCombo->removeItem(m_keyCombo->count() - 1);
    m_keyCombo->setCurrentIndex(0);
    m_keyCombo->setEditText(text);
}

QStringList LookupBar::history() const
{
    QStringList keys;
    for (int i = 0; i < m_keyCombo->count(); ++i)
        keys << m_keyCombo->itemText(i);
    return keys;
}

void LookupBar::setHistory(const QStringList& keys)
{
    m_keyCombo->clear();
    m_keyCombo->addItems(keys);
    m_keyCombo->setCurrentIndex(-1);
    m_keyCombo->setEditText(QString());
}

void LookupBar::onScopeResolved(const ScopeSnapshotPtr& snapshot)
{
    // Replacing the list while the popup is open would close it under the user's fingers. Most fact
    // edits leave the keys as they were: then the list is not even converted.
    const bool sameKeys = m_keysSnapshot && m_keysSnapshot->keys == snapshot->keys;
    if (!sameKeys && !m_completer->popup()->isVisible()) {
        // The model shares the snapshot's list: replacing it here frees nothing on this thread.
        m_keyList->setStringList(snapshot->keyList);
        m_runner->releaseLater(std::exchange(m_keysSnapshot, snapshot));
    } else if (sameKeys) {
        // The same keys, but the newer snapshot: the old one holds its engine, which must not outlive
        // a hierarchy that was replaced (the completer's list is shared and stays as it is).
        m_runner->releaseLater(std::exchange(m_keysSnapshot, snapshot));
    }
}

} // namespace hiera::ui
