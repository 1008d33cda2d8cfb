// Splits the bytes of a protocol channel into lines (DESIGN §3 framing), refusing a line
// over the limit without losing the lines that follow it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

inline constexpr std::size_t default_max_line = 16u * 1024 * 1024;

struct Frame {
    std::string line;         // without its terminator; empty when oversize
    std::size_t oversize = 0; // the refused line's length when it exceeded the limit, else 0
};

class LineReader {
public:
    explicit LineReader(std::size_t max_line = default_max_line) : max_line_(max_line) {}

    // Appends bytes and returns every frame they completed. Blank lines are skipped and a
    // '\r' before '\n' is dropped, so CRLF-speaking clients work too.
    std::vector<Frame> feed(std::string_view bytes);

    // At end of stream: the unterminated last line, if any, as a frame.
    std::vector<Frame> finish();

    // Bytes held for an incomplete line (bounded by the limit).
    std::size_t pending() const { return partial_.size(); }

    // A smaller limit for the first frame only (a stranger's hello, before the token is
    // known good); lines after it get the usual one.
    void limit_first_line(std::size_t max_line) { first_max_line_ = max_line; }

private:
    void complete(std::vector<Frame>& out);
    std::size_t limit() const { return framed_ ? max_line_ : std::min(max_line_, first_max_line_); }

    std::size_t max_line_;
    std::size_t first_max_line_ = static_cast<std::size_t>(-1);
    bool framed_ = false; // a frame (blank lines are none) was produced
    std::string partial_;
    std::size_t discarded_ = 0; // bytes of an oversize line dropped so far
    bool discarding_ = false;
};

} // namespace rio
