#pragma once

// ContributionModel — the answer's sources at a glance: one row per data file the lookup consulted
// (from the explain trace), in priority order, saying whether it won (first found), was merged in,
// lacked the key, was missing on disk or failed, and the value it gave with its file:line.
// Columns Level | File | Outcome | Origin | Value. Read-only, reset per result.

#include <hiera/trace.h>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

class ContributionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LevelColumn, FileColumn, OutcomeColumn, OriginColumn, ValueColumn, ColumnCount };
    enum class Outcome {
        Won, // the value a first lookup returned
        Merged, // one of the values a unique/hash/deep merge folded
        Shadowed, // found, but a higher-priority source already won (first)
        RootOnly, // merged the root key of a dotted key, but holds nothing at the dotted path

        NotFound, // the file exists and lacks the key
        Missing, // the file does not exist
        Failed, // reading or interpolating failed
        NoFiles, // a glob or mapped_paths level that produced no file
    };

    struct Row
    {
        QString level;
        QString path; // absolute
        QString originalPath; // as written
        Outcome outcome = Outcome::NotFound;
        std::optional<hiera::Value> value;
        hiera::SourceLocation location;
        QString message;
    };

    explicit ContributionModel(QObject* parent = nullptr);

    void setTrace(const hiera::TracePtr& trace, const QString& baseDirectory = {});
    const std::vector<Row>& rows() const { return m_rows; }
    // The rows of a trace, without a model (tests, summaries).
    static std::vector<Row> collect(const hiera::TraceNode& root);
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
