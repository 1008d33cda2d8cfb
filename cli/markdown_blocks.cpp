#include "cli/markdown_blocks.hpp"

namespace rio {
namespace {

bool blank(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

struct Fence {
    char mark = 0;
    std::size_t length = 0;
};

// A fence line: up to three spaces, then three or more backticks or tildes.
Fence fence_of(std::string_view line) {
    std::size_t at = line.find_first_not_of(' ');
    if (at == std::string_view::npos || at > 3) return {};
    char mark = line[at];
    if (mark != '`' && mark != '~') return {};
    std::size_t end = line.find_first_not_of(mark, at);
    std::size_t length = (end == std::string_view::npos ? line.size() : end) - at;
    return length >= 3 ? Fence{mark, length} : Fence{};
}

} // namespace

std::string MarkdownBlocks::feed(std::string_view text) {
    held_ += text;
    std::size_t cut = 0;
    std::size_t nl;
    while ((nl = held_.find('\n', scanned_)) != std::string::npos) {
        std::string_view line(held_.data() + scanned_, nl - scanned_);
        std::size_t start = scanned_;
        scanned_ = nl + 1;
        Fence fence = fence_of(line);
        if (fence_) {
            if (fence.mark == fence_ && fence.length >= fence_length_ &&
                blank(line.substr(line.find(fence_) + fence.length)))
                fence_ = 0;
            continue;
        }
        if (blank(line)) {
            after_blank_ = true;
            continue;
        }
        if (after_blank_ && line.front() != ' ' && line.front() != '\t') cut = start;
        after_blank_ = false;
        if (fence.mark) {
            fence_ = fence.mark;
            fence_length_ = fence.length;
        }
    }
    std::string done = held_.substr(0, cut);
    held_.erase(0, cut);
    scanned_ -= cut;
    return done;
}

std::string MarkdownBlocks::finish() {
    std::string rest = std::move(held_);
    *this = MarkdownBlocks{};
    return rest;
}

} // namespace rio
