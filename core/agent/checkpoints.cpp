#include "core/agent/checkpoints.hpp"

#include <algorithm>

namespace rio {
namespace {

std::string megabytes(std::size_t bytes) {
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

} // namespace

bool Checkpoints::holds(std::uint64_t turn, std::string_view path) const {
    auto it = turns_.find(turn);
    if (it == turns_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const FileCheckpoint& c) { return c.prior.path == path; });
}

std::size_t Checkpoints::size_of(const FileCheckpoint& c) {
    return c.prior.bytes.size() + (c.prior.buffer ? c.prior.buffer->size() : 0);
}

void Checkpoints::drop(std::map<std::uint64_t, std::vector<FileCheckpoint>>::iterator turn) {
    for (const FileCheckpoint& c : turn->second)
        bytes_ -= size_of(c);
    dropped_.insert(turn->first);
    turns_.erase(turn);
}

void Checkpoints::keep(std::uint64_t turn, FilePrior prior) {
    if (dropped_.count(turn) || holds(turn, prior.path)) return;
    undone_.erase(turn);
    FileCheckpoint checkpoint{std::move(prior), 0};
    bytes_ += size_of(checkpoint);
    auto& files = turns_[turn];
    files.push_back(std::move(checkpoint));
    std::size_t turn_bytes = 0;
    for (const FileCheckpoint& c : files)
        turn_bytes += size_of(c);
    // Half a turn cannot be undone honestly: a turn too large to keep is not kept at all.
    if (turn_bytes > budget_) {
        drop(turns_.find(turn));
        return;
    }
    while (bytes_ > budget_) // the turn fits alone, so older ones go before it
        drop(turns_.begin());
}

void Checkpoints::wrote(std::uint64_t turn, std::string_view path, std::uint64_t fingerprint) {
    auto it = turns_.find(turn);
    if (it == turns_.end()) return;
    for (FileCheckpoint& c : it->second)
        if (c.prior.path == path) c.written = fingerprint;
}

Result<std::vector<const FileCheckpoint*>>
Checkpoints::select(std::uint64_t turn, const std::optional<std::string>& path) const {
    std::string name = "turn " + std::to_string(turn);
    auto it = turns_.find(turn);
    if (it == turns_.end()) {
        if (dropped_.count(turn))
            return make_error(ErrorCode::not_found,
                              name + " can no longer be undone: rio keeps at most " +
                                  megabytes(budget_) +
                                  " of earlier file contents, and newer turns needed the room");
        if (undone_.count(turn))
            return make_error(ErrorCode::not_found, name + "'s changes were already undone");
        return make_error(ErrorCode::not_found, name + " changed no files");
    }
    std::vector<const FileCheckpoint*> out;
    for (const FileCheckpoint& c : it->second)
        if (!path || c.prior.path == *path) out.push_back(&c);
    if (out.empty())
        return make_error(ErrorCode::not_found, name + " has no change to " + *path +
                                                    " to undo (it did not write it, or that "
                                                    "was undone already)");
    return out;
}

std::vector<Checkpoints::Span> Checkpoints::since(std::uint64_t turn) const {
    std::vector<Span> spans;
    for (auto it = turns_.lower_bound(turn); it != turns_.end(); ++it)
        for (const FileCheckpoint& c : it->second) {
            auto same = std::find_if(spans.begin(), spans.end(),
                                     [&](const Span& s) { return s.prior.path == c.prior.path; });
            if (same == spans.end())
                spans.push_back(Span{c.prior, c.written});
            else
                same->written = c.written; // a later turn wrote it last
        }
    return spans;
}

std::vector<std::uint64_t> Checkpoints::dropped_since(std::uint64_t turn) const {
    return {dropped_.lower_bound(turn), dropped_.end()};
}

void Checkpoints::forget_since(std::uint64_t turn) {
    while (true) {
        auto it = turns_.lower_bound(turn);
        if (it == turns_.end()) break;
        drop(it);
    }
    std::erase_if(dropped_, [turn](std::uint64_t t) { return t >= turn; });
    std::erase_if(undone_, [turn](std::uint64_t t) { return t >= turn; });
}

void Checkpoints::forget(std::uint64_t turn, std::string_view path) {
    remove(turn, path, true);
}

void Checkpoints::retract(std::uint64_t turn, std::string_view path) {
    remove(turn, path, false);
}

void Checkpoints::remove(std::uint64_t turn, std::string_view path, bool undone) {
    auto it = turns_.find(turn);
    if (it == turns_.end()) return;
    auto& files = it->second;
    auto gone = std::find_if(files.begin(), files.end(),
                             [&](const FileCheckpoint& c) { return c.prior.path == path; });
    if (gone == files.end()) return;
    bytes_ -= size_of(*gone);
    files.erase(gone);
    if (!files.empty()) return;
    turns_.erase(it);
    if (undone) undone_.insert(turn);
}

void Checkpoints::clear() {
    turns_.clear();
    dropped_.clear();
    undone_.clear();
    bytes_ = 0;
}

CheckpointsState Checkpoints::state() const {
    CheckpointsState state;
    for (const auto& [turn, files] : turns_) {
        TurnCheckpoint entry{turn, {}};
        for (const FileCheckpoint& c : files)
            entry.files.push_back(CheckpointFile{c.prior.path, !c.prior.existed});
        state.turns.push_back(std::move(entry));
    }
    return state;
}

} // namespace rio
