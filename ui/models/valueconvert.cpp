#include "models/valueconvert.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <QDir>

#include <cmath>
#include <limits>

namespace hiera::ui {

using hiera::Value;

namespace ValueConvert {

namespace {
struct TypeNameEntry
{
    Value::Type type;
    const char* name;
};
// Editor order: the scalars people type most first.
constexpr TypeNameEntry typeTable[] = {
    {Value::Type::String, "string"},   {Value::Type::Integer, "integer"}, {Value::Type::Float, "float"},
    {Value::Type::Boolean, "boolean"}, {Value::Type::Null, "null"},       {Value::Type::Array, "array"},
    {Value::Type::Hash, "hash"},
};
} // namespace

QString typeName(Value::Type type)
{
    for (const auto& entry : typeTable) {
        if (entry.type == type)
            return QString::fromLatin1(entry.name);
    }
    return {};
}

std::optional<Value::Type> typeFromName(const QString& name)
{
    for (const auto& entry : typeTable) {
        if (name.compare(QLatin1String(entry.name), Qt::CaseInsensitive) == 0)
            return entry.type;
    }
    return std::nullopt;
}

QStringList typeNames()
{
    QStringList names;
    for (const auto& entry : typeTable)
        names << QString::fromLatin1(entry.name);
    return names;
}

QString compactJson(const Value& value, bool revealSecrets)
{
    const Value shown = revealSecrets ? value : hiera::redactSecrets(value);
    try {
        return toQString(hiera::toJson(shown));
    } catch (const hiera::Error&) {
        return toQString(hiera::rubyInspect(shown));
    }
}

QString cellShown(QString text)
{
    if (text.size() <= maxCellCharacters)
        return text;
    qsizetype cut = maxCellCharacters;
    if (text.at(cut - 1).isHighSurrogate())
        --cut; // never split a character outside the Basic Multilingual Plane
    qsizetype rest = 0; // characters, not UTF-16 units
    for (qsizetype i = cut; i < text.size(); ++i)
        rest += text.at(i).isLowSurrogate() ? 0 : 1;
    text.truncate(cut);
    return text + QStringLiteral(" … (%1 more characters)").arg(rest);
}

QString displayText(const Value& value)
{
    switch (value.type()) {
    case Value::Type::Null:
        return QStringLiteral("null");
    case Value::Type::Boolean:
        return value.asBoolean() ? QStringLiteral("true") : QStringLiteral("false");
    case Value::Type::Integer:
        return QString::number(value.asInteger());
    case Value::Type::Float:
        return toQString(hiera::rubyFloat(value.asFloat()));
    case Value::Type::String:
        return toQString(value.asString());
    case Value::Type::Array: {
        const auto n = value.asArray().size();
        return n == 1 ? QStringLiteral("[1 item]") : QStringLiteral("[%1 items]").arg(n);
    }
    case Value::Type::Hash: {
        const auto n = value.asHash().size();
        return n == 1 ? QStringLiteral("{1 key}") : QStringLiteral("{%1 keys}").arg(n);
    }
    }
    return {};
}

QString editText(const Value& value)
{
    if (!value.isScalar() || value.isNull())
        return {};
    return displayText(value);
}

QString keyText(const Value& key)
{
    if (key.isString())
        return toQString(key.asString());
    return displayText(key);
}

std::optional<Value> parseScalar(const QString& input, Value::Type type, QString* error)
{
    const QString text = type == Value::Type::String ? input : input.trimmed();
    auto fail = [error](const QString& message) -> std::optional<Value> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    switch (type) {
    case Value::Type::String:
        return Value(toStd(text));
    case Value::Type::Null:
        return Value();
    case Value::Type::Boolean: {
        const QString t = text.toLower();
        if (t == QLatin1String("true") || t == QLatin1String("yes") || t == QLatin1String("on"))
            return Value(true);
        if (t == QLatin1String("false") || t == QLatin1String("no") || t == QLatin1String("off"))
            return Value(false);
        return fail(QStringLiteral("'%1' is not a boolean (true or false)").arg(text));
    }
    case Value::Type::Integer: {
        bool ok = false;
        // Base 10 only: "015" must not silently become 13 in the fact editor.
        const qlonglong i = text.toLongLong(&ok, 10);
        if (!ok)
            return fail(QStringLiteral("'%1' is not a 64-bit integer").arg(text));
        return Value(static_cast<std::int64_t>(i));
    }
    case Value::Type::Float: {
        const QString t = text.toLower();
        const QString bare = t.startsWith(QLatin1Char('-')) || t.startsWith(QLatin1Char('+')) ? t.mid(1) : t;
        const double sign = t.startsWith(QLatin1Char('-')) ? -1.0 : 1.0;
        if (bare == QLatin1String("inf") || bare == QLatin1String(".inf"))
            return Value(sign * std::numeric_limits<double>::infinity());
        if (bare == QLatin1String("nan") || bare == QLatin1String(".nan"))
            return Value(std::numeric_limits<double>::quiet_NaN());
        bool ok = false;
        const double d = text.toDouble(&ok); // QString::toDouble is C-locale: '.' whatever the UI locale
        if (!ok)
            return fail(QStringLiteral("'%1' is not a number").arg(text));
        return Value(d);
    }
    case Value::Type::Array:
    case Value::Type::Hash:
        return fail(QStringLiteral("arrays and hashes are edited through their children"));
    }
    return fail(QStringLiteral("unknown type"));
}

Value defaultValue(Value::Type type)
{
    switch (type) {
    case Value::Type::Null:
        return Value();
    case Value::Type::Boolean:
        return Value(false);
    case Value::Type::Integer:
        return Value(std::int64_t(0));
    case Value::Type::Float:
        return Value(0.0);
    case Value::Type::String:
        return Value(std::string());
    case Value::Type::Array:
        return Value(hiera::Array());
    case Value::Type::Hash:
        return Value(hiera::Hash());
    }
    return Value();
}

Value convertValue(const Value& value, Value::Type type)
{
    if (value.type() == type)
        return value;
    if (type == Value::Type::Array) {
        if (value.isHash() || value.isNull())
            return Value(hiera::Array());
        return Value(hiera::Array{value});
    }
    if (type == Value::Type::Hash)
        return Value(hiera::Hash());
    if (!value.isScalar())
        return defaultValue(type);
    if (type == Value::Type::Boolean && value.isNumber())
        return Value(value.isInteger() ? value.asInteger() != 0 : value.asFloat() != 0.0);
    if (type == Value::Type::Integer && value.isBoolean())
        return Value(std::int64_t(value.asBoolean() ? 1 : 0));
    if (type == Value::Type::Integer && value.isFloat() && std::isfinite(value.asFloat())
        && std::abs(value.asFloat()) < 9.2e18)
        return Value(static_cast<std::int64_t>(value.asFloat()));
    if (type == Value::Type::String && value.isNull())
        return Value(std::string());
    if (auto parsed = parseScalar(displayText(value), type))
        return *parsed;
    return defaultValue(type);
}

QVariant toVariant(const Value& value)
{
    switch (value.type()) {
    case Value::Type::Boolean:
        return value.asBoolean();
    case Value::Type::Integer:
        return QVariant::fromValue(static_cast<qlonglong>(value.asInteger()));
    case Value::Type::Float:
        return value.asFloat();
    case Value::Type::String:
        return toQString(value.asString());
    default:
        return {};
    }
}

QString shortPath(const QString& path, const QString& baseDirectory)
{
    if (baseDirectory.isEmpty() || path.isEmpty())
        return path;
    const QString base = QDir::cleanPath(baseDirectory) + QLatin1Char('/');
    if (path.startsWith(base))
        return path.mid(base.size());
    return path;
}

QString locationText(const hiera::SourceLocation& location, const QString& baseDirectory)
{
    if (!location.isValid())
        return {};
    QString text = shortPath(toQString(location.file), baseDirectory);
    if (location.line > 0)
        text += QLatin1Char(':') + QString::number(location.line);
    return text;
}

QString originText(const hiera::SourceMark& mark, const QString& baseDirectory)
{
    if (!mark.isValid())
        return {};
    return locationText(hiera::SourceFiles::locate(mark), baseDirectory);
}

} // namespace ValueConvert

} // namespace hiera::ui
