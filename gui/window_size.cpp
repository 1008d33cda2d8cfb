#include "gui/window_size.hpp"

#include <algorithm>

namespace rio::gui {

QSize default_window_size(QSize available) {
    const QSize laptop(1200, 780);
    if (available.isEmpty()) return laptop;
    // A sensible share of a big screen (issue 46: 1200×780 on 1920×1080 left the editor a
    // strip), never past what a person reads across, never less than a laptop's.
    const QSize share(std::clamp(available.width() * 80 / 100, laptop.width(), 1760),
                      std::clamp(available.height() * 85 / 100, laptop.height(), 1100));
    // The frame and title bar are the window manager's and come on top of this size.
    const QSize room(available.width() * 94 / 100, available.height() * 90 / 100);
    return {std::min(share.width(), room.width()), std::min(share.height(), room.height())};
}

} // namespace rio::gui
