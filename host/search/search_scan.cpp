#include "host/search/search_scan.hpp"

#include "core/text_format.hpp"
#include "host/search/file_slurper.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <limits>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

namespace rio {
namespace {

// ripgrep's default cap; measured only on 2 cores, where every core helps.
constexpr unsigned max_threads = 12;
// Files listed per turn at the walk, and the queue below which a thread walks again
// rather than match: enough for the others to keep busy meanwhile.
constexpr std::size_t walk_batch = 256;
constexpr std::size_t refill_below = 128;
// Files a thread takes at once: fewer turns at the lock.
constexpr std::size_t take_batch = 8;

// A line as shown: the line itself when it is short and valid UTF-8 (most are), else a
// window of it made valid, held in `made`. Filled in place: `text` may view `made`.
struct ClippedLine {
    std::string made;
    std::string_view text;
    std::size_t start = 0, end = 0; // the match within `text`
};

// Minified code and data files have lines of megabytes; a window around the match is what
// tells the model anything. Half the spare room goes before the match. The match is
// converted on its own so that where it lies in the text is known exactly.
void clip_line(std::string_view line, Span match, std::size_t max_bytes, ClippedLine& out) {
    std::size_t end_of_match = std::min(match.end, line.size());
    std::size_t begin_of_match = std::min(match.begin, end_of_match);
    std::size_t begin = 0, end = line.size();
    if (max_bytes != 0 && line.size() > max_bytes) {
        std::size_t length = end_of_match - begin_of_match;
        begin = begin_of_match;
        if (length < max_bytes) begin -= std::min(begin, (max_bytes - length) / 2);
        end = std::min(line.size(), begin + max_bytes);
        begin = std::min(begin, end - std::min(end, max_bytes));
        // Whole characters only; a UTF-8 sequence is at most 4 bytes, so 3 steps suffice
        // (and stop a run of stray continuation bytes from moving the window).
        for (int step = 0; step < 3 && !is_char_boundary(line, begin); ++step)
            ++begin;
        for (int step = 0; step < 3 && end > begin && !is_char_boundary(line, end); ++step)
            --end;
    }
    const std::size_t shown_begin = std::clamp(begin_of_match, begin, end);
    const std::size_t shown_end = std::clamp(end_of_match, shown_begin, end);
    if (begin == 0 && end == line.size() && !find_invalid_utf8(line)) {
        out.text = line;
        out.start = shown_begin;
        out.end = shown_end;
        return;
    }
    std::string& made = out.made;
    made.clear();
    if (begin > 0) made += "…";
    made += to_valid_utf8(line.substr(begin, shown_begin - begin));
    out.start = made.size();
    made += to_valid_utf8(line.substr(shown_begin, shown_end - shown_begin));
    out.end = made.size();
    made += to_valid_utf8(line.substr(shown_end, end - shown_end));
    if (end < line.size()) made += "…";
    out.text = made;
}

// Line breaks in [p, end), eight bytes at a time: std::count went a byte at a time, about
// an eighth of a search with 100,000 matches. A byte of `x` is zero where the text has '\n';
// the high bit of each lane of `found` says so exactly (no carry crosses lanes: 0x7f + 0x7f
// stays below 0x100).
std::size_t count_newlines(const char* p, const char* end) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, lows = 0x7f7f7f7f7f7f7f7full;
    std::size_t n = 0;
    for (; end - p >= 8; p += 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        const std::uint64_t x = w ^ (ones * '\n');
        const std::uint64_t found = ~(((x & lows) + lows) | x | lows);
        n += static_cast<std::size_t>(__builtin_popcountll(found));
    }
    for (; p < end; ++p)
        n += *p == '\n';
    return n;
}

// One match per line, at most `cap`, in line order, each handed to `found` (a MatchView).
template <typename Found>
void scan_text(std::string_view text, const Matcher& matcher, const SearchFile& file,
               std::size_t cap, std::size_t max_line_bytes, Found&& found) {
    std::size_t line_no = 1, from = 0, count = 0;
    std::string rel; // built at the first match: most files have none
    ClippedLine shown;
    while (from < text.size() && count < cap) {
        auto hit = matcher.find(text, from);
        if (!hit) break;
        line_no += count_newlines(text.data() + from, text.data() + hit->begin);
        std::size_t line_begin = from;
        if (const void* nl = ::memrchr(text.data() + from, '\n', hit->begin - from))
            line_begin = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
        std::size_t line_end = text.find('\n', hit->begin);
        if (line_end == std::string_view::npos) line_end = text.size();
        std::string_view line = text.substr(line_begin, line_end - line_begin);
        if (line.ends_with('\r')) line.remove_suffix(1);
        Span in_line{hit->begin - line_begin, hit->end - line_begin};
        if (rel.empty()) rel = file.rel();
        in_line.end = std::min(in_line.end, line.size()); // a '\r' matched is not shown
        in_line.begin = std::min(in_line.begin, in_line.end);
        clip_line(line, in_line, max_line_bytes, shown);
        found(MatchView{rel, line_no, shown.text, in_line.begin, in_line.end - in_line.begin,
                        shown.start, shown.end});
        ++count;
        from = line_end + 1;
        ++line_no;
    }
}

// Files are numbered in path order as the walk lists them. Once the finished files before
// some number hold more than max_matches, nothing from that number on can be shown: the
// threads stop there (the walk too) and drop what they found beyond it, which also bounds
// the memory held. Counting stops at the first file that takes the total past max_matches,
// which depends on the files alone, not on timing.
class Scan {
public:
    Scan(const NextFiles& next, const Matcher& matcher, const SearchQuery& query)
        : next_files_(next), matcher_(matcher), query_(query) {}

    SearchResult run() {
        unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
        unsigned threads = std::min(max_threads, hardware);
        std::vector<std::thread> helpers;
        for (unsigned t = 1; t < threads; ++t) {
            try {
                helpers.emplace_back([this] { work(); });
            } catch (const std::system_error&) {
                break; // fewer threads, same result
            }
        }
        work();
        for (auto& t : helpers)
            t.join();

        SearchResult result;
        const std::size_t end = std::min(bound_.load(), slots_.size());
        std::size_t total = 0;
        for (std::size_t i = 0; i < end; ++i) {
            Slot& slot = slots_[i];
            (slot.searched ? result.files_searched : result.files_skipped) += 1;
            // The first file past max_matches gives as many as are left, and says "truncated".
            const std::size_t keep = std::min(slot.count, query_.max_matches - total);
            result.truncated = keep < slot.count;
            total += keep;
            if (keep > 0 && !slot.rendered.empty()) {
                // Moved, not copied: 100,000 matches are megabytes (decision 0067).
                slot.rendered.resize(slot.ends[keep - 1]);
                result.rendered.push_back(
                    RenderedMatches{std::move(slot.path), std::move(slot.rendered)});
            }
            slot.matches.resize(std::min(slot.matches.size(), keep));
            for (auto& m : slot.matches)
                result.matches.push_back(std::move(m));
            if (result.truncated) break;
        }
        return result;
    }

private:
    struct Slot {
        SearchFile file;
        std::size_t count = 0;            // matches found
        std::vector<SearchMatch> matches; // without SearchQuery::render
        std::string rendered;             // with it: each match, joined by ','
        std::vector<std::size_t> ends;    // where each one ends in `rendered`
        std::string path;                 // with it: project-relative (`file` loses its folder)
        bool searched = false;            // else skipped
    };

    void found(Slot& slot, const MatchView& m) {
        ++slot.count;
        if (!query_.render) {
            slot.matches.push_back(SearchMatch{std::string(m.path), m.line, std::string(m.text),
                                               m.column, m.length, m.start, m.end});
            return;
        }
        if (slot.rendered.empty())
            slot.path = m.path;
        else
            slot.rendered += ',';
        query_.render(slot.rendered, m);
        slot.ends.push_back(slot.rendered.size());
    }

    void work() {
        FileSlurper slurper;
        std::vector<Slot*> batch;
        std::size_t first = 0;
        while (take(batch, first)) {
            for (std::size_t k = 0; k < batch.size(); ++k) {
                if (first + k >= bound_.load()) break;
                Slot& slot = *batch[k];
                scan_one(slot, slurper);
                slot.file.dir.reset(); // closes its folder once its last file is read
                if (slot.count > 0) finish(first + k, slot);
            }
        }
    }

    // The next few files, numbered from `first`; false when none are left to take. The
    // thread that finds the queue short continues the walk itself, so no thread is kept
    // for it and the walk overlaps the matching on any number of cores.
    bool take(std::vector<Slot*>& batch, std::size_t& first) {
        batch.clear();
        std::unique_lock lock(mutex_);
        for (;;) {
            const std::size_t bound = bound_.load();
            if (taken_ >= bound) return false;
            const std::size_t pending = slots_.size() - taken_;
            if (!walking_ && !walked_ && pending < refill_below) {
                walking_ = true;
                lock.unlock();
                listed_.clear();
                bool more = next_files_(listed_, walk_batch);
                lock.lock();
                for (SearchFile& f : listed_)
                    slots_.push_back(Slot{std::move(f), 0, {}, {}, {}, {}, false});
                walking_ = false;
                walked_ = !more;
                cv_.notify_all();
                continue;
            }
            if (pending > 0) {
                std::size_t n = std::min({pending, take_batch, bound - taken_});
                first = taken_;
                for (std::size_t k = 0; k < n; ++k)
                    batch.push_back(&slots_[taken_ + k]);
                taken_ += n;
                return true;
            }
            if (walked_) return false;
            cv_.wait(lock); // another thread is walking
        }
    }

    void scan_one(Slot& slot, FileSlurper& slurper) {
        // One more than shown tells "truncated"; saturating, for a caller that passes SIZE_MAX.
        const std::size_t cap = std::max(query_.max_matches, query_.max_matches + 1);
        const SearchFile& file = slot.file;
        auto add = [this, &slot](const MatchView& m) { found(slot, m); };
        if (file.live) {
            slot.searched = true;
            scan_text(*file.live, matcher_, file, cap, query_.max_line_bytes, add);
            return;
        }
        auto text = file.target.empty() ? slurper.read(file.dir->fd(), file.name.c_str())
                                        : slurper.read(AT_FDCWD, file.target.c_str());
        if (!text) return; // too large, vanished or unreadable
        // The binary rule fs.read follows too: a NUL byte anywhere (docs/protocol.md).
        if (std::memchr(text->data(), '\0', text->size())) return;
        slot.searched = true;
        scan_text(*text, matcher_, file, cap, query_.max_line_bytes, add);
    }

    // Only files with matches come here. The rescan runs only once more than max_matches
    // are held, and after it only the files then in flight can land before the bound, so it
    // runs a few times per search.
    void finish(std::size_t i, Slot& slot) {
        std::lock_guard lock(mutex_);
        const std::size_t bound = bound_.load();
        if (i >= bound) {
            drop(slot);
            return;
        }
        held_ += slot.count;
        counts_[i] = slot.count;
        if (held_ <= query_.max_matches) return;
        std::size_t sum = 0, new_bound = bound;
        for (auto it = counts_.begin(); it != counts_.end(); ++it) {
            sum += it->second;
            if (sum > query_.max_matches) {
                new_bound = it->first + 1;
                for (auto later = std::next(it); later != counts_.end(); ++later)
                    drop(slots_[later->first]);
                counts_.erase(std::next(it), counts_.end());
                break;
            }
        }
        held_ = sum;
        bound_.store(new_bound);
    }

    static void drop(Slot& slot) {
        slot.count = 0;
        slot.matches = {};
        slot.rendered = {};
        slot.ends = {};
    }

    const NextFiles& next_files_;
    const Matcher& matcher_;
    const SearchQuery& query_;
    std::mutex mutex_;
    std::condition_variable cv_;
    // Appended under mutex_; a slot's contents then belong to the thread that took it (a
    // deque keeps elements in place as it grows).
    std::deque<Slot> slots_;
    std::size_t taken_ = 0;                     // slots handed out; mutex_
    bool walking_ = false;                      // a thread is in next_files_; mutex_
    bool walked_ = false;                       // next_files_ said there are no more; mutex_
    std::vector<SearchFile> listed_;            // the walking thread's
    std::map<std::size_t, std::size_t> counts_; // matches of finished files before the bound
    std::size_t held_ = 0;                      // their sum; mutex_
    std::atomic<std::size_t> bound_{std::numeric_limits<std::size_t>::max()};
};

} // namespace

SearchResult scan_files(const NextFiles& next, const Matcher& matcher, const SearchQuery& query) {
    return Scan(next, matcher, query).run();
}

} // namespace rio
