#pragma once

// Helpers shared by the GUI tests: fixture hierarchies written into a QTemporaryDir from
// {path, content} pairs (Puppet's spec style) and model dumps as indented lines (hotspot's printModel).

#include <QAbstractItemModel>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <initializer_list>
#include <utility>

namespace UiTest {

inline bool writeFile(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(content) == content.size();
}

inline bool writeFiles(const QTemporaryDir& dir, std::initializer_list<std::pair<const char*, const char*>> files)
{
    for (const auto& [path, content] : files) {
        if (!writeFile(dir.filePath(QString::fromUtf8(path)), QByteArray(content)))
            return false;
    }
    return true;
}

inline QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// "key | value | type" per row, children indented two spaces per level.
inline QStringList printModel(const QAbstractItemModel* model, const QModelIndex& parent = {}, int depth = 0,
                              int columns = -1)
{
    QStringList lines;
    const int columnCount = columns < 0 ? model->columnCount(parent) : columns;
    for (int row = 0; row < model->rowCount(parent); ++row) {
        QStringList cells;
        for (int column = 0; column < columnCount; ++column)
            cells << model->index(row, column, parent).data().toString();
        lines << QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | "));
        lines << printModel(model, model->index(row, 0, parent), depth + 1, columns);
    }
    return lines;
}

// Copies a directory tree (the demo) so tests may change files on disk.
inline bool copyTree(const QString& from, const QString& to)
{
    QDir source(from);
    if (!QDir().mkpath(to))
        return false;
    for (const QFileInfo& info : source.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + QLatin1Char('/') + info.fileName();
        if (info.isDir()) {
            if (!copyTree(info.absoluteFilePath(), target))
                return false;
        } else if (!QFile::copy(info.absoluteFilePath(), target)) {
            return false;
        }
    }
    return true;
}

// The GUI thread's longest pause while it runs: a timer ticks every `intervalMs` and the widest gap
// between two ticks is the longest the event loop was blocked.
class StallMeter
{
public:
    explicit StallMeter(int intervalMs)
    {
        m_ticker.setInterval(intervalMs);
        QObject::connect(&m_ticker, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            m_worstGap = std::max(m_worstGap, now - m_last);
            m_last = now;
            ++m_ticks;
        });
        m_clock.start();
        m_ticker.start();
    }
    void stop() { m_ticker.stop(); }
    qint64 elapsed() const { return m_clock.elapsed(); }
    qint64 worstGap() const { return m_worstGap; }
    int ticks() const { return m_ticks; }

private:
    QElapsedTimer m_clock;
    QTimer m_ticker;
    qint64 m_last = 0;
    qint64 m_worstGap = 0;
    int m_ticks = 0;
};

} // namespace UiTest
