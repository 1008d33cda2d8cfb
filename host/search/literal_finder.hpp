// Finds a fixed string in text, optionally with ASCII letters matching either case. glibc's
// memmem was the largest user-space cost of a project search (profiled): it starts from the
// needle's first byte, and in code the first byte is usually common. This finder tests two
// of the needle's rarest bytes at 16 positions at once (32 with AVX2), and compares the
// needle only where both agree.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rio {

class LiteralFinder {
public:
    // `needle` must not be empty. With `fold_ascii`, an ASCII letter matches its other case
    // and nothing else: right for Unicode case folding except for k and s (which also match
    // U+212A and U+017F), so callers leave those to RE2.
    LiteralFinder(std::string_view needle, bool fold_ascii);

    // The offset of the first occurrence that starts at or after `from`, or npos.
    std::size_t find(std::string_view text, std::size_t from) const;
    std::size_t size() const { return needle_.size(); }

private:
    bool matches_at(const char* at) const;
    std::size_t find_scalar(std::string_view text, std::size_t from) const;

    std::string needle_; // lowercase where folding
    std::string fold_;   // per byte: 0x20 where (byte | 0x20) is compared, else 0
    bool folds_ = false;
    bool avx2_ = false;                 // checked once, when the finder is made
    std::size_t rare1_ = 0, rare2_ = 0; // positions of the two bytes tested first
};

} // namespace rio
