#include "protocol/line_reader.hpp"

#include <cstring>

namespace rio {

std::vector<Frame> LineReader::feed(std::string_view bytes) {
    std::vector<Frame> out;
    while (!bytes.empty()) {
        const void* nl = std::memchr(bytes.data(), '\n', bytes.size());
        std::size_t take = nl ? static_cast<const char*>(nl) - bytes.data() : bytes.size();
        std::string_view piece = bytes.substr(0, take);
        bytes.remove_prefix(nl ? take + 1 : take);

        if (discarding_) {
            discarded_ += piece.size();
        } else if (partial_.size() + piece.size() > limit() + 1) {
            // +1 leaves room for a '\r' that CRLF framing strips. Beyond that the line is
            // refused; keep counting its length for the error but stop holding its bytes.
            discarding_ = true;
            discarded_ = partial_.size() + piece.size();
            partial_.clear();
            partial_.shrink_to_fit();
        } else {
            partial_.append(piece);
        }
        if (nl) complete(out);
    }
    return out;
}

std::vector<Frame> LineReader::finish() {
    std::vector<Frame> out;
    if (discarding_ || !partial_.empty()) complete(out);
    return out;
}

void LineReader::complete(std::vector<Frame>& out) {
    if (discarding_) {
        out.push_back(Frame{{}, discarded_});
        discarding_ = false;
        discarded_ = 0;
        framed_ = true;
        return;
    }
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    if (partial_.size() > limit()) {
        out.push_back(Frame{{}, partial_.size()});
        framed_ = true;
    } else if (partial_.find_first_not_of(" \t") != std::string::npos) {
        out.push_back(Frame{std::move(partial_), 0});
        framed_ = true;
    }
    partial_.clear();
}

} // namespace rio
