#include "widgets/externaleditor.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QProcess>
#include <QUrl>

namespace hiera::ui {

namespace ExternalEditor {

Command build(const QString& editor, const QString& file, int line)
{
    QStringList words = QProcess::splitCommand(editor);
    if (words.isEmpty())
        return {};
    Command command;
    command.program = words.takeFirst();
    command.arguments = words;
    const QString name = QFileInfo(command.program).fileName();
    static const QStringList plusLine{
        QStringLiteral("vi"),    QStringLiteral("vim"),   QStringLiteral("nvim"),        QStringLiteral("gvim"),
        QStringLiteral("view"),  QStringLiteral("emacs"), QStringLiteral("emacsclient"), QStringLiteral("nano"),
        QStringLiteral("micro"), QStringLiteral("kak"),   QStringLiteral("joe"),         QStringLiteral("jed"),
        QStringLiteral("mg"),    QStringLiteral("gedit"), QStringLiteral("mousepad"),    QStringLiteral("pluma"),
        QStringLiteral("xed")};
    static const QStringList gotoLine{QStringLiteral("code"), QStringLiteral("codium"), QStringLiteral("code-oss")};
    static const QStringList colonLine{QStringLiteral("subl"), QStringLiteral("sublime_text"), QStringLiteral("zed")};
    if (line > 0 && plusLine.contains(name)) {
        command.arguments << QStringLiteral("+%1").arg(line) << file;
    } else if (line > 0 && gotoLine.contains(name)) {
        command.arguments << QStringLiteral("-g") << QStringLiteral("%1:%2").arg(file).arg(line);
    } else if (line > 0 && colonLine.contains(name)) {
        command.arguments << QStringLiteral("%1:%2").arg(file).arg(line);
    } else if (line > 0 && (name == QLatin1String("kate") || name == QLatin1String("kwrite"))) {
        command.arguments << QStringLiteral("--line") << QString::number(line) << file;
    } else {
        command.arguments << file; // an editor whose line syntax we do not know: at least the file
    }
    return command;
}

QString fromEnvironment()
{
    const QString visual = qEnvironmentVariable("VISUAL");
    return visual.isEmpty() ? qEnvironmentVariable("EDITOR") : visual;
}

bool open(const QString& file, int line)
{
    if (const Command command = build(fromEnvironment(), file, line); command.isValid())
        return QProcess::startDetached(command.program, command.arguments);
    return QDesktopServices::openUrl(QUrl::fromLocalFile(file));
}

} // namespace ExternalEditor

} // namespace hiera::ui
