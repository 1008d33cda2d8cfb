#include "gui/push_button.hpp"

#include <QPushButton>

namespace rio::gui {

QPushButton* push_button(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setAutoDefault(false);
    button->setToolTip(tip);
    button->setFocusPolicy(Qt::StrongFocus);
    return button;
}

} // namespace rio::gui
