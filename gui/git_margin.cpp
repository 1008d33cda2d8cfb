#include "gui/git_margin.hpp"

#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"

#include <QApplication>
#include <QColor>
#include <QMenu>
#include <QPointer>

namespace rio::gui {
namespace {

void set_up(QsciScintilla& editor) {
    if (editor.property("rio_git_marks").toBool()) return;
    editor.setProperty("rio_git_marks", true);
    editor.markerDefine(QsciScintilla::FullRectangle, git_added_marker);
    editor.markerDefine(QsciScintilla::FullRectangle, git_changed_marker);
    editor.markerDefine(QsciScintilla::RightTriangle, git_deleted_marker);
    const std::pair<int, QColor> looks[] = {{git_added_marker, QColor(0x2E, 0xA0, 0x43)},
                                            {git_changed_marker, QColor(0x1A, 0x85, 0xFF)},
                                            {git_deleted_marker, QColor(0xE5, 0x14, 0x00)}};
    for (const auto& [marker, colour] : looks) {
        editor.setMarkerBackgroundColor(colour, marker);
        editor.setMarkerForegroundColor(colour, marker);
    }
}

// The line a deletion's triangle stands on: the one after the deleted lines, or the last.
long deletion_line(const GitMarkHunk& hunk, long line_count) {
    return std::min<long>(static_cast<long>(hunk.b_start), std::max<long>(line_count - 1, 0));
}

} // namespace

void draw_git_marks(QsciScintilla& editor, const std::vector<GitMarkHunk>& hunks) {
    set_up(editor);
    for (int marker : {git_added_marker, git_changed_marker, git_deleted_marker})
        editor.markerDeleteAll(marker);
    const long lines = editor.lines();
    for (const GitMarkHunk& hunk : hunks) {
        if (hunk.b_count == 0) {
            editor.markerAdd(static_cast<int>(deletion_line(hunk, lines)), git_deleted_marker);
            continue;
        }
        const int marker = hunk.a_count == 0 ? git_added_marker : git_changed_marker;
        for (std::uint64_t i = 0; i < hunk.b_count; ++i)
            editor.markerAdd(static_cast<int>(hunk.b_start + i), marker);
    }
}

const GitMarkHunk* hunk_at(const std::vector<GitMarkHunk>& hunks, long line, long line_count) {
    for (const GitMarkHunk& hunk : hunks) {
        const auto start = static_cast<long>(hunk.b_start);
        if (hunk.b_count == 0 ? deletion_line(hunk, line_count) == line
                              : line >= start && line < start + static_cast<long>(hunk.b_count))
            return &hunk;
    }
    return nullptr;
}

void revert_hunk(QsciScintilla& editor, const GitMarkHunk& hunk) {
    const long length = editor.SendScintilla(QsciScintilla::SCI_GETLENGTH);
    const long lines = editor.SendScintilla(QsciScintilla::SCI_GETLINECOUNT);
    const auto position = [&](std::uint64_t line) {
        return static_cast<long>(line) >= lines
                   ? length
                   : editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE,
                                          static_cast<unsigned long>(line));
    };
    const long start = position(hunk.b_start);
    const long end = position(hunk.b_start + hunk.b_count);
    std::string text = hunk.head_text;
    // Lines put back after a last line with no line end: the end goes before them instead.
    if (start == length && length > 0 &&
        editor.SendScintilla(QsciScintilla::SCI_GETCHARAT,
                             static_cast<unsigned long>(length - 1)) != '\n' &&
        !text.empty()) {
        if (text.back() == '\n') text.pop_back();
        text.insert(text.begin(), '\n');
    }
    editor.beginUndoAction();
    editor.SendScintilla(QsciScintilla::SCI_SETTARGETRANGE, static_cast<unsigned long>(start), end);
    editor.SendScintilla(QsciScintilla::SCI_REPLACETARGET, static_cast<unsigned long>(text.size()),
                         text.c_str());
    editor.endUndoAction();
}

GitMargin::GitMargin(MainWindow& window) : QObject(&window), window_(window) {
    EditorArea* editors = window.editors();
    connect(editors, &EditorArea::file_opened, this, [this](const QString& path) {
        CodeEditor* editor = window_.editors()->editor(path);
        if (!editor || editor->property("rio_git_click").toBool()) return refresh(path);
        editor->setProperty("rio_git_click", true);
        QPointer<CodeEditor> guard(editor);
        connect(editor, &QsciScintilla::marginClicked, this,
                [this, guard](int margin, int line, Qt::KeyboardModifiers) {
                    if (guard && margin == git_margin) on_margin_click(guard->path(), line);
                });
        refresh(path);
    });
    connect(&window.core(), &CoreClient::core_event, this, [this](const client::CoreEvent& event) {
        if (const auto* buffer = std::get_if<BufferChangedEvent>(&event)) {
            const QString path = QString::fromStdString(buffer->path);
            if (buffer->is(BufferChange::closed)) {
                files_.erase(path);
                return;
            }
            // Outside a repository typing asks nothing; the disk and the focus still do (a
            // `git init` in the terminal).
            const GitMarksResult* known = marks(path);
            if (buffer->is(BufferChange::edited) && known && !known->repository) return;
            refresh(path);
        } else if (const auto* changed = std::get_if<FsChangedEvent>(&event)) {
            for (const std::string& path : changed->paths)
                if (path == ".") return refresh_all();
            for (const std::string& path : changed->paths)
                if (files_.contains(QString::fromStdString(path)))
                    refresh(QString::fromStdString(path));
        } else if (std::holds_alternative<ProjectChangedEvent>(event)) {
            files_.clear();
        }
    });
    // HEAD moves where the watcher does not look (.git): a commit made in a terminal shows
    // when the person comes back to the window.
    connect(qApp, &QApplication::applicationStateChanged, this, [this](Qt::ApplicationState s) {
        if (s == Qt::ApplicationActive) refresh_all();
    });
}

const GitMarksResult* GitMargin::marks(const QString& path) const {
    auto it = files_.find(path);
    return it == files_.end() || !it->second.answered ? nullptr : &it->second.marks;
}

void GitMargin::refresh_all() {
    for (const QString& path : window_.editors()->open_paths())
        refresh(path);
}

void GitMargin::refresh(const QString& path) {
    if (!window_.editors()->editor(path)) return;
    File& file = files_[path];
    if (file.asking) {
        file.again = true;
        return;
    }
    ask(path);
}

void GitMargin::ask(const QString& path) {
    File& file = files_[path];
    file.asking = true;
    file.again = false;
    window_.core().call(GitMarksParams{path.toStdString(), std::nullopt}, this,
                        [this, path](const client::Typed<GitMarksParams>& marks) {
                            auto it = files_.find(path);
                            if (it == files_.end()) return;
                            File& file = it->second;
                            file.asking = false;
                            CodeEditor* editor = window_.editors()->editor(path);
                            if (marks && editor) {
                                file.marks = *marks;
                                file.answered = true;
                                draw_git_marks(*editor, file.marks.hunks);
                                emit marks_drawn(path);
                            }
                            if (file.again && editor) ask(path);
                        });
}

bool GitMargin::revert(const QString& path, long line) {
    CodeEditor* editor = window_.editors()->editor(path);
    const GitMarksResult* now = marks(path);
    if (!editor || !now) return false;
    const GitMarkHunk* hunk = hunk_at(now->hunks, line, editor->lines());
    if (!hunk) {
        emit message(tr("No change against HEAD on line %1").arg(line + 1));
        return false;
    }
    const std::optional<long long> shown = window_.editors()->settled_version(path);
    if (!shown || !now->version || static_cast<long long>(*now->version) != *shown) {
        emit message(tr("The change marks are catching up with your typing; try again"));
        return false;
    }
    revert_hunk(*editor, *hunk);
    return true;
}

void GitMargin::on_margin_click(const QString& path, long line) {
    CodeEditor* editor = window_.editors()->editor(path);
    const GitMarksResult* now = marks(path);
    if (!editor || !now || !hunk_at(now->hunks, line, editor->lines())) return;
    QMenu menu(editor);
    menu.addAction(tr("Revert This Change"), this, [this, path, line] { revert(path, line); });
    menu.addAction(tr("Compare with HEAD"), this, [this, path] { emit compare_requested(path); });
    const long position = editor->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE,
                                                static_cast<unsigned long>(line));
    const int y = static_cast<int>(
        editor->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, position));
    menu.exec(editor->viewport()->mapToGlobal(QPoint(0, y + editor->textHeight(line))));
}

} // namespace rio::gui
