#pragma once

// The one bridge between hiera::Value (the engine's std-only data) and Qt's QString/QVariant.
// Everything the models show or the editors parse goes through here, so that scalar typing (what an
// "integer" is, how a float prints) is decided in one place.

#include <hiera/sourcelocation.h>
#include <hiera/value.h>

#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>
#include <string>
#include <string_view>

namespace hiera::ui {

namespace ValueConvert {

inline QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
inline std::string toStd(const QString& s)
{
    return s.toStdString();
}

// "string", "integer", "float", "boolean", "null", "array", "hash": the names the fact editor offers.
QString typeName(hiera::Value::Type type);
std::optional<hiera::Value::Type> typeFromName(const QString& name);
// The scalar and container types in the order the type editor lists them.
QStringList typeNames();

// A one-line rendering for a view cell: strings as they are, null as "null", floats the way Ruby
// prints them, containers summarised ("[3 items]", "{2 keys}").
QString displayText(const hiera::Value& value);
// A whole value on one line for a report's cell (all keys, a node diff, the fleet view): compact
// JSON, so that the string "true" and the boolean stay apart; decrypted eyaml values "<sensitive>"
// unless `revealSecrets`; NaN and infinities, which JSON cannot hold, as Ruby's inspect prints them.
QString compactJson(const hiera::Value& value, bool revealSecrets);
// A cell's text as a view shows it: at most maxCellCharacters, the rest counted ("… (N more
// characters)"). Sizing a column to a 3 MB string (resizeColumnToContents measures every character)
// froze the window for seconds; the whole value stays in the answer pane, the exports, the editors
// and the clipboard. Only for Qt::DisplayRole and Qt::ToolTipRole.
inline constexpr qsizetype maxCellCharacters = 2000;
QString cellShown(QString text);
// The text an editor starts from (containers: empty).
QString editText(const hiera::Value& value);
// A hash key (almost always a string; YAML allows integer keys).
QString keyText(const hiera::Value& key);

// Parses editor text as a scalar of `type`. Integers are 64-bit decimal (optionally signed); floats
// accept C-locale notation and inf/nan; booleans true/false (yes/no/on/off as Psych reads them).
// Returns nullopt and sets `error` when the text is not a value of that type.
std::optional<hiera::Value> parseScalar(const QString& text, hiera::Value::Type type, QString* error = nullptr);

// Converts a value to another type for the Type column: scalars keep their meaning where they can
// ("42" -> 42, 1 -> true), otherwise the type's empty value; a scalar turned into an array becomes
// a one-element array.
hiera::Value convertValue(const hiera::Value& value, hiera::Value::Type type);
hiera::Value defaultValue(hiera::Value::Type type);

// The value for Qt::EditRole / tests: qlonglong, double, bool, QString, or an invalid QVariant for null
// and containers.
QVariant toVariant(const hiera::Value& value);

QString locationText(const hiera::SourceLocation& location, const QString& baseDirectory = {});
// "file:line" for a mark, relative to `baseDirectory` when the file lies under it; empty if unknown.
QString originText(const hiera::SourceMark& mark, const QString& baseDirectory = {});
// A path shown relative to `baseDirectory` when it lies under it.
QString shortPath(const QString& path, const QString& baseDirectory);

} // namespace ValueConvert

} // namespace hiera::ui
