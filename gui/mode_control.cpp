#include "gui/mode_control.hpp"

#include <QHBoxLayout>
#include <QToolButton>

namespace rio::gui {
namespace {

constexpr ModeChoice choices[] = {ModeChoice::plan, ModeChoice::review, ModeChoice::auto_accept};

} // namespace

ModeControl::ModeControl(QWidget* parent) : QWidget(parent) {
    // Its size is its own: whatever sits beside it (the provider label) gives way, never it.
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (ModeChoice choice : choices) {
        auto* button = new QToolButton;
        button->setText(mode_label(choice));
        button->setToolTip(mode_tooltip(choice));
        button->setCheckable(true);
        button->setFocusPolicy(Qt::StrongFocus);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAccessibleName(tr("Mode: %1").arg(mode_label(choice)));
        buttons_[static_cast<int>(choice)] = button;
        layout->addWidget(button);
        connect(button, &QToolButton::clicked, this, [this, choice] {
            repaint_state(); // not pressed until the core says so
            if (shown_ != choice) emit choice_requested(choice);
        });
    }
    setStyleSheet(QStringLiteral(
        "QToolButton { padding: 3px 10px; border: 1px solid palette(mid); background: "
        "palette(button); }"
        "QToolButton:checked { background: palette(highlight); color: palette(highlighted-text); }"
        "QToolButton:focus { border-color: palette(highlight); }"));
}

void ModeControl::show_state(const QString& mode, bool auto_accept) {
    shown_ = mode_choice(mode.toStdString(), auto_accept);
    repaint_state();
}

void ModeControl::repaint_state() {
    for (ModeChoice choice : choices)
        button(choice)->setChecked(shown_ == choice);
}

QString ModeControl::shown_label() const {
    return shown_ ? mode_label(*shown_) : QString();
}

QToolButton* ModeControl::button(ModeChoice choice) const {
    return buttons_[static_cast<int>(choice)];
}

} // namespace rio::gui
