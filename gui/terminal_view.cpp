#include "gui/terminal_view.hpp"

#include "gui/core_client.hpp"
#include "gui/editor_style.hpp"
#include "gui/theme.hpp"

#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>

namespace rio::gui {
namespace {

QColor colour_of(const client::TerminalColour& c, const QColor& fallback) {
    return c.is_default ? fallback : QColor(c.red, c.green, c.blue);
}

// xterm's numbering: 1 left, 2 middle, 3 right.
int button_number(Qt::MouseButton button) {
    return button == Qt::LeftButton ? 1 : button == Qt::MiddleButton ? 2 : 3;
}

std::optional<client::TerminalKey> special_key(int key) {
    switch (key) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return client::TerminalKey::enter;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        return client::TerminalKey::tab;
    case Qt::Key_Backspace:
        return client::TerminalKey::backspace;
    case Qt::Key_Escape:
        return client::TerminalKey::escape;
    case Qt::Key_Up:
        return client::TerminalKey::up;
    case Qt::Key_Down:
        return client::TerminalKey::down;
    case Qt::Key_Left:
        return client::TerminalKey::left;
    case Qt::Key_Right:
        return client::TerminalKey::right;
    case Qt::Key_Insert:
        return client::TerminalKey::insert;
    case Qt::Key_Delete:
        return client::TerminalKey::del;
    case Qt::Key_Home:
        return client::TerminalKey::home;
    case Qt::Key_End:
        return client::TerminalKey::end;
    case Qt::Key_PageUp:
        return client::TerminalKey::page_up;
    case Qt::Key_PageDown:
        return client::TerminalKey::page_down;
    default:
        break;
    }
    if (key >= Qt::Key_F1 && key <= Qt::Key_F12) return client::TerminalKey::function;
    return std::nullopt;
}

} // namespace

TerminalView::TerminalView(CoreClient& core, QWidget* parent)
    : QAbstractScrollArea(parent), core_(core), screen_(24, 80) {
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled, false);
    setAccessibleName(tr("Terminal"));
    viewport()->setCursor(Qt::IBeamCursor);
    setFont(editor_font());
    const QFontMetrics metrics(font());
    cell_width_ = std::max(1, metrics.horizontalAdvance(QLatin1Char('M')));
    cell_height_ = std::max(1, metrics.lineSpacing());
    ascent_ = metrics.ascent();
    verticalScrollBar()->setSingleStep(1);
    horizontalScrollBar()->hide();
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(&core_, &CoreClient::core_event, this, &TerminalView::on_event);
    connect(&core_, &CoreClient::disconnected, this, [this](const QString& why) {
        if (!running()) return;
        ended_ = true;
        show_words(tr("[the connection to rio-core is lost: %1]").arg(why));
        emit ended(why);
    });
    follow_theme(this, [this] { viewport()->update(); });
}

TerminalView::~TerminalView() {
    close_terminal();
}

void TerminalView::start(const QString& folder) {
    if (opening_ || id_) return;
    opening_ = true;
    fit_to_size();
    TerminalOpenParams params;
    params.cols = static_cast<std::uint64_t>(screen_.cols());
    params.rows = static_cast<std::uint64_t>(screen_.rows());
    if (!folder.isEmpty()) params.path = folder.toStdString();
    core_.call(params, this, [this](const client::Typed<TerminalOpenParams>& opened) {
        opening_ = false;
        if (!opened) {
            ended_ = true;
            const QString why = QString::fromStdString(opened.error().message);
            show_words(tr("[no terminal: %1]").arg(why));
            emit ended(why);
            return;
        }
        id_ = opened->id;
        shell_ = QString::fromStdString(opened->shell);
        // The size may have changed while the shell started.
        TerminalResizeParams resize{*id_, static_cast<std::uint64_t>(screen_.cols()),
                                    static_cast<std::uint64_t>(screen_.rows())};
        core_.call(resize, this, [](const client::Typed<TerminalResizeParams>&) {});
        emit started();
    });
}

void TerminalView::close_terminal() {
    if (!running()) return;
    core_.call(TerminalCloseParams{*id_}, nullptr, nullptr);
}

void TerminalView::on_event(const client::CoreEvent& event) {
    if (const auto* output = std::get_if<TerminalOutputEvent>(&event)) {
        if (!id_ || output->id != *id_) return;
        const bool at_bottom = verticalScrollBar()->value() == verticalScrollBar()->maximum();
        if (std::string answer = screen_.feed(output->data); !answer.empty()) send(answer);
        core_.call(TerminalAckParams{*id_, output->data.size()}, nullptr, nullptr);
        update_scroll_range(at_bottom);
        viewport()->update();
        emit output_shown();
    } else if (const auto* exited = std::get_if<TerminalExitedEvent>(&event)) {
        if (!id_ || exited->id != *id_) return;
        ended_ = true;
        const QString how = exited->signal
                                ? tr("killed by signal %1").arg(*exited->signal)
                                : tr("exited with code %1").arg(exited->code.value_or(0));
        show_words(tr("[the shell %1]").arg(how));
        emit ended(how);
    }
}

void TerminalView::send(std::string bytes) {
    if (!running() || bytes.empty()) return;
    core_.call(TerminalInputParams{*id_, std::move(bytes)}, nullptr, nullptr);
}

void TerminalView::show_words(const QString& text) {
    // rio's own words in the screen, dim, on a line of their own.
    screen_.feed("\r\n\x1b[2m" + text.toStdString() + "\x1b[0m\r\n");
    update_scroll_range(true);
    viewport()->update();
}

void TerminalView::fit_to_size() {
    const int cols = std::max(2, viewport()->width() / cell_width_);
    const int rows = std::max(1, viewport()->height() / cell_height_);
    if (cols == screen_.cols() && rows == screen_.rows()) return;
    screen_.resize(rows, cols);
    update_scroll_range(true);
    if (running())
        core_.call(TerminalResizeParams{*id_, static_cast<std::uint64_t>(cols),
                                        static_cast<std::uint64_t>(rows)},
                   nullptr, nullptr);
}

void TerminalView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    fit_to_size();
}

void TerminalView::update_scroll_range(bool follow) {
    QScrollBar* bar = verticalScrollBar();
    const int lines = static_cast<int>(screen_.scrollback().size());
    bar->setRange(0, lines);
    bar->setPageStep(screen_.rows());
    if (follow) bar->setValue(lines);
}

void TerminalView::scrollContentsBy(int, int) {
    viewport()->update();
}

int TerminalView::first_shown_line() const {
    return verticalScrollBar()->value();
}

const client::TerminalLine* TerminalView::line_at(int line) const {
    const auto& back = screen_.scrollback();
    if (line >= 0 && line < static_cast<int>(back.size()))
        return &back[static_cast<std::size_t>(line)];
    const int row = line - static_cast<int>(back.size());
    if (row < 0 || row >= screen_.rows()) return nullptr;
    row_cache_.clear();
    for (int col = 0; col < screen_.cols(); ++col)
        row_cache_.push_back(screen_.cell(row, col));
    return &row_cache_;
}

client::TerminalCell TerminalView::cell_at(int line, int col) const {
    const client::TerminalLine* cells = line_at(line);
    if (!cells || col < 0 || col >= static_cast<int>(cells->size())) return {};
    return (*cells)[static_cast<std::size_t>(col)];
}

void TerminalView::paintEvent(QPaintEvent*) {
    QPainter paint(viewport());
    const ThemeColours colours = theme_colours();
    paint.fillRect(viewport()->rect(), colours.paper);
    const QFont normal = font();
    QFont bold = normal;
    bold.setBold(true);
    const int first = first_shown_line();
    const int back = static_cast<int>(screen_.scrollback().size());
    const std::optional<Place> from = anchor_ && head_ ? std::min(*anchor_, *head_) : anchor_;
    const std::optional<Place> to = anchor_ && head_ ? std::max(*anchor_, *head_) : anchor_;
    for (int row = 0; row < screen_.rows(); ++row) {
        const int line = first + row;
        const client::TerminalLine* cells = line_at(line);
        if (!cells) continue;
        const int y = row * cell_height_;
        for (int col = 0; col < static_cast<int>(cells->size()); ++col) {
            const client::TerminalCell& cell = (*cells)[static_cast<std::size_t>(col)];
            if (cell.width == 0) continue;
            QColor fg = colour_of(cell.fg, colours.text);
            QColor bg = colour_of(cell.bg, colours.paper);
            if (cell.reverse) std::swap(fg, bg);
            const Place here{line, col};
            if (from && to && *from != *to && here >= *from && here < *to) {
                bg = colours.selection;
                fg = colours.text;
            }
            const QRect box(col * cell_width_, y, cell_width_ * std::max(1, cell.width),
                            cell_height_);
            if (bg != colours.paper) paint.fillRect(box, bg);
            if (cell.text.empty() || cell.text == " ") continue;
            paint.setFont(cell.bold ? bold : normal);
            paint.setPen(fg);
            paint.drawText(box.x(), y + ascent_, QString::fromStdString(cell.text));
            if (cell.underline)
                paint.drawLine(box.left(), y + ascent_ + 2, box.right(), y + ascent_ + 2);
        }
    }
    // The cursor: a block while the view has the focus, an outline otherwise.
    const int cursor_line = back + screen_.cursor_row();
    if (screen_.cursor_visible() && !ended_ && cursor_line >= first &&
        cursor_line < first + screen_.rows()) {
        const QRect box(screen_.cursor_col() * cell_width_, (cursor_line - first) * cell_height_,
                        cell_width_, cell_height_);
        if (hasFocus()) {
            paint.fillRect(box, colours.caret);
            const client::TerminalCell under =
                screen_.cell(screen_.cursor_row(), screen_.cursor_col());
            if (!under.text.empty()) {
                paint.setPen(colours.paper);
                paint.setFont(under.bold ? bold : normal);
                paint.drawText(box.x(), box.y() + ascent_, QString::fromStdString(under.text));
            }
        } else {
            paint.setPen(colours.caret);
            paint.drawRect(box.adjusted(0, 0, -1, -1));
        }
    }
}

client::TerminalModifiers TerminalView::modifiers(Qt::KeyboardModifiers mods) const {
    return {mods.testFlag(Qt::ShiftModifier), mods.testFlag(Qt::AltModifier),
            mods.testFlag(Qt::ControlModifier)};
}

// Ctrl or Alt with a key and no Shift is the shell's (Ctrl+C, Ctrl+R, Ctrl+W, Alt+B), not a
// menu's: the window's shortcuts keep Ctrl+` (the panel), Ctrl+Shift+… and the F keys.
bool TerminalView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
        const bool chord = (mods & (Qt::ControlModifier | Qt::AltModifier)) &&
                           !(mods & Qt::ShiftModifier) && key->key() != Qt::Key_QuoteLeft &&
                           !(key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35);
        if (chord || (mods == Qt::NoModifier && key->key() == Qt::Key_Escape)) {
            event->accept();
            return true;
        }
    }
    return QAbstractScrollArea::event(event);
}

bool TerminalView::focusNextPrevChild(bool) {
    return false; // Tab and Shift+Tab belong to the shell (completion)
}

void TerminalView::keyPressEvent(QKeyEvent* event) {
    const Qt::KeyboardModifiers mods = event->modifiers();
    const bool ctrl_shift = mods.testFlag(Qt::ControlModifier) && mods.testFlag(Qt::ShiftModifier);
    if (ctrl_shift && event->key() == Qt::Key_C) return copy();
    if ((ctrl_shift && event->key() == Qt::Key_V) ||
        (mods == Qt::ShiftModifier && event->key() == Qt::Key_Insert))
        return paste();
    if (mods == Qt::ShiftModifier &&
        (event->key() == Qt::Key_PageUp || event->key() == Qt::Key_PageDown)) {
        QScrollBar* bar = verticalScrollBar();
        bar->setValue(bar->value() + (event->key() == Qt::Key_PageUp ? -1 : 1) * bar->pageStep());
        return;
    }
    anchor_.reset();
    head_.reset();
    verticalScrollBar()->setValue(verticalScrollBar()->maximum()); // typing shows the prompt
    if (auto key = special_key(event->key())) {
        client::TerminalModifiers m = modifiers(mods);
        if (event->key() == Qt::Key_Backtab) m.shift = true;
        return send(screen_.press(*key, m, event->key() - Qt::Key_F1 + 1));
    }
    // Ctrl and Alt with a letter or a sign: the key itself with the modifier, which libvterm
    // turns into the control character or the Esc prefix a shell expects.
    if (mods & (Qt::ControlModifier | Qt::AltModifier)) {
        const int key = event->key();
        if (key >= Qt::Key_A && key <= Qt::Key_Z) {
            client::TerminalModifiers m = modifiers(mods);
            m.shift = false;
            return send(screen_.type(static_cast<char32_t>(U'a' + (key - Qt::Key_A)), m));
        }
        if (key >= 0x20 && key < 0x7F) {
            client::TerminalModifiers m = modifiers(mods);
            m.shift = false;
            return send(screen_.type(static_cast<char32_t>(key), m));
        }
    }
    const QString text = event->text();
    if (text.isEmpty()) return QAbstractScrollArea::keyPressEvent(event);
    std::string bytes;
    for (char32_t c : text.toUcs4())
        if (c >= 0x20 && c != 0x7F)
            bytes += screen_.type(c, {});
        else
            bytes += static_cast<char>(c);
    send(std::move(bytes));
}

// The screen cell under a point of the viewport, held to the screen: what a program that asked
// for the mouse is told.
std::pair<int, int> TerminalView::cell_under(QPointF p) const {
    return {std::clamp(static_cast<int>(p.y()) / cell_height_, 0, screen_.rows() - 1),
            std::clamp(static_cast<int>(p.x()) / cell_width_, 0, screen_.cols() - 1)};
}

TerminalView::Place TerminalView::place_at(QPoint p) const {
    const int row = std::clamp(p.y() / cell_height_, 0, screen_.rows() - 1);
    const int col = std::clamp((p.x() + cell_width_ / 2) / cell_width_, 0, screen_.cols());
    return {first_shown_line() + row, col};
}

void TerminalView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    if (screen_.wants_mouse() && !event->modifiers().testFlag(Qt::ShiftModifier)) {
        const auto [row, col] = cell_under(event->position());
        return send(screen_.mouse_button(row, col, button_number(event->button()), true,
                                         modifiers(event->modifiers())));
    }
    if (event->button() == Qt::MiddleButton) {
        const QString text = QApplication::clipboard()->text(QClipboard::Selection);
        if (!text.isEmpty()) send(screen_.paste(text.toStdString()));
        return;
    }
    anchor_ = place_at(event->position().toPoint());
    head_ = anchor_;
    viewport()->update();
}

void TerminalView::mouseMoveEvent(QMouseEvent* event) {
    if (screen_.wants_mouse() && !event->modifiers().testFlag(Qt::ShiftModifier)) {
        const auto [row, col] = cell_under(event->position());
        return send(screen_.mouse_move(row, col, modifiers(event->modifiers())));
    }
    if (!anchor_ || !(event->buttons() & Qt::LeftButton)) return;
    head_ = place_at(event->position().toPoint());
    viewport()->update();
}

void TerminalView::mouseReleaseEvent(QMouseEvent* event) {
    if (screen_.wants_mouse() && !event->modifiers().testFlag(Qt::ShiftModifier)) {
        const auto [row, col] = cell_under(event->position());
        return send(screen_.mouse_button(row, col, button_number(event->button()), false,
                                         modifiers(event->modifiers())));
    }
    if (const QString text = selected_text(); !text.isEmpty())
        QApplication::clipboard()->setText(text, QClipboard::Selection);
}

void TerminalView::wheelEvent(QWheelEvent* event) {
    const int steps = event->angleDelta().y() / 40;
    if (steps == 0) return;
    if (screen_.wants_mouse()) {
        const auto [row, col] = cell_under(event->position());
        std::string bytes;
        for (int i = 0; i < std::abs(steps); ++i)
            bytes += screen_.mouse_button(row, col, steps > 0 ? 4 : 5, true, {});
        return send(std::move(bytes));
    }
    QScrollBar* bar = verticalScrollBar();
    bar->setValue(bar->value() - steps);
}

QString TerminalView::selected_text() const {
    if (!anchor_ || !head_ || *anchor_ == *head_) return {};
    const Place from = std::min(*anchor_, *head_), to = std::max(*anchor_, *head_);
    QStringList lines;
    for (int line = from.line; line <= to.line; ++line) {
        const client::TerminalLine* cells = line_at(line);
        client::TerminalLine part;
        if (cells) {
            const int start = line == from.line ? from.col : 0;
            const int end = line == to.line ? to.col : static_cast<int>(cells->size());
            for (int col = start; col < std::min(end, static_cast<int>(cells->size())); ++col)
                part.push_back((*cells)[static_cast<std::size_t>(col)]);
        }
        lines << QString::fromStdString(client::TerminalScreen::line_text(part));
    }
    return lines.join(QLatin1Char('\n'));
}

void TerminalView::copy() {
    if (const QString text = selected_text(); !text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void TerminalView::paste() {
    const QString text = QApplication::clipboard()->text();
    if (!text.isEmpty()) send(screen_.paste(text.toStdString()));
}

} // namespace rio::gui
