// A push button as rio's bars, views and cards want it: never a default button (Enter
// belongs to the text fields beside it), reached by Tab and by a click, with its tooltip.
#pragma once

#include <QString>

class QPushButton;
class QWidget;

namespace rio::gui {

QPushButton* push_button(const QString& text, const QString& tip, QWidget* parent = nullptr);

} // namespace rio::gui
