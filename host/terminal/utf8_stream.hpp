// Bytes read in pieces made into UTF-8 text for the wire: a character split between two
// pieces is held back and sent whole with the next, and what is not UTF-8 becomes U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace rio {

class Utf8Stream {
public:
    // The text of `bytes` after what was held back, without a last incomplete character.
    std::string take(std::string_view bytes);

private:
    std::string held_; // at most 3 bytes: the start of a character
};

} // namespace rio
