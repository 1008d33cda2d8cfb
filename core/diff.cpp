#include "core/diff.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>

namespace rio {


std::size_t auto_max_cost(std::size_t a_lines, std::size_t b_lines) {
    std::size_t total = a_lines + b_lines;
    std::size_t root = 0;
    // Integer square root by bits: exact and free of floating-point rounding questions.
    for (std::size_t bit = std::size_t{1} << (std::numeric_limits<std::size_t>::digits - 2);
         bit != 0; bit >>= 2) {
        if (total >= root + bit) {
            total -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
    }
    return std::max<std::size_t>(4096, 4 * root);
}

namespace {

using Id = std::uint32_t;
constexpr Id kNoId = std::numeric_limits<Id>::max();
// Signed, because diagonals (x - y) are negative as often as not.
using Index = std::ptrdiff_t;

// The distinct lines of a, each mapped to a small integer so that the search compares ints
// instead of strings. Lines of b are only looked up: one that is not in a can never match.
class LineTable {
public:
    struct Entry {
        std::string_view text;
        std::size_t first = 0; // index in a of its first occurrence
        bool repeated = false; // occurs more than once in a
        bool in_b = false;
    };

    // Open addressing sized for every line of a being distinct, so it never has to grow.
    explicit LineTable(std::size_t a_lines) {
        std::size_t capacity = 64;
        while (capacity < 2 * a_lines)
            capacity <<= 1;
        slots_.resize(capacity);
        entries_.reserve(a_lines);
    }

    static std::uint32_t hash_of(std::string_view line) {
        return static_cast<std::uint32_t>(std::hash<std::string_view>{}(line));
    }

    // Lines of a are added in a tight loop whose time goes almost all to cache misses on
    // the table; asking for the slot a few lines ahead overlaps them.
    void prefetch(std::uint32_t hash) const {
        __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
    }

    Id add(std::string_view line, std::uint32_t hash, std::size_t index) {
        Slot* slot = probe(line, hash);
        if (slot->id != kNoId) {
            entries_[slot->id].repeated = true;
            return slot->id;
        }
        *slot = Slot{hash, static_cast<Id>(entries_.size())};
        entries_.push_back(Entry{line, index});
        return slot->id;
    }

    Id find(std::string_view line) { return probe(line, hash_of(line))->id; }

    Entry& operator[](Id id) { return entries_[id]; }

private:
    struct Slot {
        std::uint32_t hash = 0;
        Id id = kNoId;
    };

    // The slot holding line, or the empty slot where it belongs.
    Slot* probe(std::string_view line, std::uint32_t hash) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
            Slot& slot = slots_[i];
            if (slot.id == kNoId || (slot.hash == hash && entries_[slot.id].text == line))
                return &slot;
        }
    }

    std::vector<Slot> slots_; // 8 bytes each: the table is probed at random, keep it small
    std::vector<Entry> entries_;
};

// A sub-problem: a[xoff, xlim) against b[yoff, ylim).
struct Box {
    Index xoff, xlim, yoff, ylim;
};

struct Point {
    Index x, y;
};

// Divide and conquer over the edit graph of a and b, marking every line that is not part
// of the common subsequence it settles on.
class Myers {
public:
    // A fixed max_cost is the caller's to choose; an adaptive one halves each time a search
    // runs into it (down to kFloorCost), since an input that keeps hitting the cap has
    // little structure to find and every capped search costs max_cost^2 for a split point
    // only about max_cost lines in. That keeps a shuffled 100k-line file at a fraction of
    // a second, where a fixed 4096 would take seconds.
    Myers(const std::vector<Id>& a, const std::vector<Id>& b, std::size_t max_cost, bool adaptive)
        : a_(a.data()), b_(b.data()), n_(static_cast<Index>(a.size())),
          m_(static_cast<Index>(b.size())), max_cost_(std::max<std::size_t>(max_cost, 1)),
          adaptive_(adaptive), changed_a_(a.size(), 0), changed_b_(b.size(), 0),
          // Left uninitialised: a search only touches the diagonals it reaches, so most
          // pages of these are never faulted in when the files are similar.
          forward_(new Index[a.size() + b.size() + 3]),
          backward_(new Index[a.size() + b.size() + 3]) {
        // Diagonals run from -m to n; one spare slot on each side holds the sentinels.
        fd_ = forward_.get() + m_ + 1;
        bd_ = backward_.get() + m_ + 1;
    }

    static constexpr std::size_t kFloorCost = 256;

    // Returns false if the cost cap made any split heuristic.
    bool run() {
        // An explicit stack: heuristic splits can be lopsided, and a recursion as deep as
        // the input is long would overflow the call stack on large files.
        std::vector<Box> todo{Box{0, n_, 0, m_}};
        while (!todo.empty()) {
            Box box = todo.back();
            todo.pop_back();
            while (box.xoff < box.xlim && box.yoff < box.ylim && a_[box.xoff] == b_[box.yoff]) {
                ++box.xoff;
                ++box.yoff;
            }
            while (box.xoff < box.xlim && box.yoff < box.ylim &&
                   a_[box.xlim - 1] == b_[box.ylim - 1]) {
                --box.xlim;
                --box.ylim;
            }
            if (box.xoff == box.xlim) {
                std::fill(changed_b_.begin() + box.yoff, changed_b_.begin() + box.ylim, 1);
            } else if (box.yoff == box.ylim) {
                std::fill(changed_a_.begin() + box.xoff, changed_a_.begin() + box.xlim, 1);
            } else {
                Point mid = split(box);
                todo.push_back(Box{mid.x, box.xlim, mid.y, box.ylim});
                todo.push_back(Box{box.xoff, mid.x, box.yoff, mid.y});
            }
        }
        return exact_;
    }

    const std::vector<char>& changed_a() const { return changed_a_; }
    const std::vector<char>& changed_b() const { return changed_b_; }

private:
    // Finds a point strictly inside the box (neither corner) that lies on a minimal edit
    // path, or, once the cost cap is hit, the point of furthest progress. The box has no
    // common first or last line, and neither side is empty.
    //
    // fd_[k] is the furthest x reached on diagonal k = x - y by the forward search from the
    // top-left corner, bd_[k] the smallest x reached by the backward search from the
    // bottom-right. Neither search is bounded by the far edges of the box: past them the
    // lines are treated as matching nothing, which keeps Myers' furthest-reaching
    // recurrence exact (inside the box alone it is not, a path hugging the edge can be
    // cheaper than the furthest point's neighbours suggest). Any point is clamped back
    // into the box before it is used; distances from a corner only grow along a diagonal,
    // so the clamped point is no more expensive than the one it came from.
    Point split(const Box& box) {
        const Index dmin = box.xoff - box.ylim;
        const Index dmax = box.xlim - box.yoff;
        const Index fmid = box.xoff - box.yoff;
        const Index bmid = box.xlim - box.ylim;
        // The total cost has the parity of fmid - bmid; the searches can only meet when
        // their costs add up to it, so only one direction needs to look for the overlap.
        const bool odd = ((fmid - bmid) & 1) != 0;
        constexpr Index kNoForward = -1;
        constexpr Index kNoBackward = std::numeric_limits<Index>::max();

        Index fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
        fd_[fmid] = box.xoff;
        bd_[bmid] = box.xlim;

        for (std::size_t cost = 1;; ++cost) {
            // Diagonals outside [dmin, dmax] cannot reach the opposite corner; at the edge
            // the range shrinks by one instead, to keep every diagonal's cost parity.
            if (fmin > dmin)
                fd_[--fmin - 1] = kNoForward;
            else
                ++fmin;
            if (fmax < dmax)
                fd_[++fmax + 1] = kNoForward;
            else
                --fmax;
            for (Index d = fmax; d >= fmin; d -= 2) {
                const Index from_left = fd_[d - 1], from_above = fd_[d + 1];
                Index x = from_left >= from_above ? from_left + 1 : from_above;
                Index y = x - d;
                while (x < box.xlim && y < box.ylim && a_[x] == b_[y]) {
                    ++x;
                    ++y;
                }
                fd_[d] = x;
                if (odd && bmin <= d && d <= bmax && bd_[d] <= x) return clamp(box, d, x);
            }

            if (bmin > dmin)
                bd_[--bmin - 1] = kNoBackward;
            else
                ++bmin;
            if (bmax < dmax)
                bd_[++bmax + 1] = kNoBackward;
            else
                --bmax;
            for (Index d = bmax; d >= bmin; d -= 2) {
                const Index from_below = bd_[d - 1], from_right = bd_[d + 1];
                Index x = from_below < from_right ? from_below : from_right - 1;
                Index y = x - d;
                while (x > box.xoff && y > box.yoff && a_[x - 1] == b_[y - 1]) {
                    --x;
                    --y;
                }
                bd_[d] = x;
                if (!odd && fmin <= d && d <= fmax && x <= fd_[d]) return clamp(box, d, x);
            }

            if (cost >= max_cost_) {
                exact_ = false;
                if (adaptive_ && max_cost_ > kFloorCost)
                    max_cost_ = std::max(kFloorCost, max_cost_ / 2);
                return furthest(box, fmin, fmax, bmin, bmax);
            }
        }
    }

    // The point of diagonal d inside the box closest to x.
    static Point clamp(const Box& box, Index d, Index x) {
        const Index lo = std::max(box.xoff, box.yoff + d);
        const Index hi = std::min(box.xlim, box.ylim + d);
        x = std::clamp(x, lo, hi);
        return Point{x, x - d};
    }

    // The cap's fallback, as in GNU diff: split where either search got furthest from its
    // corner (in x + y), which keeps the lines it matched on the way together.
    Point furthest(const Box& box, Index fmin, Index fmax, Index bmin, Index bmax) const {
        const Index total = (box.xlim - box.xoff) + (box.ylim - box.yoff);
        Index best_progress = 0;
        Point best{box.xoff + 1, box.yoff}; // valid but poor; only if nothing moved at all
        for (Index d = fmin; d <= fmax; d += 2) {
            Point p = clamp(box, d, fd_[d]);
            Index progress = (p.x - box.xoff) + (p.y - box.yoff);
            if (progress > best_progress && progress < total) {
                best_progress = progress;
                best = p;
            }
        }
        for (Index d = bmin; d <= bmax; d += 2) {
            Point p = clamp(box, d, bd_[d]);
            Index progress = (box.xlim - p.x) + (box.ylim - p.y);
            if (progress > best_progress && progress < total) {
                best_progress = progress;
                best = p;
            }
        }
        return best;
    }

    const Id* a_;
    const Id* b_;
    Index n_, m_;
    std::size_t max_cost_;
    bool adaptive_;
    std::vector<char> changed_a_, changed_b_;
    std::unique_ptr<Index[]> forward_, backward_;
    Index* fd_ = nullptr;
    Index* bd_ = nullptr;
    bool exact_ = true;
};

} // namespace

LineDiff diff_lines(std::string_view a, std::string_view b, DiffOptions options) {
    return diff_lines(split_lines(a), split_lines(b), options);
}

LineDiff diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                    DiffOptions options) {
    LineDiff result;

    // Common ends cost nothing to find and are part of every minimal script; leaving them
    // out keeps the interning and the search down to the region that actually changed.
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;
    if (n == 0 && m == 0) return result;

    std::vector<char> changed_a(n, 1), changed_b(m, 1);
    if (n != 0 && m != 0) {
        if (n >= kNoId || m >= kNoId) throw std::length_error("diff_lines: too many lines");
        LineTable table(n);
        std::vector<Id> ids_a(n), ids_b(m);
        // ids_a holds each line's hash until the line's id replaces it.
        for (std::size_t i = 0; i < n; ++i)
            ids_a[i] = LineTable::hash_of(a[prefix + i]);
        constexpr std::size_t kAhead = 16;
        for (std::size_t i = 0; i < n; ++i) {
            if (i + kAhead < n) table.prefetch(ids_a[i + kAhead]);
            ids_a[i] = table.add(a[prefix + i], ids_a[i], i);
        }
        // Most lines of b sit right after the line of a matched before them, so trying that
        // line first skips the hash lookup (and its cache miss) for nearly all of b. After
        // a miss, a line that occurs once in a says where to continue.
        std::size_t guess = 0;
        for (std::size_t j = 0; j < m; ++j) {
            std::string_view line = b[prefix + j];
            Id id;
            if (guess < n && a[prefix + guess] == line) {
                id = ids_a[guess++];
            } else {
                id = table.find(line);
                if (id != kNoId && !table[id].repeated) guess = table[id].first + 1;
            }
            ids_b[j] = id;
            if (id != kNoId) table[id].in_b = true;
        }

        // A line with no copy on the other side is changed in every script, so dropping it
        // before the search loses nothing, and it is what makes unrelated files cheap: they
        // shrink to nothing instead of hitting the cost cap. The ids are compacted in
        // place; where_* remember the original positions.
        std::vector<std::uint32_t> where_a, where_b;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (table[ids_a[i]].in_b) {
                ids_a[kept++] = ids_a[i];
                where_a.push_back(static_cast<std::uint32_t>(i));
            }
        ids_a.resize(kept);
        kept = 0;
        for (std::size_t j = 0; j < m; ++j)
            if (ids_b[j] != kNoId) {
                ids_b[kept++] = ids_b[j];
                where_b.push_back(static_cast<std::uint32_t>(j));
            }
        ids_b.resize(kept);

        if (!ids_a.empty() && !ids_b.empty()) {
            const bool adaptive = options.max_cost == 0;
            Myers myers(ids_a, ids_b,
                        adaptive ? auto_max_cost(a.size(), b.size()) : options.max_cost, adaptive);
            result.exact = myers.run();
            for (std::size_t k = 0; k < ids_a.size(); ++k)
                changed_a[where_a[k]] = myers.changed_a()[k];
            for (std::size_t k = 0; k < ids_b.size(); ++k)
                changed_b[where_b[k]] = myers.changed_b()[k];
        }
    }

    // Unchanged lines of a and b pair up in order, so one walk over both finds each hunk
    // as the maximal run of changes between two paired lines.
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && !changed_a[i] && !changed_b[j]) {
            ++i;
            ++j;
            continue;
        }
        DiffHunk hunk{prefix + i, 0, prefix + j, 0};
        while (i < n && changed_a[i])
            ++i;
        while (j < m && changed_b[j])
            ++j;
        hunk.a_count = prefix + i - hunk.a_start;
        hunk.b_count = prefix + j - hunk.b_start;
        if (hunk.a_count == 0 && hunk.b_count == 0)
            throw std::logic_error("diff_lines: unpaired unchanged line"); // cannot happen
        result.removed += hunk.a_count;
        result.added += hunk.b_count;
        result.hunks.push_back(hunk);
    }
    return result;
}

} // namespace rio
