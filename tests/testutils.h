#pragma once

// Shared helpers for the Qt Test suites: printing hiera::Value in failure messages, building
// hierarchies in a QTemporaryDir from {path, content} pairs (Puppet's spec style), and reading
// expected values from JSON text.

#include "support/orderedequal.h"

#include <hiera/error.h>
#include <hiera/merge.h>
#include <hiera/value.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace hiera {

// QTest finds these through argument-dependent lookup, so QCOMPARE prints values and codes.
inline char* toString(const Value& v)
{
    std::string text;
    try {
        text = toJson(v);
    } catch (const std::exception&) {
        text = rubyInspect(v); // NaN and infinities have no JSON form
    }
    text += " (";
    text += v.typeName();
    text += ")";
    return qstrdup(text.c_str());
}

inline char* toString(ErrorCode code)
{
    return qstrdup(errorCodeName(code));
}

} // namespace hiera

Q_DECLARE_METATYPE(hiera::Value)
Q_DECLARE_METATYPE(hiera::ErrorCode)

namespace testutils {

using FileList = QList<QPair<QString, QByteArray>>;

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

inline hiera::MergeSpec mergeOf(hiera::MergeStrategy strategy)
{
    hiera::MergeSpec spec;
    spec.strategy = strategy;
    return spec;
}

inline std::string ss(const QString& s)
{
    return s.toStdString();
}

// Parses JSON text into a Value (expected values in tests are written as JSON).
inline hiera::Value json(std::string_view text)
{
    return hiera::parseData(text, "x", hiera::DataFormat::Json);
}

inline hiera::Value yaml(std::string_view text, const std::string& fileName = "test.yaml")
{
    return hiera::parseData(text, fileName, hiera::DataFormat::Yaml);
}

// Writes {relative path, content} pairs below `root`, creating directories. A path ending in '/'
// creates a directory only.
inline bool writeTree(const QString& root, const FileList& files)
{
    for (const auto& [rel, content] : files) {
        const QString full = root + QLatin1Char('/') + rel;
        if (rel.endsWith(QLatin1Char('/'))) {
            if (!QDir().mkpath(full))
                return false;
            continue;
        }
        if (!QDir().mkpath(QFileInfo(full).absolutePath()))
            return false;
        QFile f(full);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        if (f.write(content) != content.size())
            return false;
    }
    return true;
}

// A hierarchy written into a fresh temporary directory.
class TempTree
{
public:
    TempTree() = default;
    explicit TempTree(const FileList& files) { m_ok = m_dir.isValid() && writeTree(m_dir.path(), files); }

    bool isValid() const { return m_ok && m_dir.isValid(); }
    QString root() const { return m_dir.path(); }
    std::string path(const QString& rel = {}) const
    {
        return ss(rel.isEmpty() ? m_dir.path() : m_dir.path() + QLatin1Char('/') + rel);
    }
    std::string hieraYaml() const { return path(QStringLiteral("hiera.yaml")); }
    bool write(const QString& rel, const QByteArray& content) { return writeTree(m_dir.path(), {{rel, content}}); }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
};

using hiera::test::orderedEqual;

// Unordered deep comparison (hash key order ignored, as the conformance runner compares): what
// Value::operator== is (type-strict, hashes compared as Ruby's Hash#==, NaN equal to NaN).
inline bool unorderedEqual(const hiera::Value& a, const hiera::Value& b)
{
    return a == b;
}

// The keys of a hash, in order, as text (string keys verbatim, others through JSON).
inline QStringList keysOf(const hiera::Value& v)
{
    QStringList out;
    if (!v.isHash())
        return out;
    for (const auto& e : v.asHash())
        out << (e.key.isString() ? qs(e.key.asString()) : qs(hiera::toJson(e.key)));
    return out;
}

// Runs `f`, expecting a hiera::Error; returns it (or nullopt if nothing or something else was thrown).
inline std::optional<hiera::Error> catchError(const std::function<void()>& f)
{
    try {
        f();
    } catch (const hiera::Error& e) {
        return e;
    } catch (...) {
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace testutils

// QCOMPARE two Values with hash key order significant, printing both on failure.
#define HIERA_COMPARE_ORDERED(actual, expected)                                                                        \
    do {                                                                                                               \
        const hiera::Value hieraActual_ = (actual);                                                                    \
        const hiera::Value hieraExpected_ = (expected);                                                                \
        if (!testutils::orderedEqual(hieraActual_, hieraExpected_)) {                                                  \
            QByteArray msg = "ordered compare failed\n   Actual: ";                                                    \
            char* a_ = hiera::toString(hieraActual_);                                                                  \
            char* e_ = hiera::toString(hieraExpected_);                                                                \
            msg += a_;                                                                                                 \
            msg += "\n   Expected: ";                                                                                  \
            msg += e_;                                                                                                 \
            delete[] a_;                                                                                               \
            delete[] e_;                                                                                               \
            QFAIL(msg.constData());                                                                                    \
        }                                                                                                              \
    } while (false)
