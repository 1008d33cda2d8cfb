// The manual's Back and Forward: the places a person has been, each a page and how far down
// it they had scrolled, so going back returns to the paragraph they left.
#pragma once

#include <QString>
#include <cstddef>
#include <optional>
#include <vector>

namespace rio::gui {

struct ManualPlace {
    QString page;   // the page's file name
    int scroll = 0; // the vertical scroll position, in pixels

    friend bool operator==(const ManualPlace&, const ManualPlace&) = default;
};

class ManualHistory {
public:
    // A new place: the places ahead of the current one are dropped, as in a browser. Visiting
    // the current place again adds nothing.
    void visit(const ManualPlace& place);
    // The current place's scroll position changed (the person scrolled): remembered before
    // leaving it, so Back and Forward return there.
    void remember_scroll(int scroll);

    bool can_go_back() const { return at_ > 0; }
    bool can_go_forward() const { return at_ + 1 < places_.size(); }
    // The place gone to, or nothing at either end.
    std::optional<ManualPlace> back();
    std::optional<ManualPlace> forward();
    std::optional<ManualPlace> current() const;

private:
    std::vector<ManualPlace> places_;
    std::size_t at_ = 0; // index of the current place when places_ is not empty
};

} // namespace rio::gui
