#include "gui/manual_history.hpp"

namespace rio::gui {

void ManualHistory::visit(const ManualPlace& place) {
    if (!places_.empty()) {
        if (places_[at_] == place) return;
        places_.resize(at_ + 1);
    }
    places_.push_back(place);
    at_ = places_.size() - 1;
}

void ManualHistory::remember_scroll(int scroll) {
    if (!places_.empty()) places_[at_].scroll = scroll;
}

std::optional<ManualPlace> ManualHistory::back() {
    if (!can_go_back()) return std::nullopt;
    return places_[--at_];
}

std::optional<ManualPlace> ManualHistory::forward() {
    if (!can_go_forward()) return std::nullopt;
    return places_[++at_];
}

std::optional<ManualPlace> ManualHistory::current() const {
    if (places_.empty()) return std::nullopt;
    return places_[at_];
}

} // namespace rio::gui
