#include "host/search/run_finder.hpp"

#include "host/search/byte_frequency.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rio {
namespace {

// At most this many positions are probed at once: three rare positions leave few places to
// check, and each more costs a little on every 32 bytes.
constexpr std::size_t max_probes = 3;

// The tables of a probe: the distinct patterns of low halves that the set's high halves
// have each get one of eight bits; past eight, the last bit takes the union of the rest.
RunFinder::Probe make_probe(std::size_t offset, const ByteSet& set) {
    RunFinder::Probe p;
    p.offset = offset;
    std::array<std::uint16_t, 16> rows{}; // per high half: the low halves in the set
    for (std::size_t b = 0; b < 256; ++b)
        if (set.test(b)) rows[b >> 4] = static_cast<std::uint16_t>(rows[b >> 4] | (1u << (b & 15)));
    std::array<std::uint16_t, 8> patterns{};
    std::size_t used = 0;
    for (std::size_t h = 0; h < 16; ++h) {
        if (rows[h] == 0) continue;
        std::size_t bit = std::find(patterns.begin(),
                                    patterns.begin() + static_cast<std::ptrdiff_t>(used), rows[h]) -
                          patterns.begin();
        if (bit == used) {
            if (used < patterns.size())
                patterns[used++] = rows[h];
            else
                patterns[bit = patterns.size() - 1] |= rows[h];
        }
        p.high[h] = static_cast<std::uint8_t>(1u << bit);
    }
    for (std::size_t bit = 0; bit < used; ++bit)
        for (std::size_t l = 0; l < 16; ++l)
            if (patterns[bit] >> l & 1)
                p.low[l] = static_cast<std::uint8_t>(p.low[l] | (1u << bit));
    return p;
}

#if defined(__x86_64__)
// Places where every probe holds, 32 a step, each checked whole by `verify`; `at` ends where
// fewer than 32 places remain with all probes in reach.
template <typename Verify>
__attribute__((target("avx2"))) std::size_t
find_run_avx2(const char* base, std::size_t size, std::size_t& at, std::size_t last,
              const std::vector<RunFinder::Probe>& probes, Verify verify) {
    std::size_t reach = 32;
    __m256i low[max_probes], high[max_probes];
    const std::size_t n = probes.size();
    for (std::size_t k = 0; k < n; ++k) {
        reach = std::max(reach, probes[k].offset + 32);
        low[k] = _mm256_broadcastsi128_si256(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(probes[k].low.data())));
        high[k] = _mm256_broadcastsi128_si256(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(probes[k].high.data())));
    }
    const __m256i nibble = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    for (; at + reach <= size; at += 32) {
        __m256i missing = zero; // 0xff where some probe does not hold
        for (std::size_t k = 0; k < n; ++k) {
            __m256i v =
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + at + probes[k].offset));
            __m256i lo = _mm256_shuffle_epi8(low[k], _mm256_and_si256(v, nibble));
            __m256i hi =
                _mm256_shuffle_epi8(high[k], _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            missing = _mm256_or_si256(missing, _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), zero));
        }
        auto bits = ~static_cast<unsigned>(_mm256_movemask_epi8(missing));
        for (; bits; bits &= bits - 1) {
            std::size_t start = at + static_cast<std::size_t>(std::countr_zero(bits));
            if (start > last) return std::string_view::npos;
            if (verify(start)) return start;
        }
    }
    return std::string_view::npos - 1; // not found yet: go on from `at`
}
#endif

} // namespace

RunFinder::RunFinder(const ByteRun& run) : members_(run.positions.size()) {
#if defined(__x86_64__)
    avx2_ = __builtin_cpu_supports("avx2");
#endif
    std::vector<std::size_t> order(run.positions.size());
    for (std::size_t k = 0; k < run.positions.size(); ++k) {
        order[k] = k;
        for (std::size_t b = 0; b < 256; ++b)
            members_[k][b] = run.positions[k].test(b);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return byte_set_share(run.positions[a]) < byte_set_share(run.positions[b]);
    });
    order.resize(std::min(order.size(), max_probes));
    for (std::size_t k : order)
        probes_.push_back(make_probe(k, run.positions[k]));
}

bool RunFinder::matches_at(const char* at) const {
    for (std::size_t k = 0; k < members_.size(); ++k)
        if (!members_[k][static_cast<unsigned char>(at[k])]) return false;
    return true;
}

// A place at a time, testing the rarest position first.
std::size_t RunFinder::find_scalar(std::string_view text, std::size_t from) const {
    const std::size_t n = members_.size();
    const std::size_t rarest = probes_.front().offset;
    const auto& first = members_[rarest];
    for (std::size_t at = from; at + n <= text.size(); ++at)
        if (first[static_cast<unsigned char>(text[at + rarest])] && matches_at(text.data() + at))
            return at;
    return std::string_view::npos;
}

std::size_t RunFinder::find(std::string_view text, std::size_t from) const {
    const std::size_t n = members_.size();
    if (from > text.size() || text.size() - from < n) return std::string_view::npos;
    std::size_t at = from;
#if defined(__x86_64__)
    if (avx2_) {
        const char* base = text.data();
        std::size_t hit =
            find_run_avx2(base, text.size(), at, text.size() - n, probes_,
                          [&](std::size_t start) { return matches_at(base + start); });
        if (hit != std::string_view::npos - 1) return hit;
    }
#endif
    return find_scalar(text, at);
}

} // namespace rio
