#include "client/fuzzy_match.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

namespace rio::client {
namespace {

// Scores in the manner of fzf's: a matched character is worth `match`, more where a person
// would start typing a name; a gap costs `gap_start`, then `gap_extension` a character. A
// character that continues a run keeps the bonus its run started with, so "main" typed
// against "main.cpp" beats the same letters scattered over "m/a/i/n.txt".
constexpr int match = 16;
constexpr int gap_start = -3;
constexpr int gap_extension = -1;
constexpr int bonus_segment = 10; // the path's first character, or one after '/'
constexpr int bonus_word = 8;     // after '_', '-', '.', a space or other punctuation
constexpr int bonus_camel = 7;    // an upper-case letter after a lower-case one, a digit after
                                  // a letter
constexpr int bonus_run = -(gap_start + gap_extension); // a run never scores below a gap
constexpr int first_multiplier = 2;                     // the query's first character says most
constexpr int bonus_name = 3;                           // in the file name, not a folder's
constexpr int bonus_case = 1;                           // typed in the path's own case
constexpr int none = std::numeric_limits<int>::min() / 4;

bool is_upper(unsigned char c) {
    return c >= 'A' && c <= 'Z';
}
bool is_lower(unsigned char c) {
    return c >= 'a' && c <= 'z';
}
bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}
// Bytes of non-ASCII characters count as letters.
bool is_word(unsigned char c) {
    return is_upper(c) || is_lower(c) || is_digit(c) || c >= 0x80;
}
char fold(char c) {
    return is_upper(static_cast<unsigned char>(c)) ? static_cast<char>(c - 'A' + 'a') : c;
}

// Where the file name starts: after the last '/'.
std::size_t name_start(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? 0 : slash + 1;
}

int bonus_at(std::string_view path, std::size_t at) {
    if (at == 0 || path[at - 1] == '/') return bonus_segment;
    const auto previous = static_cast<unsigned char>(path[at - 1]);
    const auto current = static_cast<unsigned char>(path[at]);
    if (!is_word(previous)) return is_word(current) ? bonus_word : 0;
    if (is_lower(previous) && is_upper(current)) return bonus_camel;
    if (!is_digit(previous) && is_digit(current)) return bonus_camel;
    return 0;
}

struct Query {
    std::string typed;  // without spaces
    std::string folded; // the same, lower case
};

Query normalise(std::string_view text) {
    Query q;
    for (char c : text) {
        if (c == ' ' || c == '\t') continue;
        q.typed += c;
        q.folded += fold(c);
    }
    return q;
}

// One path against one query. The table is kept between paths: quick open scores tens of
// thousands of them a keystroke.
class Scorer {
public:
    explicit Scorer(const Query& query) : q_(query) {}

    // The best score, or nothing when the query's characters are not all in the path in
    // order; with `positions`, also where the best alignment put them.
    std::optional<int> score(std::string_view path, std::vector<std::size_t>* positions) {
        const std::size_t m = q_.folded.size(), n = path.size();
        if (!in_order(path)) return std::nullopt;
        score_.assign(m * n, none);
        run_.assign(m * n, 0);
        from_.assign(m * n, -1);
        const std::size_t name = name_start(path);
        bonus_.resize(n);
        for (std::size_t j = 0; j < n; ++j)
            bonus_[j] = bonus_at(path, j);

        for (std::size_t i = 0; i < m; ++i) {
            int gap = none; // the best earlier cell of row i-1, less the gap to j
            long gap_from = -1;
            for (std::size_t j = i; j < n; ++j) {
                if (i > 0 && j >= 2) {
                    gap = gap == none ? none : gap + gap_extension;
                    const int earlier = cell(score_, i - 1, j - 2);
                    if (earlier != none && earlier + gap_start > gap) {
                        gap = earlier + gap_start;
                        gap_from = static_cast<long>(j - 2);
                    }
                }
                if (fold(path[j]) != q_.folded[i]) continue;
                const int bonus = bonus_[j];
                int extra =
                    (j >= name ? bonus_name : 0) + (path[j] == q_.typed[i] ? bonus_case : 0);
                if (i == 0) {
                    cell(score_, i, j) = match + bonus * first_multiplier + extra;
                    cell(run_, i, j) = bonus;
                    continue;
                }
                const int before = cell(score_, i - 1, j - 1);
                int in_run = none, run_bonus = 0;
                if (before != none) {
                    run_bonus = std::max({cell(run_, i - 1, j - 1), bonus_run, bonus});
                    in_run = before + match + run_bonus;
                }
                const int after_gap = gap == none ? none : gap + match + bonus;
                if (in_run == none && after_gap == none) continue;
                if (in_run >= after_gap) {
                    cell(score_, i, j) = in_run + extra;
                    cell(run_, i, j) = run_bonus;
                    cell(from_, i, j) = static_cast<long>(j - 1);
                } else {
                    cell(score_, i, j) = after_gap + extra;
                    cell(run_, i, j) = bonus;
                    cell(from_, i, j) = gap_from;
                }
            }
        }

        // What the file name holds after the last character matched, up to its extension,
        // costs a little: "main" picks main.cpp before main_window.cpp.
        std::size_t stem_end = path.find('.', name + 1);
        if (stem_end == std::string_view::npos) stem_end = n;
        long best_at = -1;
        int best = none;
        for (std::size_t j = 0; j < n; ++j) {
            if (cell(score_, m - 1, j) == none) continue;
            const int rest = j >= name && j < stem_end ? static_cast<int>(stem_end - j - 1) : 0;
            const int total = cell(score_, m - 1, j) + rest * gap_extension;
            if (total > best) {
                best = total;
                best_at = static_cast<long>(j);
            }
        }
        if (best_at < 0) return std::nullopt;
        if (positions) {
            positions->assign(m, 0);
            for (std::size_t i = m; i-- > 0;) {
                (*positions)[i] = static_cast<std::size_t>(best_at);
                best_at = cell(from_, i, static_cast<std::size_t>(best_at));
            }
        }
        return best;
    }

private:
    template <typename T> T& cell(std::vector<T>& table, std::size_t i, std::size_t j) {
        return table[i * width_ + j];
    }

    // The cheap test first: most paths lack some character of a longer query.
    bool in_order(std::string_view path) {
        width_ = path.size();
        std::size_t at = 0;
        for (char c : q_.folded) {
            while (at < path.size() && fold(path[at]) != c)
                ++at;
            if (at == path.size()) return false;
            ++at;
        }
        return true;
    }

    const Query& q_;
    std::size_t width_ = 0;
    std::vector<int> score_; // best score with query[i] at path[j]; `none` where it cannot be
    std::vector<int> run_;   // the bonus of the run that cell continues
    std::vector<long> from_; // where query[i-1] went on the way to that cell
    std::vector<int> bonus_;
};

} // namespace

std::vector<FuzzyHit> fuzzy_find(const std::vector<std::string>& paths, std::string_view query,
                                 std::size_t limit) {
    const Query q = normalise(query);
    std::vector<FuzzyHit> hits;
    if (q.folded.empty()) {
        for (std::size_t i = 0; i < paths.size() && i < limit; ++i)
            hits.push_back(FuzzyHit{i, 0, {}});
        return hits;
    }
    Scorer scorer(q);
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (auto score = scorer.score(paths[i], nullptr)) hits.push_back(FuzzyHit{i, *score, {}});
    const auto better = [&paths](const FuzzyHit& a, const FuzzyHit& b) {
        if (a.score != b.score) return a.score > b.score;
        if (paths[a.index].size() != paths[b.index].size())
            return paths[a.index].size() < paths[b.index].size();
        return a.index < b.index;
    };
    const std::size_t shown = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(shown), hits.end(),
                      better);
    hits.resize(shown);
    for (FuzzyHit& hit : hits)
        scorer.score(paths[hit.index], &hit.positions);
    return hits;
}

} // namespace rio::client
