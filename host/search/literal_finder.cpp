#include "host/search/literal_finder.hpp"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rio {
namespace {

// Bytes of source code and prose from most to least common (a rough order, which is all
// the choice of the two bytes to test needs); bytes not listed count as rarest.
constexpr std::string_view common_bytes =
    " e\ntaoinsrlcdu\thpmf_()=;.,gbyv\"/0-1*w:>{}k2<x[]#'&+!ESTACRIDNOLP3qj548z69FM7BUGHW|$\\"
    "KYVXJQZ%@^`~?\r";

constexpr std::array<unsigned char, 256> make_commonness() {
    std::array<unsigned char, 256> rank{};
    for (std::size_t i = 0; i < common_bytes.size(); ++i)
        rank[static_cast<unsigned char>(common_bytes[i])] =
            static_cast<unsigned char>(common_bytes.size() + 1 - i);
    return rank;
}
constexpr std::array<unsigned char, 256> commonness = make_commonness();

bool is_ascii_letter(unsigned char c) {
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

// A folded letter stands for two bytes, so it is about twice as common.
unsigned score(unsigned char c, bool folded) {
    if (!folded) return commonness[c];
    return std::max(commonness[c | 0x20], commonness[c & ~0x20u]) + 8u;
}

#if defined(__x86_64__)
// Where both probe bytes agree, 32 positions a step; `at` ends where fewer remain.
template <typename Verify>
__attribute__((target("avx2"))) std::size_t
find_avx2(const char* base, std::size_t size, std::size_t& at, std::size_t last, std::size_t rare1,
          std::size_t rare2, char fold1, char want1, char fold2, char want2, Verify verify) {
    const std::size_t reach = std::max(rare1, rare2) + 32;
    const __m256i f1 = _mm256_set1_epi8(fold1), w1 = _mm256_set1_epi8(want1);
    const __m256i f2 = _mm256_set1_epi8(fold2), w2 = _mm256_set1_epi8(want2);
    for (; at + reach <= size; at += 32) {
        __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + at + rare1));
        __m256i b2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + at + rare2));
        __m256i eq = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_or_si256(b1, f1), w1),
                                      _mm256_cmpeq_epi8(_mm256_or_si256(b2, f2), w2));
        for (auto bits = static_cast<unsigned>(_mm256_movemask_epi8(eq)); bits; bits &= bits - 1) {
            std::size_t start = at + static_cast<std::size_t>(std::countr_zero(bits));
            if (start > last) return std::string_view::npos;
            if (verify(start)) return start;
        }
    }
    return std::string_view::npos - 1; // not found yet: go on from `at`
}
#endif
} // namespace

LiteralFinder::LiteralFinder(std::string_view needle, bool fold_ascii)
    : needle_(needle), fold_(needle.size(), '\0') {
#if defined(__x86_64__)
    avx2_ = __builtin_cpu_supports("avx2");
#endif
    for (std::size_t i = 0; i < needle_.size(); ++i) {
        auto c = static_cast<unsigned char>(needle_[i]);
        if (fold_ascii && is_ascii_letter(c)) {
            needle_[i] = static_cast<char>(c | 0x20);
            fold_[i] = 0x20;
            folds_ = true;
        }
    }
    auto score_at = [&](std::size_t i) {
        return score(static_cast<unsigned char>(needle_[i]), fold_[i] != 0);
    };
    for (std::size_t i = 1; i < needle_.size(); ++i)
        if (score_at(i) < score_at(rare1_)) rare1_ = i;
    // The second byte should differ from the first, or testing it learns little.
    auto better_second = [&](std::size_t i) {
        if (rare2_ == rare1_) return true;
        bool differs = needle_[i] != needle_[rare1_];
        bool chosen_differs = needle_[rare2_] != needle_[rare1_];
        if (differs != chosen_differs) return differs;
        return score_at(i) < score_at(rare2_);
    };
    rare2_ = rare1_;
    for (std::size_t i = 0; i < needle_.size(); ++i)
        if (i != rare1_ && better_second(i)) rare2_ = i;
}

bool LiteralFinder::matches_at(const char* at) const {
    if (!folds_) return std::memcmp(at, needle_.data(), needle_.size()) == 0;
    for (std::size_t i = 0; i < needle_.size(); ++i)
        if (static_cast<char>(at[i] | fold_[i]) != needle_[i]) return false;
    return true;
}

std::size_t LiteralFinder::find_scalar(std::string_view text, std::size_t from) const {
    const std::size_t n = needle_.size();
    if (text.size() < n) return std::string_view::npos;
    const char* base = text.data();
    const char rare = needle_[rare1_];
    const char rare_fold = fold_[rare1_];
    for (std::size_t at = from; at + n <= text.size(); ++at) {
        if (!folds_) {
            // memchr on the rare byte is the portable fast path.
            const void* hit = std::memchr(base + at + rare1_, rare, text.size() - n + 1 - at);
            if (!hit) return std::string_view::npos;
            at = static_cast<std::size_t>(static_cast<const char*>(hit) - base) - rare1_;
        } else if (static_cast<char>(base[at + rare1_] | rare_fold) != rare) {
            continue;
        }
        if (matches_at(base + at)) return at;
    }
    return std::string_view::npos;
}

std::size_t LiteralFinder::find(std::string_view text, std::size_t from) const {
    const std::size_t n = needle_.size();
    if (from > text.size() || text.size() - from < n) return std::string_view::npos;
#if defined(__SSE2__)
    const char* base = text.data();
    const std::size_t last = text.size() - n; // the last offset a match can start at
    const std::size_t reach = std::max(rare1_, rare2_) + 16;
    const __m128i fold1 = _mm_set1_epi8(fold_[rare1_]), want1 = _mm_set1_epi8(needle_[rare1_]);
    const __m128i fold2 = _mm_set1_epi8(fold_[rare2_]), want2 = _mm_set1_epi8(needle_[rare2_]);
    std::size_t at = from;
#if defined(__x86_64__)
    if (avx2_) {
        std::size_t hit = find_avx2(base, text.size(), at, last, rare1_, rare2_, fold_[rare1_],
                                    needle_[rare1_], fold_[rare2_], needle_[rare2_],
                                    [&](std::size_t start) { return matches_at(base + start); });
        if (hit != std::string_view::npos - 1) return hit;
    }
#endif
    for (; at + reach <= text.size(); at += 16) {
        __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + at + rare1_));
        __m128i b2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + at + rare2_));
        __m128i eq = _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(b1, fold1), want1),
                                   _mm_cmpeq_epi8(_mm_or_si128(b2, fold2), want2));
        for (auto bits = static_cast<unsigned>(_mm_movemask_epi8(eq)); bits; bits &= bits - 1) {
            std::size_t start = at + static_cast<std::size_t>(std::countr_zero(bits));
            if (start > last) return std::string_view::npos;
            if (matches_at(base + start)) return start;
        }
    }
    return find_scalar(text, at);
#else
    return find_scalar(text, from);
#endif
}

} // namespace rio
