// The window's size when it first opens (issue 32 item 5): what the headline views need,
// never more than the screen gives.
#pragma once

#include <QSize>

namespace rio::gui {

// For a screen whose free area (less panels and docks) is `available`: 1600×1000 where that
// fits with room to spare, else 1200×780 or as much of it as fits with a margin for the
// window's frame. An empty `available` (no screen known) → 1200×780.
QSize default_window_size(QSize available);

} // namespace rio::gui
