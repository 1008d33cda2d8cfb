#include "gui/editor_area.hpp"

#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/file_icons.hpp"
#include "gui/json_text.hpp"
#include "gui/prompts.hpp"
#include "protocol/closed_sets.hpp"

#include <QMessageBox>
#include <QPointer>
#include <QTabBar>
#include <QToolButton>
#include <algorithm>

namespace rio::gui {
namespace {

QString file_name(const QString& path) {
    return path.section(QLatin1Char('/'), -1);
}

QString error_text(const Error& error) {
    return QString::fromStdString(error.message);
}

// A buffer's text without copying it (buffer.open answers up to 64 MiB).
const std::string& buffer_text_of(const BufferState& state) {
    static const std::string none;
    return state.text ? *state.text : none;
}

} // namespace

struct EditorArea::OpenFile {
    QString path;
    CodeEditor* editor = nullptr; // owned by the tab widget
    BufferSync sync;
    bool dirty = false;
    Wire<Encoding> encoding;
    Wire<Eol> eol;
    bool unsaved_at_loss = false; // dirty, or an edit unanswered, when the core went away
};

EditorArea::EditorArea(CoreClient& core, QWidget* parent) : QTabWidget(parent), core_(core) {
    setTabsClosable(true);
    setMovable(true);
    setDocumentMode(true);
    setElideMode(Qt::ElideMiddle);
    setUsesScrollButtons(true);
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (auto* editor = qobject_cast<CodeEditor*>(widget(index))) close_file(editor->path());
    });
}

EditorArea::~EditorArea() = default;

EditorArea::OpenFile* EditorArea::find(const QString& path) const {
    auto it = files_.find(path);
    return it == files_.end() ? nullptr : it->second.get();
}

EditorArea::OpenFile* EditorArea::find(const CodeEditor* editor) const {
    for (const auto& [path, file] : files_)
        if (file->editor == editor) return file.get();
    return nullptr;
}

CodeEditor* EditorArea::editor(const QString& path) const {
    OpenFile* file = find(path);
    return file ? file->editor : nullptr;
}

CodeEditor* EditorArea::current_editor() const {
    return qobject_cast<CodeEditor*>(currentWidget());
}

QString EditorArea::current_path() const {
    CodeEditor* editor = current_editor();
    return editor ? editor->path() : QString();
}

bool EditorArea::is_dirty(const QString& path) const {
    OpenFile* file = find(path);
    return file && file->dirty;
}

QStringList EditorArea::dirty_paths() const {
    QStringList out;
    for (const auto& [path, file] : files_)
        if (file->dirty) out << path;
    return out;
}

QStringList EditorArea::open_paths() const {
    QStringList out;
    for (int i = 0; i < count(); ++i)
        if (OpenFile* file = find(qobject_cast<const CodeEditor*>(widget(i))); file)
            out << file->path;
    if (const QString current = current_path(); out.removeOne(current)) out << current;
    return out;
}

QString EditorArea::describe(const QString& path) const {
    OpenFile* file = find(path);
    if (!file) return {};
    QString encoding = file->encoding == Encoding::utf8_bom ? tr("UTF-8 with BOM") : tr("UTF-8");
    QString eol = QString::fromStdString(file->eol.name()).toUpper();
    if (file->eol == Eol::none) eol = tr("no line ends");
    return encoding + QStringLiteral(" · ") + eol;
}

bool EditorArea::busy() const {
    if (!opening_.isEmpty()) return true;
    for (const auto& [path, file] : files_)
        if (file->sync.in_flight() > 0 || file->sync.resyncing() || file->sync.needs_resync())
            return true;
    return false;
}

std::optional<long long> EditorArea::settled_version(const QString& path) const {
    const OpenFile* file = find(path);
    if (!file) return std::nullopt;
    file->editor->flush_edits();
    if (file->sync.in_flight() > 0 || file->sync.resyncing()) return std::nullopt;
    return file->sync.version();
}

void EditorArea::open(const QString& path, int line) {
    if (CodeEditor* editor = this->editor(path)) {
        setCurrentWidget(editor);
        editor->setFocus();
        if (line > 0) editor->go_to(line, 1);
        return;
    }
    if (opening_.contains(path)) return;
    opening_.insert(path);
    core_.call(BufferOpenParams{path.toStdString()}, this,
               [this, path, line](const client::Typed<BufferOpenParams>& opened) {
                   opening_.remove(path);
                   if (!opened) {
                       emit message(tr("Cannot open %1: %2").arg(path, error_text(opened.error())));
                       return;
                   }
                   // The core names the file by its real path (links resolved).
                   QString real = QString::fromStdString(opened->path);
                   if (real.isEmpty()) real = path;
                   if (!find(real)) add_tab(real, *opened);
                   setCurrentWidget(editor(real));
                   editor(real)->setFocus();
                   if (line > 0) editor(real)->go_to(line, 1);
                   emit file_opened(real);
               });
}

void EditorArea::add_tab(const QString& path, const BufferState& state) {
    auto file = std::make_unique<OpenFile>(
        OpenFile{path, new CodeEditor(path), BufferSync(static_cast<long long>(state.version)),
                 state.dirty, state.encoding, state.eol});
    CodeEditor* editor = file->editor;
    editor->load(buffer_text_of(state), file->eol);
    editor->zoomTo(zoom_);
    connect(editor, &CodeEditor::edited, this,
            [this, editor](const ByteEdit& edit) { send_edit(editor, edit); });
    connect(editor, &CodeEditor::hover_requested, this, [this, editor](long position, QPoint at) {
        emit hover_requested(editor, position, at);
    });
    const int index = addTab(editor, file_icon(path, false, false), file_name(path));
    setTabToolTip(index, path);
    // A close button in the text's colour, light or dark, not the style's red cross.
    auto* close = new QToolButton;
    close->setAutoRaise(true);
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Close %1 (Ctrl+W)").arg(file_name(path)));
    close->setAccessibleName(tr("Close %1").arg(file_name(path)));
    close->setFocusPolicy(Qt::NoFocus);
    close->setCursor(Qt::PointingHandCursor);
    close->setStyleSheet(QStringLiteral("QToolButton { border: none; border-radius: 3px; "
                                        "padding: 0 3px; color: palette(text); }"
                                        "QToolButton:hover { background: palette(midlight); }"));
    tabBar()->setTabButton(index, QTabBar::RightSide, close);
    connect(close, &QToolButton::clicked, this, [this, editor] {
        if (const int at = indexOf(editor); at >= 0) emit tabCloseRequested(at);
    });
    OpenFile& added = *file;
    files_.emplace(path, std::move(file));
    set_dirty(added, added.dirty);
}

void EditorArea::set_zoom(int points) {
    points = std::clamp(points, -8, 20);
    if (points == zoom_) return;
    zoom_ = points;
    for (const auto& [path, file] : files_)
        file->editor->zoomTo(zoom_);
    emit zoom_changed(zoom_);
}

void EditorArea::send_edit(CodeEditor* editor, const ByteEdit& edit) {
    OpenFile* file = find(editor);
    if (!file) return;
    const long long base = file->sync.local_edit();
    QPointer<CodeEditor> guard(editor);
    core_.call(
        replace_params(file->path.toStdString(), edit, base), this,
        [this, guard](const client::Typed<BufferReplaceParams>& replaced) {
            OpenFile* file = guard ? find(guard.data()) : nullptr;
            if (!file) return;
            if (!replaced) {
                file->sync.local_reply(std::nullopt);
                if (replaced.error().code != ErrorCode::conflict)
                    emit message(
                        tr("Edit to %1 refused: %2").arg(file->path, error_text(replaced.error())));
            } else {
                file->sync.local_reply(static_cast<long long>(replaced->version));
                update_summary(*file, *replaced);
            }
            resync_if_needed(*file);
        });
}

void EditorArea::buffer_changed(const BufferChangedEvent& event) {
    OpenFile* file = find(QString::fromStdString(event.path));
    if (!file) return;
    if (event.is(BufferChange::closed)) {
        remove(file->path);
        return;
    }
    if (event.is(BufferChange::edited)) apply_event(*file, event);
    set_dirty(*file, event.dirty);
    resync_if_needed(*file);
}

void EditorArea::apply_event(OpenFile& file, const BufferChangedEvent& event) {
    file.editor->flush_edits(); // the sync must know of every local edit before deciding
    if (file.sync.remote_edit(static_cast<long long>(event.version)) != BufferSync::Remote::apply)
        return;
    auto edit = edit_from_event(event);
    if (!edit || !file.editor->apply_remote(*edit)) file.sync.mark_stale();
}

void EditorArea::resync_if_needed(OpenFile& file) {
    if (!file.sync.needs_resync()) return;
    file.sync.resync_started();
    file.editor->setReadOnly(true); // typing now would be lost in the text that comes back
    QPointer<CodeEditor> guard(file.editor);
    core_.call(BufferTextParams{file.path.toStdString()}, this,
               [this, guard](const client::Typed<BufferTextParams>& held) {
                   OpenFile* file = guard ? find(guard.data()) : nullptr;
                   if (!file) return;
                   if (!held) {
                       file->sync.resync_failed();
                       emit message(
                           tr("Cannot reload %1: %2").arg(file->path, error_text(held.error())));
                       return; // stays read-only: its text is not the core's
                   }
                   file->editor->replace_all(buffer_text_of(*held));
                   file->sync.resynced(static_cast<long long>(held->version));
                   file->editor->setReadOnly(false);
                   update_summary(*file, *held);
                   emit message(tr("%1 changed elsewhere at the same time; "
                                   "showing the core's text")
                                    .arg(file->path));
               });
}

void EditorArea::update_summary(OpenFile& file, const BufferState& state) {
    file.eol = state.eol;
    file.encoding = state.encoding;
    set_dirty(file, state.dirty);
}

void EditorArea::set_dirty(OpenFile& file, bool dirty) {
    file.dirty = dirty;
    const int index = indexOf(file.editor);
    if (index < 0) return;
    const QString title = file_name(file.path) + (dirty ? QStringLiteral(" •") : QString());
    if (tabText(index) != title) setTabText(index, title);
}

void EditorArea::save_current() {
    if (CodeEditor* editor = current_editor()) save(editor->path());
}

void EditorArea::save(const QString& path, bool force, std::function<void(bool)> done) {
    OpenFile* file = find(path);
    if (!file) {
        if (done) done(false);
        return;
    }
    file->editor->flush_edits(); // the last keystroke goes to the core before the save
    BufferSaveParams params{path.toStdString(), std::nullopt};
    if (force) params.force = true;
    core_.call(params, this, [this, path, done](const client::Typed<BufferSaveParams>& saved) {
        OpenFile* file = find(path);
        if (saved) {
            if (file) update_summary(*file, *saved);
            emit message(tr("Saved %1").arg(path));
            if (done) done(true);
            return;
        }
        const Error& error = saved.error();
        if (error.code == ErrorCode::conflict && file &&
            ask(overwrite_changed_prompt(this, path)) == QMessageBox::Save) {
            save(path, /*force=*/true, done);
            return;
        }
        if (error.code != ErrorCode::conflict)
            emit message(tr("Cannot save %1: %2").arg(path, error_text(error)));
        if (done) done(false);
    });
}

void EditorArea::save_all(std::function<void(bool)> done) {
    const QStringList dirty = dirty_paths();
    if (dirty.isEmpty()) {
        if (done) done(true);
        return;
    }
    auto left = std::make_shared<qsizetype>(dirty.size());
    auto all_saved = std::make_shared<bool>(true);
    for (const QString& path : dirty)
        save(path, false, [left, all_saved, done](bool saved) {
            *all_saved = *all_saved && saved;
            if (--*left == 0 && done) done(*all_saved);
        });
}

void EditorArea::adopt(const BufferState& state) {
    const QString path = QString::fromStdString(state.path);
    if (path.isEmpty()) return;
    if (!find(path)) add_tab(path, state);
    setCurrentWidget(editor(path));
    editor(path)->setFocus();
    emit file_opened(path);
}

void EditorArea::close_file(const QString& path) {
    OpenFile* file = find(path);
    if (!file) return;
    file->editor->flush_edits(); // an unsaved last keystroke makes the core ask first
    core_.call(BufferCloseParams{path.toStdString(), std::nullopt}, this,
               [this, path](const client::Typed<BufferCloseParams>& closed) {
                   // no_buffer: someone else closed it first. Without an error the
                   // `closed` event may come too; removing is idempotent.
                   if (closed || closed.error().code == ErrorCode::no_buffer) {
                       remove(path);
                   } else if (closed.error().code == ErrorCode::conflict) {
                       ask_to_close_unsaved(path);
                   } else {
                       emit message(
                           tr("Cannot close %1: %2").arg(path, error_text(closed.error())));
                   }
               });
}

void EditorArea::ask_to_close_unsaved(const QString& path) {
    if (!find(path)) return;
    setCurrentWidget(editor(path));
    const QMessageBox::StandardButton answer = ask(unsaved_file_prompt(this, path));
    if (answer == QMessageBox::Cancel) return;
    if (answer == QMessageBox::Save) {
        save(path);
        close_then_remove(BufferCloseParams{path.toStdString(), std::nullopt});
        return;
    }
    close_then_remove(BufferCloseParams{path.toStdString(), true});
}

void EditorArea::close_then_remove(const BufferCloseParams& params) {
    const QString path = QString::fromStdString(params.path);
    core_.call(params, this, [this, path](const client::Typed<BufferCloseParams>& closed) {
        if (closed) remove(path);
    });
}

void EditorArea::remove(const QString& path) {
    auto it = files_.find(path);
    if (it == files_.end()) return;
    CodeEditor* editor = it->second->editor;
    files_.erase(it);
    removeTab(indexOf(editor));
    editor->deleteLater();
}

void EditorArea::drop_all() {
    while (!files_.empty())
        remove(files_.begin()->first);
    opening_.clear();
}

void EditorArea::core_back() {
    for (const auto& [path, file] : files_) {
        QPointer<CodeEditor> guard(file->editor);
        core_.call(BufferOpenParams{path.toStdString()}, this,
                   [this, guard](const client::Typed<BufferOpenParams>& opened) {
                       OpenFile* file = guard ? find(guard.data()) : nullptr;
                       if (!file) return;
                       if (!opened) {
                           emit message(
                               tr("Cannot open %1 again: %2; its text stays here, read-only")
                                   .arg(file->path, error_text(opened.error())));
                           return;
                       }
                       const bool unsaved = file->unsaved_at_loss;
                       file->sync = BufferSync(static_cast<long long>(opened->version));
                       update_summary(*file, *opened);
                       file->editor->setReadOnly(false);
                       const std::string& held = buffer_text_of(*opened);
                       std::string mine = file->editor->utf8_text();
                       if (mine == held) return;
                       // A saved tab shows what the file holds now, changed meanwhile or not.
                       if (!unsaved) return file->editor->replace_all(held);
                       send_edit(file->editor, ByteEdit{0, held.size(), std::move(mine)});
                   });
    }
}

void EditorArea::core_lost() {
    for (const auto& [path, file] : files_) {
        file->editor->flush_edits(); // a key typed just before counts as unsaved too
        file->unsaved_at_loss = file->dirty || file->sync.in_flight() > 0;
        file->editor->setReadOnly(true);
    }
    opening_.clear();
}

} // namespace rio::gui
