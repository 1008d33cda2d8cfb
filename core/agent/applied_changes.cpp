#include "core/agent/applied_changes.hpp"

namespace rio {

void AppliedChanges::keep(AppliedChange change) {
    if (size_of(change) > budget_) {
        dropped_any_ = true;
        return;
    }
    bytes_ += size_of(change);
    changes_.push_back(std::move(change));
    while (bytes_ > budget_) {
        bytes_ -= size_of(changes_.front());
        changes_.pop_front();
        dropped_any_ = true;
    }
}

Result<const AppliedChange*> AppliedChanges::find(std::uint64_t turn, const std::string& id) const {
    for (const AppliedChange& change : changes_)
        if (change.turn == turn && change.id == id) return &change;
    std::string what = "no change of call " + id + " in turn " + std::to_string(turn);
    if (dropped_any_)
        return make_error(ErrorCode::not_found,
                          what + " is kept: rio keeps the texts of the most recent " +
                              std::to_string(budget_ / (1024 * 1024)) + " MiB of changes");
    return make_error(ErrorCode::not_found,
                      what + " (only edits applied in this conversation can be compared)");
}

void AppliedChanges::clear() {
    changes_.clear();
    bytes_ = 0;
    dropped_any_ = false;
}

void AppliedChanges::forget_since(std::uint64_t turn) {
    std::erase_if(changes_, [&](const AppliedChange& c) {
        if (c.turn < turn) return false;
        bytes_ -= size_of(c);
        return true;
    });
}

} // namespace rio
