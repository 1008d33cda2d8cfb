// One terminal of the panel (issue 47, decision 0093): the person's shell on a pty the core
// owns, its screen kept by client::TerminalScreen (libvterm) and painted here cell by cell in
// the editor's font and the theme's colours. Keys, pastes (bracketed when the program asked)
// and, when the program asked for them, mouse events go to the program; otherwise the mouse
// selects and the wheel scrolls back. Output is acknowledged as it is fed in: the core reads
// the pty no further ahead than that, so a flood waits for this screen.
#pragma once

#include "client/events.hpp"
#include "client/terminal_screen.hpp"
#include "protocol/messages.hpp"

#include <QAbstractScrollArea>
#include <QPoint>
#include <optional>

namespace rio::gui {

class CoreClient;

class TerminalView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TerminalView(CoreClient& core, QWidget* parent = nullptr);
    ~TerminalView() override;

    // terminal.open at this view's size; a refusal is shown in the view, in words.
    void start(const QString& folder = {});
    void close_terminal(); // terminal.close (the view stays, saying it ended)

    const client::TerminalScreen& screen() const { return screen_; }
    std::optional<std::uint64_t> id() const { return id_; }
    bool running() const { return id_ && !ended_; }
    QString shell() const { return shell_; }
    QString selected_text() const;
    void copy();
    void paste();
    int cell_width() const { return cell_width_; }
    int cell_height() const { return cell_height_; }

signals:
    void started();
    void ended(const QString& why); // exited, refused, or the core went away
    void output_shown();            // for tests: output was fed in and painted on the next frame

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct Place {
        int line; // counted from the first line of the scrollback
        int col;
        friend auto operator<=>(const Place&, const Place&) = default;
    };
    void on_event(const client::CoreEvent& event);
    void send(std::string bytes);
    void show_words(const QString& text); // a line of rio's own, dim, in the screen
    void fit_to_size();
    void update_scroll_range(bool follow);
    const client::TerminalLine* line_at(int line) const; // scrollback, then screen
    client::TerminalCell cell_at(int line, int col) const;
    Place place_at(QPoint viewport_point) const;
    std::pair<int, int> cell_under(QPointF viewport_point) const; // row, column
    int first_shown_line() const;
    client::TerminalModifiers modifiers(Qt::KeyboardModifiers mods) const;

    CoreClient& core_;
    client::TerminalScreen screen_;
    std::optional<std::uint64_t> id_;
    QString shell_;
    bool opening_ = false;
    bool ended_ = false;
    int cell_width_ = 8, cell_height_ = 16, ascent_ = 12;
    std::optional<Place> anchor_, head_; // the selection, when there is one
    mutable client::TerminalLine row_cache_;
};

} // namespace rio::gui
