#include "gui/code_editor.hpp"

#include "gui/editor_accessibility.hpp"
#include "gui/editor_style.hpp"
#include "gui/lexers.hpp"
#include "gui/line_endings.hpp"
#include "gui/theme.hpp"

#include <QMouseEvent>
#include <QTimer>
#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <Qsci/qscilexer.h>
#include <algorithm>
#include <cstdint>
#include <utility>

namespace rio::gui {
namespace {

// How long the mouse rests before the hover shows, as other editors wait.
constexpr int hover_pause_ms = 600;

// Restores the read-only flag after the core's text went in: a read-only Scintilla
// refuses programmatic changes too.
class WritableForCore {
public:
    WritableForCore(QsciScintilla& editor, bool& flag)
        : editor_(editor), flag_(flag), was_read_only_(editor.isReadOnly()) {
        flag_ = true;
        if (was_read_only_) editor_.setReadOnly(false);
    }
    ~WritableForCore() {
        if (was_read_only_) editor_.setReadOnly(true);
        flag_ = false;
    }

private:
    QsciScintilla& editor_;
    bool& flag_;
    bool was_read_only_;
};

} // namespace

CodeEditor::CodeEditor(const QString& path, QWidget* parent) : QsciScintilla(parent), path_(path) {
    prefer_light_editor_accessibility();
    setUtf8(true); // positions are then UTF-8 byte offsets, the protocol's unit
    // Zoom is the window's, for every tab at once (EditorArea::set_zoom): Scintilla's own
    // keys would zoom this tab alone.
    for (QsciCommand::Command zoom : {QsciCommand::ZoomIn, QsciCommand::ZoomOut})
        if (QsciCommand* command = standardCommands()->find(zoom)) {
            command->setKey(0);
            command->setAlternateKey(0);
        }
    const QFont font = editor_font();
    if (QsciLexer* lexer = lexer_for(path, this)) {
        style_lexer(*lexer, font);
        setLexer(lexer);
    } else {
        setFont(font);
    }
    style_editor(*this, font);
    follow_theme(this, [this] { colour_code(*this, theme_colours()); });
    const bool makefile = lexer() && QLatin1String(lexer()->language()) == "Makefile";
    setIndentationsUseTabs(makefile);

    // Only the "before" modifications reach us: QScintilla's handling of the "after" ones
    // costs time linear in the document (~40 ms a keystroke at the end of 100k lines).
    // Scintilla itself still sees every change; linesChanged no longer fires, so the line
    // number margin follows SCN_UPDATEUI instead.
    SendScintilla(SCI_SETMODEVENTMASK,
                  static_cast<unsigned long>(SC_MOD_BEFOREINSERT | SC_MOD_BEFOREDELETE));
    connect(this, &QsciScintillaBase::SCN_MODIFIED, this,
            [this](int position, int type, const char*, int length, int, int, int, int, int, int) {
                on_modified(position, type, length);
            });
    connect(this, &QsciScintillaBase::SCN_UPDATEUI, this, &CodeEditor::update_line_number_width);
    update_line_number_width();

    // Hover: after the mouse rests, or at once while Ctrl is held (eventFilter).
    SendScintilla(SCI_SETMOUSEDWELLTIME, static_cast<unsigned long>(hover_pause_ms));
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, [this](int position, int x, int y) {
        if (position >= 0) emit hover_requested(position, QPoint(x, y));
    });
    viewport()->installEventFilter(this);
}

bool CodeEditor::eventFilter(QObject* watched, QEvent* event) {
    // Before a paint: the margins may have changed since (the diagnostics' dots, wider line
    // numbers), and the floor must follow them.
    if (watched == viewport() &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Paint))
        floor_scroll_width();
    if (watched == viewport() && event->type() == QEvent::MouseMove) {
        auto* move = static_cast<QMouseEvent*>(event);
        if (move->modifiers() & Qt::ControlModifier && move->buttons() == Qt::NoButton) {
            const QPoint at = move->position().toPoint();
            const long position =
                SendScintilla(SCI_POSITIONFROMPOINTCLOSE, static_cast<unsigned long>(at.x()),
                              static_cast<long>(at.y()));
            if (position >= 0 && position != last_ctrl_hover_) {
                last_ctrl_hover_ = position;
                emit hover_requested(position, at);
            }
        }
    }
    return QsciScintilla::eventFilter(watched, event);
}

void CodeEditor::load(const std::string& text, const Wire<Eol>& eol) {
    {
        WritableForCore guard(*this, applying_core_text_);
        SendScintilla(SCI_SETTEXT, text.c_str());
    }
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    SendScintilla(SCI_SETSAVEPOINT);
    setEolMode(line_ending_for(eol, text) == LineEnding::crlf ? EolWindows : EolUnix);
    update_line_number_width();
}

bool CodeEditor::apply_remote(const ByteEdit& edit) {
    const auto length = static_cast<std::size_t>(SendScintilla(SCI_GETLENGTH));
    if (edit.start > edit.end || edit.end > length) return false;
    // Offsets must fall on character boundaries, as the core guarantees; check anyway so a
    // confused editor resyncs instead of splitting a character.
    auto on_boundary = [this, length](std::size_t at) {
        if (at == length) return true;
        auto byte = static_cast<unsigned char>(
            SendScintilla(SCI_GETCHARAT, static_cast<unsigned long>(at)));
        return (byte & 0xC0) != 0x80; // not a UTF-8 continuation byte
    };
    if (!on_boundary(edit.start) || !on_boundary(edit.end)) return false;
    WritableForCore guard(*this, applying_core_text_);
    SendScintilla(SCI_SETTARGETRANGE, static_cast<unsigned long>(edit.start),
                  static_cast<long>(edit.end));
    SendScintilla(SCI_REPLACETARGET, static_cast<uintptr_t>(edit.text.size()), edit.text.c_str());
    // Another's change (the agent's edit, its undo, a reload from disk) ends this editor's
    // history: Ctrl+Z undoes what was typed here, never brings back text the core took away
    // (decision 0058).
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    return true;
}

void CodeEditor::replace_all(const std::string& text) {
    const long caret = SendScintilla(SCI_GETCURRENTPOS);
    const long first_line = SendScintilla(SCI_GETFIRSTVISIBLELINE);
    {
        WritableForCore guard(*this, applying_core_text_);
        SendScintilla(SCI_SETTEXT, text.c_str());
    }
    SendScintilla(SCI_EMPTYUNDOBUFFER); // the old history no longer matches the text
    const long at = std::min<long>(caret, SendScintilla(SCI_GETLENGTH));
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(at));
    SendScintilla(SCI_SETFIRSTVISIBLELINE, static_cast<unsigned long>(first_line));
}

std::string CodeEditor::utf8_text() const {
    const auto length = static_cast<std::size_t>(SendScintilla(SCI_GETLENGTH));
    const auto* bytes = static_cast<const char*>(SendScintillaPtrResult(SCI_GETCHARACTERPOINTER));
    return std::string(bytes, length);
}

void CodeEditor::on_modified(int position, int type, int length) {
    flush_edits(); // an insertion announced before is complete, and nothing changed since
    if (applying_core_text_) return;
    auto change = change_from_modification(type, position, length);
    if (!change) return;
    if (!change->insert) {
        emit edited(ByteEdit{change->at, change->at + change->length, {}});
        return;
    }
    pending_insert_ = change;
    QTimer::singleShot(0, this, &CodeEditor::flush_edits);
}

void CodeEditor::flush_edits() {
    if (!pending_insert_) return;
    const ByteChange insert = *std::exchange(pending_insert_, std::nullopt);
    const int from = static_cast<int>(insert.at);
    const QByteArray bytes = text(from, from + static_cast<int>(insert.length)).toUtf8();
    emit edited(ByteEdit{insert.at, insert.at, bytes.toStdString()});
}

void CodeEditor::go_to(int line, int column) {
    const long last = SendScintilla(SCI_GETLINECOUNT) - 1;
    const long row = std::clamp<long>(line - 1, 0, last);
    const long start = SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(row));
    const long end = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(row));
    // Characters, not bytes: SCI_POSITIONRELATIVE steps over whole UTF-8 sequences.
    long at = SendScintilla(SCI_POSITIONRELATIVE, static_cast<unsigned long>(start),
                            static_cast<long>(std::max(column, 1) - 1));
    if (at == 0 && column > 1) at = end; // past the end of the document
    at = std::min(at, end);
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(at));
    centre_line(row);
}

void CodeEditor::select_in_line(int line, long long column, long long length) {
    const long last = SendScintilla(SCI_GETLINECOUNT) - 1;
    const long row = std::clamp<long>(line - 1, 0, last);
    const long start = SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(row));
    const long end = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(row));
    const long from = std::clamp<long>(start + static_cast<long>(column), start, end);
    const long to = std::clamp<long>(from + static_cast<long>(length), from, end);
    SendScintilla(SCI_SETSEL, static_cast<unsigned long>(from), to);
    centre_line(row);
}

void CodeEditor::centre_line(long row) {
    SendScintilla(SCI_ENSUREVISIBLE, static_cast<unsigned long>(row));
    const long on_screen = SendScintilla(SCI_LINESONSCREEN);
    SendScintilla(SCI_SETFIRSTVISIBLELINE,
                  static_cast<unsigned long>(std::max(0L, row - on_screen / 2)));
}

void CodeEditor::update_line_number_width() {
    int digits = 1;
    for (int lines = this->lines(); lines >= 10; lines /= 10)
        ++digits;
    digits = std::max(digits, 3); // no jump in width while a short file grows
    if (digits == line_number_digits_) return;
    line_number_digits_ = digits;
    setMarginWidth(0, QString(digits + 1, QLatin1Char('9')));
}

// The horizontal scroll range starts at the text area's width, and Scintilla's tracking
// widens it only for a line shown wider than that. Started at 1 px, the range grew with the
// longest line shown, so typing at the end of it widened the range at every key, and every
// widening repaints the whole view (decision 0091's slow keys). No scroll bar shows for lines
// that fit either way. Set again only when the text area's width changed (a resize, a
// margin): a narrower view starts from its own width, and tracking widens it again.
void CodeEditor::floor_scroll_width() {
    long margins = SendScintilla(SCI_GETMARGINLEFT) + SendScintilla(SCI_GETMARGINRIGHT);
    const long count = SendScintilla(SCI_GETMARGINS);
    for (long m = 0; m < count; ++m)
        margins += SendScintilla(SCI_GETMARGINWIDTHN, static_cast<unsigned long>(m));
    // A few pixels short of the edge: a range wider than the text area would show a bar.
    const long text = viewport()->width() - margins - 4;
    if (text <= 0 || text == scroll_floor_) return;
    scroll_floor_ = text;
    SendScintilla(SCI_SETSCROLLWIDTH, static_cast<unsigned long>(text));
}

} // namespace rio::gui
