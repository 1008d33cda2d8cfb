// The status bar's "Ln 12, Col 5": where the caret is, set at every keystroke, so setting it
// must cost the keystroke nothing (issue 46's typing latency). It keeps a fixed size that only
// grows: a label free to change size asks its layout again at each new text, and the status
// bar's relayout ran the main window's (docks, separators) at every key, ~1 ms of work right
// after the typed letter's frame while the X server waited for the CPU to show it.
#pragma once

#include <QLabel>

class QTimer;

namespace rio::gui {

class PositionLabel : public QLabel {
    Q_OBJECT
public:
    explicit PositionLabel(QWidget* parent = nullptr);

    void show_position(int line, int index); // both from 0, as QScintilla gives them
    void forget();                           // no editor: empty

private:
    void hold_size();
    void confirm_frame();

    QTimer* idle_;
};

} // namespace rio::gui
