// Keeps one editor's text in step with the core's copy of the buffer, by version numbers
// alone (no Qt, no I/O): which local edits are in flight, which `buffer.changed` events are
// this editor's own echo, which are another client's edit to apply, and when the text can no
// longer be trusted and must be fetched again (a conflict, or an edit racing ours).
//
// It relies on two protocol guarantees: requests on one connection are handled in order,
// and a response always precedes the events its request caused.
#pragma once

#include <cstddef>
#include <optional>
#include <set>

namespace rio::gui {

class BufferSync {
public:
    explicit BufferSync(long long version) : base_(version) {}

    // A local edit is being sent: the version to send with it (the one it was made on).
    long long local_edit();

    // The core's answer to a local edit: the new version, or nullopt when it was refused.
    void local_reply(std::optional<long long> version);

    enum class Remote {
        apply,  // another client's edit, next in line: apply it to the editor
        ignore, // our own echo, or already contained in the text
    };
    // An `edited` event for this buffer. May mark the text stale (see needs_resync).
    Remote remote_edit(long long version);

    // The editor could not apply an edit it was told to (offsets outside its text).
    void mark_stale() { stale_ = true; }

    // True when the text must be fetched again and nothing of ours is in flight any more.
    bool needs_resync() const { return stale_ && in_flight_ == 0 && !resyncing_; }
    // The editor takes no input from here until resynced(): it asked for `buffer.text`.
    void resync_started() { resyncing_ = true; }
    void resynced(long long version);
    void resync_failed() { resyncing_ = false; }

    bool resyncing() const { return resyncing_; }
    std::size_t in_flight() const { return in_flight_; }
    long long version() const { return base_; } // the version the editor's text is at

private:
    long long base_;            // includes the local edits in flight, assumed accepted
    std::size_t in_flight_ = 0; // local edits not answered yet
    std::set<long long> own_;   // versions our accepted edits produced, echo not seen yet
    bool stale_ = false;        // the editor's text may differ from the core's
    bool resyncing_ = false;    // a buffer.text request is in flight
};

} // namespace rio::gui
