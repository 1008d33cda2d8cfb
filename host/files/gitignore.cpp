#include "host/files/gitignore.hpp"

#include "host/files/files.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <optional>

namespace rio {
namespace {

using Kind = GlobToken::Kind;

bool named_class_has(std::string_view name, unsigned char c) {
    if (name == "alnum") return std::isalnum(c);
    if (name == "alpha") return std::isalpha(c);
    if (name == "blank") return c == ' ' || c == '\t';
    if (name == "cntrl") return std::iscntrl(c);
    if (name == "digit") return std::isdigit(c);
    if (name == "graph") return std::isgraph(c);
    if (name == "lower") return std::islower(c);
    if (name == "print") return std::isprint(c);
    if (name == "punct") return std::ispunct(c);
    if (name == "space") return std::isspace(c);
    if (name == "upper") return std::isupper(c);
    if (name == "xdigit") return std::isxdigit(c);
    return false;
}

// Parses the class whose '[' is at `p[open]`, following wildmatch: a ']' right after the
// opening (or after '!'/'^') is a member, '\' escapes, `a-z` ranges, `[:name:]` sets.
// Returns the index just past the closing ']', or nullopt when there is none.
std::optional<std::size_t> parse_class(std::string_view p, std::size_t open,
                                       std::bitset<256>& set) {
    std::size_t i = open + 1;
    bool negated = i < p.size() && (p[i] == '!' || p[i] == '^');
    if (negated) ++i;
    int prev = -1; // the last single member, which a following '-' turns into a range start
    bool first = true;
    for (; i < p.size(); ++i) {
        auto c = static_cast<unsigned char>(p[i]);
        if (c == ']' && !first) {
            if (negated) set.flip();
            return i + 1;
        }
        first = false;
        if (c == '\\') {
            if (++i == p.size()) return std::nullopt;
            c = static_cast<unsigned char>(p[i]);
            set.set(c);
            prev = c;
        } else if (c == '-' && prev >= 0 && i + 1 < p.size() && p[i + 1] != ']') {
            auto hi = static_cast<unsigned char>(p[++i]);
            if (hi == '\\') {
                if (++i == p.size()) return std::nullopt;
                hi = static_cast<unsigned char>(p[i]);
            }
            for (int b = prev; b <= hi; ++b)
                set.set(static_cast<std::size_t>(b));
            prev = -1;
        } else if (c == '[' && i + 1 < p.size() && p[i + 1] == ':' &&
                   p.find(":]", i + 2) != std::string_view::npos) {
            std::size_t end = p.find(":]", i + 2);
            std::string_view name = p.substr(i + 2, end - i - 2);
            for (int b = 0; b < 256; ++b)
                if (named_class_has(name, static_cast<unsigned char>(b)))
                    set.set(static_cast<std::size_t>(b));
            i = end + 1;
            prev = -1;
        } else {
            set.set(c);
            prev = c;
        }
    }
    return std::nullopt;
}

// NFA positions 0..tokens.size() as bits. Two sets fit in a stack buffer for globs of up
// to 255 tokens; longer ones (only written by hand, rarely) take the heap.
class PositionSets {
public:
    explicit PositionSets(std::size_t positions) : words_((positions + 63) / 64) {
        if (2 * words_ <= small_.size()) {
            cur_ = small_.data();
        } else {
            large_.assign(2 * words_, 0);
            cur_ = large_.data();
        }
        next_ = cur_ + words_;
    }
    PositionSets(const PositionSets&) = delete;
    PositionSets& operator=(const PositionSets&) = delete;

    std::uint64_t* cur() { return cur_; }
    std::uint64_t* next() { return next_; }
    std::size_t words() const { return words_; }
    void advance() {
        std::swap(cur_, next_);
        std::fill(next_, next_ + words_, 0);
    }

private:
    std::array<std::uint64_t, 8> small_{};
    std::vector<std::uint64_t> large_;
    std::size_t words_;
    std::uint64_t* cur_;
    std::uint64_t* next_;
};

void set_bit(std::uint64_t* s, std::size_t i) {
    s[i / 64] |= std::uint64_t{1} << (i % 64);
}
bool test_bit(const std::uint64_t* s, std::size_t i) {
    return (s[i / 64] >> (i % 64)) & 1;
}

// Adds the positions reachable without consuming a byte: past every token that may match
// nothing. Ascending order lets one pass follow a chain of such tokens.
void close_over_empty(const std::vector<GlobToken>& tokens, std::uint64_t* s) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!test_bit(s, i)) continue;
        Kind k = tokens[i].kind;
        if (k == Kind::star || k == Kind::any_path) set_bit(s, i + 1);
        if (k == Kind::any_dirs) set_bit(s, i + 2);
    }
}

bool run_nfa(const Glob& glob, std::string_view subject) {
    const auto& tokens = glob.tokens;
    const std::size_t n = tokens.size();
    PositionSets sets(n + 1);
    set_bit(sets.cur(), 0);
    close_over_empty(tokens, sets.cur());
    for (char ch : subject) {
        auto c = static_cast<unsigned char>(ch);
        const std::uint64_t* cur = sets.cur();
        std::uint64_t* next = sets.next();
        for (std::size_t w = 0; w < sets.words(); ++w) {
            for (std::uint64_t bits = cur[w]; bits; bits &= bits - 1) {
                std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                if (i == n) continue;
                const GlobToken& t = tokens[i];
                switch (t.kind) {
                case Kind::byte:
                    if (c == t.byte) set_bit(next, i + 1);
                    break;
                case Kind::any_byte:
                    if (c != '/') set_bit(next, i + 1);
                    break;
                case Kind::byte_class:
                    if (c != '/' && glob.classes[t.class_index].test(c)) set_bit(next, i + 1);
                    break;
                case Kind::star:
                    if (c != '/') set_bit(next, i);
                    break;
                case Kind::any_path:
                    set_bit(next, i);
                    break;
                case Kind::any_dirs:
                    set_bit(next, c == '/' ? i : i + 1);
                    break;
                case Kind::in_dir:
                    set_bit(next, c == '/' ? i - 1 : i);
                    break;
                }
            }
        }
        if (std::all_of(next, next + sets.words(), [](std::uint64_t w) { return w == 0; }))
            return false;
        close_over_empty(tokens, next);
        sets.advance();
    }
    return test_bit(sets.cur(), n);
}

// git's trim_trailing_spaces: a space escaped by '\' stays.
std::string_view trim_trailing_spaces(std::string_view line) {
    std::size_t last_space = std::string_view::npos; // start of the current run of spaces
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == ' ') {
            if (last_space == std::string_view::npos) last_space = i;
        } else if (line[i] == '\\') {
            if (++i == line.size()) return line;
            last_space = std::string_view::npos;
        } else {
            last_space = std::string_view::npos;
        }
    }
    return line.substr(0, last_space);
}

std::string_view basename_of(std::string_view rel) {
    std::size_t slash = rel.rfind('/');
    return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

} // namespace

Glob compile_glob(std::string_view p) {
    Glob g;
    auto push = [&](Kind kind, unsigned char byte = 0) {
        g.tokens.push_back(GlobToken{kind, byte, 0});
    };
    for (std::size_t i = 0; i < p.size();) {
        char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            push(Kind::byte, static_cast<unsigned char>(p[i + 1]));
            i += 2;
        } else if (c == '?') {
            push(Kind::any_byte);
            ++i;
        } else if (c == '[') {
            std::bitset<256> set;
            if (auto end = parse_class(p, i, set)) {
                g.tokens.push_back(
                    GlobToken{Kind::byte_class, 0, static_cast<std::uint32_t>(g.classes.size())});
                g.classes.push_back(set);
                i = *end;
            } else {
                push(Kind::byte, '[');
                ++i;
            }
        } else if (c == '*') {
            std::size_t j = i;
            while (j < p.size() && p[j] == '*')
                ++j;
            bool own_segment =
                j - i >= 2 && (i == 0 || p[i - 1] == '/') && (j == p.size() || p[j] == '/');
            if (own_segment && j == p.size()) {
                push(Kind::any_path);
                i = j;
            } else if (own_segment) {
                push(Kind::any_dirs);
                push(Kind::in_dir);
                i = j + 1; // the '/' belongs to the token: `**/` also matches nothing at all
            } else {
                if (g.tokens.empty() || g.tokens.back().kind != Kind::star) push(Kind::star);
                i = j;
            }
        } else {
            push(Kind::byte, static_cast<unsigned char>(c));
            ++i;
        }
    }

    auto is_byte = [](const GlobToken& t) { return t.kind == Kind::byte; };
    if (std::all_of(g.tokens.begin(), g.tokens.end(), is_byte)) {
        g.shape = Glob::Shape::literal;
    } else if (g.tokens.front().kind == Kind::star &&
               std::all_of(g.tokens.begin() + 1, g.tokens.end(), is_byte)) {
        g.shape = Glob::Shape::suffix;
    }
    if (g.shape != Glob::Shape::general) {
        for (const GlobToken& t : g.tokens)
            if (t.kind == Kind::byte) g.fixed.push_back(static_cast<char>(t.byte));
        return g;
    }
    std::string run;
    for (const GlobToken& t : g.tokens) {
        if (t.kind == Kind::byte) {
            run.push_back(static_cast<char>(t.byte));
        } else {
            if (run.size() > g.required.size()) g.required = run;
            run.clear();
        }
    }
    if (run.size() > g.required.size()) g.required = run;
    return g;
}

bool glob_match(const Glob& glob, std::string_view subject) {
    switch (glob.shape) {
    case Glob::Shape::literal:
        return subject == glob.fixed;
    case Glob::Shape::suffix:
        return subject.size() >= glob.fixed.size() && subject.ends_with(glob.fixed) &&
               subject.substr(0, subject.size() - glob.fixed.size()).find('/') ==
                   std::string_view::npos;
    case Glob::Shape::general:
        break;
    }
    if (subject.find(glob.required) == std::string_view::npos) return false;
    return run_nfa(glob, subject);
}

std::vector<IgnorePattern> parse_gitignore(std::string_view text, std::string_view base) {
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (text.starts_with(bom)) text.remove_prefix(bom.size());
    std::vector<IgnorePattern> out;
    while (!text.empty()) {
        std::size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        line = trim_trailing_spaces(line);

        IgnorePattern pat;
        pat.base = std::string(base);
        if (line.starts_with('!')) {
            pat.negated = true;
            line.remove_prefix(1);
        }
        if (line.ends_with('/')) {
            pat.dir_only = true;
            line.remove_suffix(1);
        }
        pat.basename_only = line.find('/') == std::string_view::npos;
        if (line.starts_with('/')) line.remove_prefix(1);
        if (line.empty()) continue;
        pat.glob = compile_glob(line);
        out.push_back(std::move(pat));
    }
    return out;
}

void IgnoreRules::add(std::string_view gitignore_text, std::string_view base) {
    auto parsed = parse_gitignore(gitignore_text, base);
    patterns.insert(patterns.end(), std::make_move_iterator(parsed.begin()),
                    std::make_move_iterator(parsed.end()));
}

void IgnoreRules::add_file(const std::filesystem::path& file, std::string_view base) {
    if (auto text = read_file(file, file.string())) add(*text, base);
}

bool IgnoreRules::ignored_entry(std::string_view rel_path, bool is_dir) const {
    std::string_view name = basename_of(rel_path);
    if (name == ".git") return true;
    for (auto it = patterns.rbegin(); it != patterns.rend(); ++it) {
        const IgnorePattern& p = *it;
        if (p.dir_only && !is_dir) continue;
        std::string_view below = rel_path;
        if (!p.base.empty()) {
            if (below.size() <= p.base.size() || !below.starts_with(p.base) ||
                below[p.base.size()] != '/')
                continue;
            below.remove_prefix(p.base.size() + 1);
        }
        if (glob_match(p.glob, p.basename_only ? name : below)) return !p.negated;
    }
    return false;
}

bool IgnoreRules::ignored(std::string_view rel_path, bool is_dir) const {
    for (std::size_t slash = rel_path.find('/'); slash != std::string_view::npos;
         slash = rel_path.find('/', slash + 1))
        if (ignored_entry(rel_path.substr(0, slash), true)) return true;
    return ignored_entry(rel_path, is_dir);
}

} // namespace rio
