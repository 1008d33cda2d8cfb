// Keys never leave rio-core in anything it says (DESIGN §12): every line to a client, every
// tool result before the model sees it. Exact matches of each known key; a key shorter than
// min_secret_length is taken for a placeholder, not redacted (it would mangle ordinary text).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rio {

inline constexpr std::size_t min_secret_length = 8;
inline constexpr const char* redacted_marker = "[redacted]";

// Replaces every occurrence of each secret in `text`; returns how many were replaced.
std::size_t redact(std::string& text, const std::vector<std::string>& secrets);

// Redaction of a text that arrives in pieces (a reply's deltas): a key split across two
// pieces matches neither alone, so the end of a piece that could be the start of a key
// waits for the next one.
class StreamRedaction {
public:
    // What can go out now, with whole keys replaced; may be "" while a tail waits.
    std::string feed(std::string_view piece, const std::vector<std::string>& secrets);
    // What waited, at the end of the stream (it never became a whole key).
    std::string finish() { return std::exchange(held_, std::string()); }

private:
    std::string held_;
};

} // namespace rio
