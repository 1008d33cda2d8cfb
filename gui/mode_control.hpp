// The chat's mode control: Plan / Review / Auto (DESIGN §9), three buttons of which the one
// the core is in is shown pressed. It never changes itself: a click asks for the change
// (choice_requested), and the pressed button moves only when the core's agent.mode /
// agent.status say so — so a change made by another client shows up here too.
#pragma once

#include "gui/agent_mode.hpp"

#include <QWidget>
#include <optional>

class QToolButton;

namespace rio::gui {

class ModeControl : public QWidget {
    Q_OBJECT
public:
    explicit ModeControl(QWidget* parent = nullptr);

    // The core's state; mode is "build" or "plan". Until the first call nothing is pressed.
    void show_state(const QString& mode, bool auto_accept);
    std::optional<ModeChoice> shown() const { return shown_; }
    QString shown_label() const; // "" before the first state
    QToolButton* button(ModeChoice choice) const;

signals:
    void choice_requested(rio::gui::ModeChoice choice);

private:
    void repaint_state();

    QToolButton* buttons_[3];
    std::optional<ModeChoice> shown_;
};

} // namespace rio::gui
