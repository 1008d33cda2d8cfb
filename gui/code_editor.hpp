// One open file's editor: QScintilla set up for code (lexer by file name, a monospace font,
// line numbers, UTF-8, the file's own line ending). It shows text the core gives it and
// reports what the person types as byte edits; it never talks to the core itself.
#pragma once

#include "gui/buffer_edit.hpp"

#include <QPoint>
#include <QString>
#include <Qsci/qsciscintilla.h>
#include <optional>
#include <string>

namespace rio::gui {

class CodeEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit CodeEditor(const QString& path, QWidget* parent = nullptr);

    const QString& path() const { return path_; }

    // Shows the core's text (UTF-8) as a fresh, unmodified document; `eol` is the buffer's.
    void load(const std::string& text, const Wire<Eol>& eol);
    // Applies an edit made elsewhere (another client, the agent). It is not reported back
    // through `edited`. False when the offsets do not fit the text or a character.
    bool apply_remote(const ByteEdit& edit);
    // Replaces the whole text after a resync, keeping the caret and scroll position near.
    void replace_all(const std::string& text);

    std::string utf8_text() const; // the whole text, as the core should have it
    // Reports an insertion whose bytes are not read yet (it happens by itself once the
    // event loop runs); call it before anything that must see every local edit sent.
    void flush_edits();
    // Puts the cursor on `line` at character `column` (both from 1, held to what the file
    // has) with that line in the middle of the view.
    void go_to(int line, int column);
    // Selects `length` bytes from byte `column` (from 0) of `line` (from 1), held to that
    // line, with the line in the middle of the view: a project search's match.
    void select_in_line(int line, long long column, long long length);

signals:
    void edited(const rio::gui::ByteEdit& edit); // a change made in this editor
    // The mouse rested over byte `position`, or moved there with Ctrl held; `at` is in the
    // viewport's coordinates.
    void hover_requested(long position, QPoint at);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void on_modified(int position, int type, int length);
    void update_line_number_width();
    void floor_scroll_width();
    void centre_line(long row);

    QString path_;
    bool applying_core_text_ = false;
    std::optional<ByteChange> pending_insert_; // announced, read by flush_edits
    int line_number_digits_ = 0;
    long last_ctrl_hover_ = -1;
    long scroll_floor_ = 0; // the text area's width the scroll range last started from
};

} // namespace rio::gui
