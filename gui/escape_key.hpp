// Esc, the way rio's bars and views take it: plain Esc (no modifier) closes the thing, and the
// key goes no further.
#pragma once

#include <QKeyEvent>

namespace rio::gui {

inline bool is_plain_escape(const QKeyEvent& key) {
    return key.key() == Qt::Key_Escape && key.modifiers() == Qt::NoModifier;
}

// Runs `close` and accepts the key when it is plain Esc; false (nothing done) otherwise.
template <typename Close> bool take_escape(QKeyEvent* event, Close close) {
    if (!is_plain_escape(*event)) return false;
    event->accept();
    close();
    return true;
}

} // namespace rio::gui
