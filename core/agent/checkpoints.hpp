// The per-turn checkpoint of DESIGN §14: for every file the agent wrote in a turn, what it
// held before that turn first wrote it, so agent.undo can put it back. The data and its
// rules only; reading, writing and comparing files is ops/undo's (docs/decisions/0029).
#pragma once

#include "protocol/error.hpp"
#include "protocol/messages.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

// A file as it was before a turn's first write to it.
struct FilePrior {
    std::string path;       // project-relative
    bool existed = true;    // false: the turn created it, and undoing deletes it
    std::string bytes;      // the file's bytes, exactly
    std::uint32_t mode = 0; // its permission bits
    // The open buffer's text then, when it had unsaved edits: the agent's write saved them,
    // and undo gives them back to the buffer, unsaved again.
    std::optional<std::string> buffer;
    // The folders created for a new file, outermost first: undo removes them if empty.
    std::vector<std::string> made_folders;
};

struct FileCheckpoint {
    FilePrior prior;
    std::uint64_t written = 0; // fingerprint of the bytes the agent wrote there last
};

class Checkpoints {
public:
    // What the priors of all turns may hold together before the oldest turns are dropped.
    static constexpr std::size_t default_budget = std::size_t{256} * 1024 * 1024;

    explicit Checkpoints(std::size_t budget = default_budget) : budget_(budget) {}

    // Whether the turn's checkpoint already holds the path: only its first write keeps a prior.
    bool holds(std::uint64_t turn, std::string_view path) const;
    // Keeps a prior unless the turn holds the path already. Past the budget the oldest turns
    // are dropped whole; a turn that alone exceeds it is dropped too, and keeps nothing more.
    void keep(std::uint64_t turn, FilePrior prior);
    // After every write the agent made to a path the turn holds.
    void wrote(std::uint64_t turn, std::string_view path, std::uint64_t fingerprint);

    // The checkpoints agent.undo {turn, path?} would restore, in the order the turn first
    // wrote them; not_found (saying why) when there is nothing to undo.
    Result<std::vector<const FileCheckpoint*>> select(std::uint64_t turn,
                                                      const std::optional<std::string>& path) const;
    // agent.rewind: each file the turns from `turn` on wrote, once — the prior its first
    // write kept, and the fingerprint of what the last one wrote — in the order first written;
    // and the turns among them whose priors were dropped to bound memory.
    struct Span {
        FilePrior prior;
        std::uint64_t written = 0;
    };
    std::vector<Span> since(std::uint64_t turn) const;
    std::vector<std::uint64_t> dropped_since(std::uint64_t turn) const;
    // After a rewind to `turn`: those turns are gone with their messages.
    void forget_since(std::uint64_t turn);
    // After a file was restored.
    void forget(std::uint64_t turn, std::string_view path);
    // The write a prior was kept for failed: the file is as it was, nothing to undo there.
    void retract(std::uint64_t turn, std::string_view path);
    // A new conversation or another project: nothing before it can be undone.
    void clear();

    CheckpointsState state() const;
    bool empty() const { return turns_.empty(); }
    std::size_t bytes() const { return bytes_; }

private:
    static std::size_t size_of(const FileCheckpoint& c);
    void drop(std::map<std::uint64_t, std::vector<FileCheckpoint>>::iterator turn);
    void remove(std::uint64_t turn, std::string_view path, bool undone);

    std::size_t budget_;
    std::size_t bytes_ = 0;
    std::map<std::uint64_t, std::vector<FileCheckpoint>> turns_;
    std::set<std::uint64_t> dropped_; // for the error: dropped to bound memory
    std::set<std::uint64_t> undone_;  // for the error: everything was undone already
};

} // namespace rio
