#pragma once

// ContributionModel — the answer's sources at a glance: one row per data file the lookup consulted
// (from the explain trace), in priority order, saying whether it won (first found), was merged in,
// lacked the key, was missing on disk or failed, and the value it gave with its file:line.
// Columns Level | File | Outcome | Origin | Value. Read-only, reset per result.

#include <hiera/provenance.h>
#include <hiera/trace.h>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace hiera::ui {

class ContributionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LevelColumn, FileColumn, OutcomeColumn, OriginColumn, ValueColumn, ColumnCount };
    // What each source gave, as the engine decides it (hiera/provenance.h): every view agrees.
    using Outcome = hiera::SourceContribution::Outcome;

    struct Row
    {
        QString level;
        QString path; // absolute
        QString originalPath; // as written
        Outcome outcome = Outcome::NotFound;
        std::optional<hiera::Value> value;
        hiera::SourceLocation location; // a dotted key's contributed source: the dug leaf's
        QString message;
        std::size_t leaves = 0; // leaves of the answer from this file
    };

    explicit ContributionModel(QObject* parent = nullptr);

    void setTrace(const hiera::TracePtr& trace, const QString& baseDirectory = {});
    // The same with the trace's contributions already made (LookupOutcome::contributions, on a
    // worker): what the Sources panel calls, so the GUI thread only converts them to rows.
    void setContributions(const hiera::TracePtr& trace, const std::vector<hiera::SourceContribution>& contributions,
                          const QString& baseDirectory = {});
    const std::vector<Row>& rows() const { return m_rows; }
    // The rows of a trace, without a model (tests, summaries).
    static std::vector<Row> collect(const hiera::TraceNode& root);
    static std::vector<Row> rowsOf(const std::vector<hiera::SourceContribution>& contributions);
    static QString outcomeText(Outcome outcome);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const QStringList m_headerLabels = {tr("Level"), tr("File"), tr("Outcome"), tr("Origin"),
                                        tr("Value")}; // Column order
    std::vector<Row> m_rows;
    QString m_baseDirectory;
    QString m_rootKey;
};

} // namespace hiera::ui
