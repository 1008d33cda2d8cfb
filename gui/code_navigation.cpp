#include "gui/code_navigation.hpp"

#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_diagnostics.hpp"
#include "gui/main_window.hpp"
#include "gui/problems_panel.hpp"
#include "gui/search_panel.hpp"

#include <QPointer>
#include <QStatusBar>
#include <QTextDocument>
#include <QToolTip>

namespace rio::gui {
namespace {

constexpr int navigation_message_ms = 6000;
// Enough places to come back through a long reading; the oldest go first.
constexpr std::size_t max_history = 100;

struct Spot {
    std::uint64_t line = 1, column = 0;
};

Spot spot_of(CodeEditor& editor, long position) {
    const long line = editor.SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION,
                                           static_cast<unsigned long>(position));
    const long start =
        editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, static_cast<unsigned long>(line));
    return {static_cast<std::uint64_t>(line) + 1, static_cast<std::uint64_t>(position - start)};
}

// lsp.hover's, lsp.definition's or lsp.references' params.
template <typename P> P place_params(const QString& path, Spot spot) {
    return P{path.toStdString(), spot.line, spot.column};
}

// The word under the cursor, for the references' title.
QString word_at(CodeEditor& editor, long position) {
    const long from = editor.SendScintilla(QsciScintilla::SCI_WORDSTARTPOSITION,
                                           static_cast<unsigned long>(position), true);
    const long to = editor.SendScintilla(QsciScintilla::SCI_WORDENDPOSITION,
                                         static_cast<unsigned long>(position), true);
    return to > from ? editor.text(static_cast<int>(from), static_cast<int>(to)) : QString();
}

} // namespace

CodeNavigation::CodeNavigation(MainWindow& window) : QObject(&window), window_(window) {
    connect(window_.editors(), &EditorArea::file_opened, this, &CodeNavigation::place_pending);
}

std::optional<CodeNavigation::Place> CodeNavigation::here() const {
    CodeEditor* editor = window_.editors()->current_editor();
    if (!editor) return std::nullopt;
    Spot spot = spot_of(*editor, editor->SendScintilla(QsciScintilla::SCI_GETCURRENTPOS));
    return Place{editor->path(), spot.line, spot.column};
}

void CodeNavigation::say(const QString& text) {
    window_.statusBar()->showMessage(text, navigation_message_ms);
}

void CodeNavigation::go_to(const QString& path, std::uint64_t line, std::uint64_t column,
                           bool remember) {
    // A hover shown, or on its way, describes the place being left.
    ++hover_generation_;
    QToolTip::hideText();
    if (remember)
        if (auto place = here()) {
            history_.push_back(*place);
            if (history_.size() > max_history) history_.erase(history_.begin());
        }
    pending_ = Place{path, line, column};
    window_.centre()->show_editors();
    if (window_.editors()->editor(path)) {
        window_.editors()->open(path);
        place_pending(path);
        return;
    }
    window_.open_file(path);
}

void CodeNavigation::place_pending(const QString& opened) {
    if (!pending_ || pending_->path != opened) return;
    const Place place = *std::exchange(pending_, std::nullopt);
    CodeEditor* editor = window_.editors()->editor(opened);
    if (!editor) return;
    editor->select_in_line(static_cast<int>(place.line), static_cast<long long>(place.column), 0);
    editor->setFocus();
    emit arrived(opened);
}

void CodeNavigation::go_to_definition() {
    CodeEditor* editor = window_.editors()->current_editor();
    if (!editor) return;
    const QString path = editor->path();
    const Spot spot = spot_of(*editor, editor->SendScintilla(QsciScintilla::SCI_GETCURRENTPOS));
    editor->flush_edits(); // the server must see what the person sees
    window_.core().call(
        place_params<LspDefinitionParams>(path, spot), this,
        [this](const client::Typed<LspDefinitionParams>& found) {
            if (!found)
                return say(
                    tr("No definition: %1").arg(QString::fromStdString(found.error().message)));
            if (found->locations.empty()) return say(tr("No definition found here"));
            const SourceLocation& place = found->locations.front();
            if (place.external)
                return say(tr("Defined outside the project: %1:%2")
                               .arg(QString::fromStdString(place.path))
                               .arg(place.line));
            go_to(QString::fromStdString(place.path), place.line, place.column);
        });
}

void CodeNavigation::go_back() {
    if (history_.empty()) return say(tr("No place to go back to"));
    const Place place = history_.back();
    history_.pop_back();
    go_to(place.path, place.line, place.column, false);
}

void CodeNavigation::find_references() {
    CodeEditor* editor = window_.editors()->current_editor();
    if (!editor) return;
    const long position = editor->SendScintilla(QsciScintilla::SCI_GETCURRENTPOS);
    const QString symbol = word_at(*editor, position);
    editor->flush_edits();
    window_.core().call(
        place_params<LspReferencesParams>(editor->path(), spot_of(*editor, position)), this,
        [this, symbol](const client::Typed<LspReferencesParams>& found) {
            if (!found)
                return say(
                    tr("No references: %1").arg(QString::fromStdString(found.error().message)));
            window_.search()->show_references(symbol, found->locations);
        });
}

void CodeNavigation::hover(CodeEditor* editor, long position, QPoint at) {
    if (!editor || position < 0) return;
    const int generation = ++hover_generation_;
    QStringList parts;
    if (const auto* list = window_.problems()->problems().of(editor->path().toStdString()))
        for (const DiagnosticInfo* d : diagnostics_at(*editor, *list, position))
            parts << QStringLiteral("<b>%1</b>: %2")
                         .arg(QString::fromStdString(d->severity.name()),
                              QString::fromStdString(d->message).toHtmlEscaped());
    QPointer<CodeEditor> target(editor);
    const QPoint global = editor->viewport()->mapToGlobal(at);
    window_.core().call(place_params<LspHoverParams>(editor->path(), spot_of(*editor, position)),
                        this,
                        [this, target, global, parts,
                         generation](const client::Typed<LspHoverParams>& hover) mutable {
                            if (generation != hover_generation_ || !target) return;
                            if (hover && !hover->text.empty()) {
                                QTextDocument doc;
                                if (hover->markdown)
                                    doc.setMarkdown(QString::fromStdString(hover->text));
                                else
                                    doc.setPlainText(QString::fromStdString(hover->text));
                                parts << doc.toHtml();
                            }
                            if (parts.isEmpty()) return;
                            last_hover_ = parts.join(QStringLiteral("<hr>"));
                            QToolTip::showText(global, last_hover_, target);
                            emit hovered();
                        });
}

} // namespace rio::gui
