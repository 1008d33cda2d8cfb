#include "gui/trace_text.hpp"

#include "gui/json_text.hpp"

#include <QCoreApplication>

namespace rio::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("rio", text);
}

// The verb each built-in tool reads as; unknown tools keep their name.
QString verb(const QString& name) {
    if (name == QLatin1String("list_dir")) return QStringLiteral("list");
    if (name == QLatin1String("read_file")) return QStringLiteral("read");
    if (name == QLatin1String("search")) return QStringLiteral("search");
    if (name == QLatin1String("edit_file")) return QStringLiteral("edit");
    if (name == QLatin1String("create_file")) return QStringLiteral("create");
    if (name == QLatin1String("run_command")) return QStringLiteral("run");
    if (name == QLatin1String("present_plan")) return QStringLiteral("plan");
    return name;
}

QString kind_word(const QString& kind) {
    if (kind == QLatin1String("plan")) return tr("Plan");
    if (kind == QLatin1String("edit")) return tr("Edit");
    if (kind == QLatin1String("command")) return tr("Command");
    return tr("Proposal");
}

} // namespace

QString first_line(const QString& text, int max_chars) {
    QString line = text.trimmed().section(QLatin1Char('\n'), 0, 0).trimmed();
    if (line.size() > max_chars) line = line.left(max_chars - 1) + QStringLiteral("…");
    return line;
}

QString argv_text(const Json& argv) {
    QStringList words;
    if (!argv.is_array()) return {};
    for (const Json& word : argv) {
        QString w = word.is_string() ? QString::fromStdString(word.get<std::string>())
                                     : QString::fromStdString(word.dump());
        const bool plain = !w.isEmpty() && !w.contains(QLatin1Char(' ')) &&
                           !w.contains(QLatin1Char('\t')) && !w.contains(QLatin1Char('"')) &&
                           !w.contains(QLatin1Char('\'')) && !w.contains(QLatin1Char('\\')) &&
                           !w.contains(QLatin1Char('$'));
        words << (plain ? w : QLatin1Char('\'') + w + QLatin1Char('\''));
    }
    return words.join(QLatin1Char(' '));
}

QString tool_trace_text(const Json& tool) {
    const Json input = tool.value("input", Json::object());
    const QString name = json_string(tool, "name");
    QString detail;
    if (input.is_object()) {
        if (input.contains("argv")) {
            detail = argv_text(input["argv"]);
        } else if (input.contains("pattern")) {
            detail = QLatin1Char('"') + json_string(input, "pattern") + QLatin1Char('"');
            if (const QString path = json_string(input, "path"); !path.isEmpty())
                detail += tr(" in ") + path;
        } else if (input.contains("title")) {
            detail = QLatin1Char('"') + json_string(input, "title") + QLatin1Char('"');
        } else if (input.contains("path")) {
            detail = json_string(input, "path");
            if (detail.isEmpty() || detail == QLatin1String(".")) detail = tr("the project");
        }
    }
    const QString line = detail.isEmpty() ? verb(name) : verb(name) + QLatin1Char(' ') + detail;
    return first_line(line, 160);
}

ToolOutcome tool_outcome(const Json& result) {
    const QString content = json_string(result, "content");
    if (json_string(result, "name") == QLatin1String("run_command")) {
        // A command's last line is its verdict: "[exit code 0 · 1.2 s]", and it counts whether
        // or not the exit code was zero; a refused or interrupted call has no such line.
        const QString last = content.trimmed().section(QLatin1Char('\n'), -1).trimmed();
        if (last.startsWith(QLatin1Char('[')) && last.endsWith(QLatin1Char(']')))
            return {last.mid(1, last.size() - 2), !result.value("ok", true)};
    }
    if (result.value("ok", true)) return {};
    return {first_line(content), true};
}

QString decision_text(const Json& decided) {
    const QString kind = json_string(decided, "kind");
    const bool approved = json_string(decided, "decision") == QLatin1String("approve");
    QString text = kind_word(kind) + (approved ? tr(" approved") : tr(" rejected"));
    if (kind == QLatin1String("command") && approved) text = tr("Command allowed to run");
    const QString policy = json_string(decided, "policy");
    if (approved && policy == QLatin1String("review")) text += tr(" — review each edit");
    if (approved && policy == QLatin1String("auto")) text += tr(" — auto-accept edits");
    if (const QString feedback = json_string(decided, "feedback"); !feedback.isEmpty())
        text += QStringLiteral(": ") + first_line(feedback);
    return text;
}

} // namespace rio::gui
