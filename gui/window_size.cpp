#include "gui/window_size.hpp"

#include <algorithm>

namespace rio::gui {

QSize default_window_size(QSize available) {
    const QSize laptop(1200, 780);
    if (available.isEmpty()) return laptop;
    if (available.width() >= 1760 && available.height() >= 1100) return {1600, 1000};
    // The frame and title bar are the window manager's and come on top of this size.
    const QSize room(available.width() * 94 / 100, available.height() * 90 / 100);
    return {std::min(laptop.width(), room.width()), std::min(laptop.height(), room.height())};
}

} // namespace rio::gui
