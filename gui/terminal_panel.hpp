// The terminal panel below the editor (issue 47): tabs of TerminalView, Ctrl+` to show and
// hide it (and to open a first terminal), "+" for another. Each tab is a shell where the
// project is — over ssh, on the far machine — and closing a tab hangs its shell up.
#pragma once

#include <QDockWidget>

class QTabWidget;

namespace rio::gui {

class CoreClient;
class TerminalView;

class TerminalPanel : public QDockWidget {
    Q_OBJECT
public:
    TerminalPanel(CoreClient& core, QWidget* parent = nullptr);

    // Shows the panel (a first terminal opened if there is none) with the current terminal
    // focused, or hides it when it has the focus already.
    void toggle();
    TerminalView* open_terminal();
    TerminalView* current() const;
    QTabWidget* tabs() const { return tabs_; }

private:
    void close_tab(int index);

    CoreClient& core_;
    QTabWidget* tabs_;
    int opened_ = 0;
};

} // namespace rio::gui
