#include "gui/buffer_sync.hpp"

namespace rio::gui {

long long BufferSync::local_edit() {
    ++in_flight_;
    return base_++;
}

void BufferSync::local_reply(std::optional<long long> version) {
    if (in_flight_ > 0) --in_flight_;
    if (version)
        own_.insert(*version); // its event follows this answer
    else
        stale_ = true; // refused: the editor shows an edit the core does not have
}

BufferSync::Remote BufferSync::remote_edit(long long version) {
    if (own_.erase(version)) return Remote::ignore;
    // Anything arriving before the resync answer was handled by the core before our
    // buffer.text, so that text contains it.
    if (resyncing_) return Remote::ignore;
    // Already in the text (seen through a resync), whatever is in flight now.
    if (version <= base_ - static_cast<long long>(in_flight_)) return Remote::ignore;
    // Another client's edit raced ours: its offsets do not account for our edits in flight
    // (and one of ours will be refused). Fetch the whole text once ours are answered.
    if (in_flight_ > 0 || stale_) {
        stale_ = true;
        return Remote::ignore;
    }
    if (version == base_ + 1) {
        base_ = version;
        return Remote::apply;
    }
    stale_ = true; // a version went missing
    return Remote::ignore;
}

void BufferSync::resynced(long long version) {
    base_ = version;
    own_.clear();
    stale_ = false;
    resyncing_ = false;
}

} // namespace rio::gui
