// The open files, one tab each. It joins each CodeEditor to the core's buffer of the same
// path: opens and closes buffers, sends the person's edits as `buffer.replace`, applies
// other clients' edits from `buffer.changed`, saves on request, and shows the core's
// `dirty` flag as a "•" in the tab title.
#pragma once

#include "gui/buffer_edit.hpp"
#include "gui/buffer_sync.hpp"
#include "protocol/wire.hpp"

#include <QPoint>
#include <QSet>
#include <QTabWidget>
#include <functional>
#include <map>
#include <memory>

namespace rio::gui {

class CodeEditor;
class CoreClient;

class EditorArea : public QTabWidget {
    Q_OBJECT
public:
    explicit EditorArea(CoreClient& core, QWidget* parent = nullptr);
    ~EditorArea() override;

    // Shows the file's tab, opening its buffer first if needed; at `line` (from 1) if given.
    void open(const QString& path, int line = 0);
    // Saves the buffer; asks before overwriting a file another program changed. `done` hears
    // whether it was saved.
    void save(const QString& path, bool force = false, std::function<void(bool)> done = {});
    void save_current();
    // Saves every buffer with unsaved changes; `done` hears whether all of them were saved.
    void save_all(std::function<void(bool)> done = {});
    // Shows a buffer the core opened for another reason (buffer.create's result) in a tab.
    void adopt(const BufferState& state);
    // Closes the buffer (asking first when it has unsaved changes); the tab goes when the
    // core reports `closed`.
    void close_file(const QString& path);

    // The core's `buffer.changed` event.
    void buffer_changed(const BufferChangedEvent& event);
    // The project changed: every tab goes, without asking the core (it dropped the buffers).
    void drop_all();
    // The core is gone: nothing can be saved any more; editors become read-only.
    void core_lost();
    // A core again (reconnected): every tab's buffer is opened in it. Text the person had
    // not saved stays and goes to the core as one edit, so it is unsaved there too; a saved
    // tab shows the file as it is now.
    void core_back();

    CodeEditor* editor(const QString& path) const;
    CodeEditor* current_editor() const;
    QString current_path() const;
    bool is_dirty(const QString& path) const;
    QStringList dirty_paths() const;
    // The files open in tabs, in the order the tabs show them; the current one last, so
    // opening them again in this order leaves it current.
    QStringList open_paths() const;
    QString describe(const QString& path) const; // "UTF-8 · LF" for the status bar
    bool busy() const; // an open is in flight, or an editor waits for a resync
    // The core's version of the text the editor shows, when no edit of its is in flight and
    // it is not being fetched again; nullopt otherwise (or for no such tab).
    std::optional<long long> settled_version(const QString& path) const;

    // Points added to every tab's font size, tabs opened later included (Ctrl+= / Ctrl+- /
    // Ctrl+0); kept within what stays readable.
    int zoom() const { return zoom_; }
    void set_zoom(int points);

signals:
    void message(const QString& text); // for the status bar
    void file_opened(const QString& path);
    void zoom_changed(int points);
    // An editor asks what is at byte `position` (the mouse rested there, or moved with Ctrl).
    void hover_requested(rio::gui::CodeEditor* editor, long position, QPoint at);

private:
    struct OpenFile;
    OpenFile* find(const QString& path) const;
    OpenFile* find(const CodeEditor* editor) const;
    void add_tab(const QString& path, const BufferState& state);
    void send_edit(CodeEditor* editor, const ByteEdit& edit);
    void apply_event(OpenFile& file, const BufferChangedEvent& event);
    void resync_if_needed(OpenFile& file);
    void set_dirty(OpenFile& file, bool dirty);
    void update_summary(OpenFile& file, const BufferState& state);
    void
    close_then_remove(const BufferCloseParams& params); // buffer.close; the tab goes once it did
    void remove(const QString& path);
    void ask_to_close_unsaved(const QString& path);

    CoreClient& core_;
    std::map<QString, std::unique_ptr<OpenFile>> files_;
    QSet<QString> opening_; // buffer.open in flight
    int zoom_ = 0;
};

} // namespace rio::gui
