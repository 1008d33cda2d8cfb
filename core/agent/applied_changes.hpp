// What each applied edit_file or create_file call did to its file, whole: the texts before
// and after it, so a frontend can show the change side by side later (agent.change) — an
// edit card's Compare (DESIGN §14). Bounded: the oldest changes go first (decision 0033).
#pragma once

#include "protocol/error.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

namespace rio {

struct AppliedChange {
    std::uint64_t turn = 0;
    std::string id; // the tool call's
    std::string path;
    bool created = false;
    std::string before, after; // the file's text (as its buffer holds it) around the call
};

class AppliedChanges {
public:
    // What the kept texts may hold together before the oldest changes are dropped.
    static constexpr std::size_t default_budget = std::size_t{64} * 1024 * 1024;

    explicit AppliedChanges(std::size_t budget = default_budget) : budget_(budget) {}

    // Keeps a change, dropping the oldest past the budget; one larger than the whole budget
    // is not kept (asking for it says why).
    void keep(AppliedChange change);
    // The change call `id` of `turn` made; not_found, saying why, when none is kept.
    Result<const AppliedChange*> find(std::uint64_t turn, const std::string& id) const;
    // A new conversation or another project.
    void clear();
    // A rewind to `turn`: the changes of that turn and later are gone with their messages.
    void forget_since(std::uint64_t turn);

    std::size_t bytes() const { return bytes_; }

private:
    static std::size_t size_of(const AppliedChange& c) { return c.before.size() + c.after.size(); }

    std::size_t budget_;
    std::size_t bytes_ = 0;
    std::deque<AppliedChange> changes_; // oldest first
    bool dropped_any_ = false;          // for the error: some were let go to bound memory
};

} // namespace rio
