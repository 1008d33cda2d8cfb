#include "gui/reason_field.hpp"

#include <QKeyEvent>

namespace rio::gui {

ReasonField::ReasonField(const QString& placeholder, const QString& accessible_name,
                         QWidget* parent)
    : QLineEdit(parent) {
    setPlaceholderText(placeholder);
    setAccessibleName(accessible_name);
    hide();
}

void ReasonField::open() {
    show();
    setFocus(Qt::ShortcutFocusReason);
}

void ReasonField::put_away() {
    clear();
    hide();
}

void ReasonField::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        event->accept();
        put_away();
        emit escaped();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

} // namespace rio::gui
