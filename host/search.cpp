#include "host/search.hpp"

#include "core/text_format.hpp"
#include "host/confine.hpp"
#include "host/files.hpp"
#include "host/gitignore.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <re2/re2.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <utility>

namespace rio {
namespace {

namespace fs = std::filesystem;
using LiveText = std::map<std::string, std::string, std::less<>>;

// What git and grep look at to call a file binary.
constexpr std::size_t binary_probe_bytes = 8192;
// Past a few threads a search is bound by the disk or the page cache, not by the CPU.
constexpr unsigned max_threads = 4;

struct Span {
    std::size_t begin, end;
};

// Literals go through memmem (glibc's is vectorised); everything else through RE2, which
// never backtracks.
class Matcher {
public:
    static Result<Matcher> make(const SearchQuery& query) {
        Matcher m;
        if (!query.regex && !query.ignore_case) {
            m.literal_ = query.pattern;
            return m;
        }
        RE2::Options options;
        options.set_log_errors(false);
        options.set_case_sensitive(!query.ignore_case);
        // Results are lines, so a match must not run into the next one; this also keeps the
        // scan linear, since no match can overlap the lines searched after it.
        options.set_never_nl(true);
        options.set_literal(!query.regex);
        // (?m): `^` and `$` match at line boundaries, which is what a line search means.
        std::string pattern = query.regex ? "(?m)" + query.pattern : query.pattern;
        m.re_ = std::make_unique<RE2>(pattern, options);
        if (!m.re_->ok()) {
            std::string arg = m.re_->error_arg();
            const std::string& full = m.re_->error();
            std::string what = full.substr(0, full.size() - std::min(full.size(), arg.size()));
            if (arg.starts_with("(?m)")) arg.erase(0, 4);
            return make_error(ErrorCode::bad_request,
                              std::string(query.regex ? "invalid regular expression: "
                                                      : "invalid search pattern: ") +
                                  what + arg);
        }
        return m;
    }

    // The first match that starts at or after `from`.
    std::optional<Span> find(std::string_view text, std::size_t from) const {
        if (!re_) {
            const void* hit =
                ::memmem(text.data() + from, text.size() - from, literal_.data(), literal_.size());
            if (!hit) return std::nullopt;
            auto begin = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
            return Span{begin, begin + literal_.size()};
        }
        re2::StringPiece match;
        if (!re_->Match(re2::StringPiece(text), from, text.size(), RE2::UNANCHORED, &match, 1))
            return std::nullopt;
        auto begin = static_cast<std::size_t>(match.data() - text.data());
        return Span{begin, begin + match.size()};
    }

private:
    std::string literal_;
    std::unique_ptr<RE2> re_;
};

// Minified code and data files have lines of megabytes; a window around the match is what
// tells the model anything. Half the spare room goes before the match.
std::string clip_line(std::string_view line, Span match, std::size_t max_bytes) {
    if (max_bytes == 0 || line.size() <= max_bytes) return to_valid_utf8(line);
    std::size_t end_of_match = std::min(match.end, line.size());
    std::size_t begin_of_match = std::min(match.begin, end_of_match);
    std::size_t length = end_of_match - begin_of_match;
    std::size_t begin = begin_of_match;
    if (length < max_bytes) begin -= std::min(begin, (max_bytes - length) / 2);
    std::size_t end = std::min(line.size(), begin + max_bytes);
    begin = std::min(begin, end - std::min(end, max_bytes));
    // Whole characters only; a UTF-8 sequence is at most 4 bytes, so 3 steps suffice (and
    // stop a run of stray continuation bytes from moving the window).
    for (int step = 0; step < 3 && !is_char_boundary(line, begin); ++step)
        ++begin;
    for (int step = 0; step < 3 && end > begin && !is_char_boundary(line, end); ++step)
        --end;
    std::string out;
    if (begin > 0) out += "…";
    out += to_valid_utf8(line.substr(begin, end - begin));
    if (end < line.size()) out += "…";
    return out;
}

// One match per line, at most `cap`, in line order.
void scan_text(std::string_view text, const Matcher& matcher, const std::string& rel,
               std::size_t cap, std::size_t max_line_bytes, std::vector<SearchMatch>& out) {
    std::size_t line_no = 1, from = 0;
    while (from < text.size() && out.size() < cap) {
        auto hit = matcher.find(text, from);
        if (!hit) break;
        line_no += static_cast<std::size_t>(
            std::count(text.begin() + static_cast<std::ptrdiff_t>(from),
                       text.begin() + static_cast<std::ptrdiff_t>(hit->begin), '\n'));
        std::size_t line_begin = from;
        if (const void* nl = ::memrchr(text.data() + from, '\n', hit->begin - from))
            line_begin = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
        std::size_t line_end = text.find('\n', hit->begin);
        if (line_end == std::string_view::npos) line_end = text.size();
        std::string_view line = text.substr(line_begin, line_end - line_begin);
        if (line.ends_with('\r')) line.remove_suffix(1);
        Span in_line{hit->begin - line_begin, hit->end - line_begin};
        out.push_back(SearchMatch{rel, line_no, clip_line(line, in_line, max_line_bytes)});
        from = line_end + 1;
        ++line_no;
    }
}

struct Candidate {
    std::string rel;
    std::string real;                  // absolute; empty for a buffer never saved
    const std::string* live = nullptr; // the editor's unsaved text, searched instead
};

struct DirEntryType {
    std::string name;
    unsigned char type; // DT_REG, DT_DIR, DT_LNK, ...
};

// readdir rather than std::filesystem: the walk was a third path objects (measured), and
// d_type spares a stat per entry on the usual filesystems.
std::vector<DirEntryType> list_entries(const std::string& dir) {
    std::vector<DirEntryType> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out; // unreadable: nothing to search there
    while (const dirent* e = ::readdir(d)) {
        std::string_view name = e->d_name;
        if (name == "." || name == "..") continue;
        unsigned char type = e->d_type;
        struct stat st {};
        if (type == DT_UNKNOWN && ::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            type = S_ISDIR(st.st_mode)   ? DT_DIR
                   : S_ISREG(st.st_mode) ? DT_REG
                   : S_ISLNK(st.st_mode) ? DT_LNK
                                         : DT_UNKNOWN;
        out.push_back(DirEntryType{std::string(name), type});
    }
    ::closedir(d);
    return out;
}

// The glob filter, plus the folders worth entering: "src/**/*.h" can only match below src/.
struct PathFilter {
    std::optional<Glob> glob;
    bool basename_only = false;
    std::string fixed_dirs; // leading folders without wildcards, with a trailing '/'

    static PathFilter make(std::string_view pattern) {
        PathFilter f;
        while (pattern.starts_with("./"))
            pattern.remove_prefix(2);
        if (pattern.starts_with('/')) pattern.remove_prefix(1);
        if (pattern.empty()) return f;
        f.basename_only = pattern.find('/') == std::string_view::npos;
        f.glob = compile_glob(pattern);
        if (!f.basename_only) {
            std::size_t wild = pattern.find_first_of("*?[\\");
            std::size_t last_slash = pattern.substr(0, wild).rfind('/');
            if (last_slash != std::string_view::npos)
                f.fixed_dirs = std::string(pattern.substr(0, last_slash + 1));
        }
        return f;
    }

    bool accepts(std::string_view rel) const {
        if (!glob) return true;
        if (!basename_only) return glob_match(*glob, rel);
        std::size_t slash = rel.rfind('/');
        return glob_match(*glob, slash == std::string_view::npos ? rel : rel.substr(slash + 1));
    }

    bool may_enter(std::string_view dir_rel) const {
        if (fixed_dirs.empty()) return true;
        std::string dir = std::string(dir_rel) + "/";
        return dir.starts_with(fixed_dirs) || std::string_view(fixed_dirs).starts_with(dir);
    }
};

// Collects the files to search. Symlinked folders are not entered (no loops, no way out of
// the project); a symlinked file counts only when it resolves inside the root.
struct Walker {
    const fs::path& root;
    const LiveText& live;
    const PathFilter& filter;
    IgnoreRules rules;
    std::vector<Candidate> files;

    void add(std::string rel, std::string real) {
        if (!filter.accepts(rel)) return;
        auto it = live.find(rel);
        files.push_back(
            Candidate{std::move(rel), std::move(real), it == live.end() ? nullptr : &it->second});
    }

    void walk(const std::string& dir, const std::string& rel) {
        std::vector<DirEntryType> entries = list_entries(dir);
        const std::size_t inherited = rules.patterns.size();
        for (const auto& e : entries)
            if (e.name == ".gitignore") add_gitignore(rel);

        for (const auto& e : entries) {
            std::string r = rel.empty() ? e.name : rel + "/" + e.name;
            std::string full = dir + "/" + e.name;
            struct stat st {};
            if (e.type == DT_LNK) {
                if (::stat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
                    rules.ignored_entry(r, false))
                    continue;
                if (auto inside = confine(root, r)) add(std::move(r), inside->real.string());
            } else if (e.type == DT_DIR) {
                if (!rules.ignored_entry(r, true) && filter.may_enter(r)) walk(full, r);
            } else if (e.type == DT_REG) {
                if (!rules.ignored_entry(r, false)) add(std::move(r), std::move(full));
            }
        }
        if (!live.empty()) add_unsaved_buffers(rel, entries);
        rules.patterns.erase(rules.patterns.begin() + static_cast<std::ptrdiff_t>(inherited),
                             rules.patterns.end());
    }

    // Open buffers in this folder that have no file on disk yet.
    void add_unsaved_buffers(const std::string& rel, const std::vector<DirEntryType>& entries) {
        std::vector<std::string> names;
        names.reserve(entries.size());
        for (const auto& e : entries)
            names.push_back(e.name);
        std::sort(names.begin(), names.end());
        std::string prefix = rel.empty() ? "" : rel + "/";
        for (auto it = live.lower_bound(prefix); it != live.end(); ++it) {
            std::string_view key = it->first;
            if (!key.starts_with(prefix)) break;
            std::string_view name = key.substr(prefix.size());
            if (name.empty() || name.find('/') != std::string_view::npos) continue;
            if (std::binary_search(names.begin(), names.end(), name)) continue;
            if (!rules.ignored_entry(key, false)) add(std::string(key), std::string());
        }
    }

    // The patterns of every folder from the root down to `rel` (exclusive: walk() reads
    // that one), so a search scoped to a subfolder honours the same rules as one from the top.
    void load_ancestor_rules(std::string_view rel) {
        rules.add_file(root / ".git/info/exclude", "");
        if (rel.empty()) return;
        add_gitignore("");
        for (std::size_t slash = rel.find('/'); slash != std::string_view::npos;
             slash = rel.find('/', slash + 1))
            add_gitignore(std::string(rel.substr(0, slash)));
    }

    // A symlinked .gitignore is read only when it resolves inside the project.
    void add_gitignore(const std::string& dir_rel) {
        std::string rel = dir_rel.empty() ? ".gitignore" : dir_rel + "/.gitignore";
        std::error_code ec;
        fs::path file = root / rel;
        auto status = fs::symlink_status(file, ec);
        if (fs::is_regular_file(status)) {
            rules.add_file(file, dir_rel);
        } else if (fs::is_symlink(status)) {
            if (auto inside = confine(root, rel)) rules.add_file(inside->real, dir_rel);
        }
    }
};

struct FileOutcome {
    std::vector<SearchMatch> matches;
    bool searched = false; // else skipped
};

// Scans candidates (sorted by path) in parallel and merges in that order, so the result is
// the same whatever the threads did. Once the finished files before some index hold more
// than max_matches, nothing from that index on can be shown: the workers stop there and
// drop what they found beyond it, which also bounds the memory held.
class Scan {
public:
    Scan(const std::vector<Candidate>& files, const Matcher& matcher, const SearchQuery& query)
        : files_(files), matcher_(matcher), query_(query), outcomes_(files.size()),
          done_(files.size(), false), bound_(files.size()) {}

    SearchResult run() {
        unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
        std::size_t threads = std::min<std::size_t>({max_threads, hardware, files_.size()});
        std::vector<std::thread> helpers;
        for (std::size_t t = 1; t < threads; ++t) {
            try {
                helpers.emplace_back([this] { work(); });
            } catch (const std::system_error&) {
                break; // fewer threads, same result
            }
        }
        work();
        for (auto& t : helpers)
            t.join();

        // Every file before the bound is done. Counting stops at the first file that takes the
        // total past max_matches, which depends on the files alone, not on timing.
        SearchResult result;
        for (std::size_t i = 0; i < bound_.load(); ++i) {
            FileOutcome& o = outcomes_[i];
            (o.searched ? result.files_searched : result.files_skipped) += 1;
            for (auto& m : o.matches)
                result.matches.push_back(std::move(m));
            if (result.matches.size() > query_.max_matches) break;
        }
        if (result.matches.size() > query_.max_matches) {
            result.truncated = true;
            result.matches.resize(query_.max_matches);
        }
        return result;
    }

private:
    void work() {
        // Indices only grow and the bound only shrinks, so the first file past it ends the loop.
        for (;;) {
            std::size_t i = next_.fetch_add(1);
            if (i >= bound_.load()) return;
            scan_one(files_[i], outcomes_[i]);
            finish(i);
        }
    }

    void scan_one(const Candidate& file, FileOutcome& out) {
        // One more than shown tells "truncated"; saturating, for a caller that passes SIZE_MAX.
        const std::size_t cap = std::max(query_.max_matches, query_.max_matches + 1);
        if (file.live) {
            out.searched = true;
            scan_text(*file.live, matcher_, file.rel, cap, query_.max_line_bytes, out.matches);
            return;
        }
        auto bytes = read_file(file.real, file.rel);
        if (!bytes) return; // too large, vanished or unreadable
        std::string_view text = *bytes;
        if (std::memchr(text.data(), '\0', std::min(text.size(), binary_probe_bytes))) return;
        out.searched = true;
        scan_text(text, matcher_, file.rel, cap, query_.max_line_bytes, out.matches);
    }

    // The rescan below runs only once more than max_matches are held, and after it only the
    // files then in flight can land before the bound, so it runs a few times per search.
    void finish(std::size_t i) {
        std::lock_guard lock(mutex_);
        done_[i] = true;
        const std::size_t bound = bound_.load();
        if (i >= bound) {
            outcomes_[i].matches = {};
            return;
        }
        held_ += outcomes_[i].matches.size();
        if (held_ <= query_.max_matches) return;
        std::size_t sum = 0, j = 0;
        for (; j < bound && sum <= query_.max_matches; ++j)
            if (done_[j]) sum += outcomes_[j].matches.size();
        for (std::size_t k = j; k < bound; ++k)
            if (done_[k]) outcomes_[k].matches = {};
        held_ = sum;
        bound_.store(j);
    }

    const std::vector<Candidate>& files_;
    const Matcher& matcher_;
    const SearchQuery& query_;
    std::vector<FileOutcome> outcomes_; // each written by the one worker that took its index
    std::vector<bool> done_;            // guarded by mutex_
    std::size_t held_ = 0;              // matches in done files before the bound; mutex_
    std::mutex mutex_;
    std::atomic<std::size_t> next_{0};
    std::atomic<std::size_t> bound_;
};

bool looks_like_regex(std::string_view p) {
    for (std::string_view token : {".*", ".+", "\\", "|", "[", "(?"})
        if (p.find(token) != std::string_view::npos) return true;
    return p.starts_with('^') || p.ends_with('$');
}

} // namespace

Result<SearchResult> search_project(const fs::path& root, const SearchQuery& query,
                                    const LiveText& live_text) {
    if (query.pattern.empty()) return make_error(ErrorCode::bad_request, "empty search pattern");
    if (query.pattern.find('\n') != std::string::npos)
        return make_error(ErrorCode::bad_request,
                          "the pattern contains a line break; search matches within one line");
    auto matcher = Matcher::make(query);
    if (!matcher) return matcher.error();
    auto scope = confine(root, query.path);
    if (!scope) return scope.error();
    std::string rel = scope->rel == "." ? "" : scope->rel;

    PathFilter filter = PathFilter::make(query.glob);
    Walker walker{root, live_text, filter, {}, {}};
    struct stat st {};
    if (::stat(scope->real.c_str(), &st) != 0) {
        int err = errno;
        // A buffer that was never saved has no file yet but can still be searched.
        auto it = live_text.find(rel);
        if (it == live_text.end()) return errno_error(err, "search", scope->rel);
        walker.files.push_back(Candidate{rel, std::string(), &it->second});
    } else if (S_ISDIR(st.st_mode)) {
        walker.load_ancestor_rules(rel);
        walker.walk(scope->real.string(), rel);
    } else if (S_ISREG(st.st_mode)) {
        // Named explicitly: searched whatever .gitignore and the glob say.
        auto it = live_text.find(rel);
        walker.files.push_back(
            Candidate{rel, scope->real.string(), it == live_text.end() ? nullptr : &it->second});
    } else {
        return make_error(ErrorCode::bad_request, scope->rel + " is neither a file nor a folder");
    }

    std::sort(walker.files.begin(), walker.files.end(),
              [](const Candidate& a, const Candidate& b) { return a.rel < b.rel; });
    return Scan(walker.files, *matcher, query).run();
}

std::string format_search_result(const SearchQuery& query, const SearchResult& result) {
    std::string out;
    std::size_t files_with_matches = 0;
    for (std::size_t i = 0; i < result.matches.size(); ++i) {
        const SearchMatch& m = result.matches[i];
        if (i == 0 || m.path != result.matches[i - 1].path) ++files_with_matches;
        out += m.path + ":" + std::to_string(m.line) + ": " + m.text + "\n";
    }
    auto plural = [](std::size_t n, std::string_view one, std::string_view many) {
        return std::to_string(n) + " " + std::string(n == 1 ? one : many);
    };
    std::string skipped; // "N binary or oversized files skipped", or nothing
    if (result.files_skipped > 0)
        skipped =
            plural(result.files_skipped, "binary or oversized file", "binary or oversized files") +
            " skipped";

    if (result.truncated) {
        out += "(" + plural(result.matches.size(), "match", "matches") +
               " shown; more exist — narrow the pattern or the path)";
    } else if (!result.matches.empty()) {
        out += "(" + plural(result.matches.size(), "match", "matches") + " in " +
               plural(files_with_matches, "file", "files") + "; " +
               plural(result.files_searched, "file", "files") + " searched" +
               (skipped.empty() ? "" : "; " + skipped) + ")";
    } else {
        out += "No matches for ";
        out += query.regex ? "regex /" + query.pattern + "/" : "\"" + query.pattern + "\"";
        if (query.ignore_case) out += " (ignoring case)";
        out += " in " + plural(result.files_searched, "file", "files");
        if (query.path != "." && !query.path.empty()) out += " under " + query.path;
        if (!query.glob.empty()) out += " matching " + query.glob;
        out += skipped.empty() ? "." : " (" + skipped + ").";
        if (!query.regex && looks_like_regex(query.pattern))
            out += " The pattern was searched literally; set regex for a regular expression.";
        if (query.regex && query.pattern.find("\\n") != std::string::npos)
            out += " A match cannot span lines.";
        if (result.files_searched == 0 && !query.glob.empty()) out += " The glob matched no files.";
    }
    return out;
}

} // namespace rio
