// Going through code with the language servers (DESIGN §21): F12 goes to the definition of
// what is under the cursor, Alt+Left comes back (a stack of the places left), Shift+F12 lists
// its references in the Search panel; hovering with Ctrl held, or resting the mouse, shows
// the server's hover text and the problems under the pointer. A place outside the project is
// named in the status bar, never opened.
#pragma once

#include <QObject>
#include <QPoint>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace rio::gui {

class CodeEditor;
class MainWindow;

class CodeNavigation : public QObject {
    Q_OBJECT
public:
    explicit CodeNavigation(MainWindow& window);

    void go_to_definition(); // of the current editor's cursor
    void go_back();
    void find_references();
    // Opens `path` with the cursor at `line` (from 1) and byte `column`; the place left is
    // remembered for go_back when `remember`.
    void go_to(const QString& path, std::uint64_t line, std::uint64_t column, bool remember = true);
    // The editor asks for a hover at byte `position`, shown at `at` (its viewport's).
    void hover(CodeEditor* editor, long position, QPoint at);

    std::size_t history_size() const { return history_.size(); }
    const QString& last_hover() const { return last_hover_; } // the tooltip's text

signals:
    void arrived(const QString& path); // a go_to put the cursor at its place
    void hovered();                    // a hover's tooltip is shown

private:
    struct Place {
        QString path;
        std::uint64_t line = 1, column = 0;
    };
    std::optional<Place> here() const;
    void place_pending(const QString& opened);
    void say(const QString& text);

    MainWindow& window_;
    std::vector<Place> history_;
    std::optional<Place> pending_; // a file being opened to go to
    QString last_hover_;
    int hover_generation_ = 0;
};

} // namespace rio::gui
