#include "host/search/required_run.hpp"

#include "host/search/byte_frequency.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace rio {
namespace {

using Seq = std::vector<ByteSet>;

// A run longer than this makes a scan no faster: it probes three positions and checks the
// rest only where those agree.
constexpr std::size_t max_run = 32;
// An exact piece longer than this (a long repetition) is kept as its ends only.
constexpr std::size_t max_exact = 256;
// A pattern is spelled out as the strings it matches only up to this many of them.
constexpr std::size_t max_alternatives = 32;

bool is_decimal(char c) {
    return c >= '0' && c <= '9';
}

bool ascii_letter(std::uint32_t c) {
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

// Letters whose Unicode case variants are not all ASCII (U+212A KELVIN SIGN, U+017F LONG S):
// under case folding they may match bytes of another length.
bool folds_to_non_ascii(std::uint32_t c) {
    return (c | 0x20) == 'k' || (c | 0x20) == 's';
}

std::size_t utf8_bytes(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
}

std::uint32_t utf8_code(std::string_view s) {
    auto b = [&](std::size_t i) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i]));
    };
    switch (s.size()) {
    case 1:
        return b(0);
    case 2:
        return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
    case 3:
        return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    default:
        return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    }
}

int hex_digit_value(char c) {
    if (is_decimal(c)) return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    return -1;
}

// POSIX classes as RE2 has them (ASCII only).
bool in_posix_class(std::string_view name, unsigned char c) {
    auto in = [c](char lo, char hi) { return c >= lo && c <= hi; };
    if (name == "alnum") return in('0', '9') || in('a', 'z') || in('A', 'Z');
    if (name == "alpha") return in('a', 'z') || in('A', 'Z');
    if (name == "ascii") return c < 0x80;
    if (name == "blank") return c == ' ' || c == '\t';
    if (name == "cntrl") return c < 0x20 || c == 0x7f;
    if (name == "digit") return in('0', '9');
    if (name == "graph") return in('!', '~');
    if (name == "lower") return in('a', 'z');
    if (name == "print") return in(' ', '~');
    if (name == "punct") return in('!', '/') || in(':', '@') || in('[', '`') || in('{', '~');
    if (name == "space") return c == ' ' || in('\t', '\r');
    if (name == "upper") return in('A', 'Z');
    if (name == "word") return in('0', '9') || in('a', 'z') || in('A', 'Z') || c == '_';
    if (name == "xdigit") return in('0', '9') || in('a', 'f') || in('A', 'F');
    return false;
}

bool is_posix_class_name(std::string_view name) {
    for (std::string_view known : {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
                                   "lower", "print", "punct", "space", "upper", "word", "xdigit"})
        if (name == known) return true;
    return false;
}

double chance_of(const Seq& s) {
    std::array<double, 3> rarest{1.0, 1.0, 1.0}; // ascending
    for (const ByteSet& set : s) {
        double share = std::min(1.0, byte_set_share(set));
        if (share < rarest[2]) {
            rarest[2] = share;
            std::sort(rarest.begin(), rarest.end());
        }
    }
    return rarest[0] * rarest[1] * rarest[2];
}

// The rarest window of at most max_run positions.
Seq trimmed(const Seq& s) {
    if (s.size() <= max_run) return s;
    Seq best;
    double best_chance = 2.0;
    for (std::size_t at = 0;; at = std::min(at + max_run / 2, s.size() - max_run)) {
        Seq window(s.begin() + static_cast<std::ptrdiff_t>(at),
                   s.begin() + static_cast<std::ptrdiff_t>(at + max_run));
        if (double c = chance_of(window); c < best_chance) {
            best_chance = c;
            best = std::move(window);
        }
        if (at + max_run == s.size()) break;
    }
    return best;
}

// What is known of a piece of the pattern.
struct Info {
    bool exact = false; // every match of the piece is `seq.size()` bytes, byte k in seq[k]
    Seq seq;            // exact
    Seq prefix, suffix; // not exact: every match starts, ends with bytes in these
    Seq best;           // not exact: a run inside every match
    // When known: the piece matches these and nothing else, in the order RE2 prefers them
    // where several match at one place (leftmost-first: an alternation's branches in order).
    std::optional<std::vector<Seq>> alternatives;
};

const Seq& prefix_of(const Info& i) {
    return i.exact ? i.seq : i.prefix;
}
const Seq& suffix_of(const Info& i) {
    return i.exact ? i.seq : i.suffix;
}
const Seq& best_of(const Info& i) {
    return i.exact ? i.seq : i.best;
}

Info exact(Seq s) {
    Info i;
    if (s.size() <= max_exact) {
        i.exact = true;
        i.seq = std::move(s);
        return i;
    }
    i.prefix = Seq(s.begin(), s.begin() + max_run);
    i.suffix = Seq(s.end() - max_run, s.end());
    i.best = trimmed(s);
    return i;
}

Info anything() {
    return Info{};
}

// Bytes that stand for themselves: exact, and all the piece can match.
Info literal(Seq s) {
    Info i = exact(s);
    if (i.exact) i.alternatives = std::vector<Seq>{std::move(s)};
    return i;
}

// Every `a` then every `b`, in preference order (a's choice first, as a backtracking
// matcher would try them), or nothing when there would be too many.
std::optional<std::vector<Seq>> product(const std::optional<std::vector<Seq>>& a,
                                        const std::optional<std::vector<Seq>>& b) {
    if (!a || !b || a->size() * b->size() > max_alternatives) return std::nullopt;
    std::vector<Seq> out;
    for (const Seq& x : *a)
        for (const Seq& y : *b) {
            if (x.size() + y.size() > max_exact) return std::nullopt;
            out.push_back(x);
            out.back().insert(out.back().end(), y.begin(), y.end());
        }
    return out;
}

void keep_rarer(Seq& best, const Seq& candidate) {
    if (candidate.empty()) return;
    Seq c = trimmed(candidate);
    if (best.empty() || chance_of(c) < chance_of(best)) best = std::move(c);
}

Seq joined(const Seq& a, const Seq& b) {
    Seq out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

Seq repeated_seq(const Seq& s, std::size_t times) {
    Seq out;
    for (std::size_t t = 0; t < times; ++t)
        out.insert(out.end(), s.begin(), s.end());
    return out;
}

// A piece matched `min` to `max` times (max < min: no bound).
Info repeated(const Info& x, std::size_t min, std::size_t max) {
    if (min == 0) return anything();
    // A fixed count of a piece known as strings is those strings, count times over.
    std::optional<std::vector<Seq>> spelled;
    if (min == max && min <= max_exact) {
        spelled = std::vector<Seq>{Seq{}};
        for (std::size_t t = 0; t < min && spelled; ++t)
            spelled = product(spelled, x.alternatives);
    }
    if (!x.exact) {
        Info i;
        i.prefix = x.prefix;
        i.suffix = x.suffix;
        i.best = x.best;
        i.alternatives = std::move(spelled);
        return i;
    }
    const std::size_t length = x.seq.size();
    if (min == max && length * min <= max_exact) {
        Info i = exact(repeated_seq(x.seq, min));
        i.alternatives = std::move(spelled);
        return i;
    }
    // Every match starts and ends with `min` copies; a run needs no more than max_run bytes
    // of them.
    Seq some = repeated_seq(x.seq, length == 0 ? 0 : std::min(min, max_run / length + 1));
    Info i;
    i.prefix = some.size() > max_run ? Seq(some.begin(), some.begin() + max_run) : some;
    i.suffix = some.size() > max_run ? Seq(some.end() - max_run, some.end()) : some;
    i.best = trimmed(some);
    return i;
}

// Position by position, the union of `seqs`, aligned at their starts (or ends), as long as
// the shortest.
Seq united(const std::vector<const Seq*>& seqs, bool at_end) {
    std::size_t n = seqs.front()->size();
    for (const Seq* s : seqs)
        n = std::min(n, s->size());
    Seq out(n);
    for (const Seq* s : seqs)
        for (std::size_t k = 0; k < n; ++k)
            out[k] |= (*s)[at_end ? s->size() - n + k : k];
    return out;
}

Info alternate(const std::vector<Info>& branches) {
    if (branches.size() == 1) return branches.front();
    std::vector<const Seq*> prefixes, suffixes, bests;
    bool all_exact = true;
    for (const Info& b : branches) {
        prefixes.push_back(&prefix_of(b));
        suffixes.push_back(&suffix_of(b));
        bests.push_back(&best_of(b));
        all_exact = all_exact && b.exact && b.seq.size() == branches.front().seq.size();
    }
    std::optional<std::vector<Seq>> all = std::vector<Seq>{};
    for (const Info& b : branches) {
        if (!all || !b.alternatives || all->size() + b.alternatives->size() > max_alternatives) {
            all.reset();
            break;
        }
        all->insert(all->end(), b.alternatives->begin(), b.alternatives->end());
    }
    Info i;
    if (all_exact) {
        i = exact(united(prefixes, false));
    } else {
        i.prefix = united(prefixes, false);
        i.suffix = united(suffixes, true);
        keep_rarer(i.best, united(bests, false));
        keep_rarer(i.best, i.prefix);
        keep_rarer(i.best, i.suffix);
    }
    i.alternatives = std::move(all);
    return i;
}

// Pieces one after another: runs join across their edges (`[A-Z]{3,}` ends in three
// capitals, which `_` then follows).
class Concat {
public:
    void add(const Info& x) {
        alternatives_ = product(alternatives_, x.alternatives);
        if (x.exact) {
            run_.insert(run_.end(), x.seq.begin(), x.seq.end());
            if (prefix_open_) prefix_.insert(prefix_.end(), x.seq.begin(), x.seq.end());
            return;
        }
        keep_rarer(best_, joined(run_, x.prefix));
        keep_rarer(best_, x.best);
        if (prefix_open_) {
            prefix_.insert(prefix_.end(), x.prefix.begin(), x.prefix.end());
            prefix_open_ = false;
        }
        exact_ = false;
        run_ = x.suffix;
    }

    Info finish() {
        Info i;
        if (exact_) {
            i = exact(std::move(run_));
            i.alternatives = std::move(alternatives_);
            return i;
        }
        i.alternatives = std::move(alternatives_);
        keep_rarer(best_, run_);
        i.prefix = prefix_.size() > max_run ? Seq(prefix_.begin(), prefix_.begin() + max_run)
                                            : std::move(prefix_);
        i.suffix = run_.size() > max_run ? Seq(run_.end() - max_run, run_.end()) : std::move(run_);
        i.best = std::move(best_);
        return i;
    }

private:
    Seq run_;    // the bytes every match has just read, at the current position
    Seq prefix_; // the bytes every match starts with
    Seq best_;
    bool prefix_open_ = true; // every piece so far was exact
    bool exact_ = true;
    std::optional<std::vector<Seq>> alternatives_ = std::vector<Seq>{Seq{}};
};

// RE2's syntax, read only as far as this needs; anything it does not know ends the reading.
class Reader {
public:
    explicit Reader(std::string_view p) : p_(p) {}

    std::optional<Info> read(bool fold) {
        Info info = alternation(fold);
        if (!ok_ || i_ != p_.size()) return std::nullopt;
        return info;
    }

private:
    // A class member: a character, or a class of its own (`\d`) that cannot start a range.
    struct Member {
        bool is_class = false;
        std::uint32_t code = 0;
    };

    bool more() const { return ok_ && i_ < p_.size(); }
    Info fail() {
        ok_ = false;
        return anything();
    }

    // Branches up to ')' or the end; a flag group applies to the rest of its group, later
    // branches included.
    Info alternation(bool& fold) {
        std::vector<Info> branches{concat(fold)};
        while (more() && p_[i_] == '|') {
            ++i_;
            branches.push_back(concat(fold));
        }
        return alternate(branches);
    }

    Info concat(bool& fold) {
        Concat c;
        std::optional<Info> last; // what a repetition applies to
        while (more() && p_[i_] != '|' && p_[i_] != ')') {
            std::size_t min = 0, max = 0;
            if (repetition(min, max)) {
                // RE2 lets a repetition follow another through an empty `\Q\E` or a flag
                // group: `b+\Q\E?` is `(b+)?`. So `last` lives on through those.
                if (!last) return fail();
                *last = repeated(*last, min, max);
                continue;
            }
            if (flag_group(fold)) continue;
            if (p_.substr(i_).starts_with("\\Q")) {
                std::size_t end = std::min(p_.find("\\E", i_ + 2), p_.size());
                for (i_ += 2; i_ < end;) {
                    if (last) c.add(*last);
                    std::size_t n =
                        std::min(utf8_bytes(static_cast<unsigned char>(p_[i_])), end - i_);
                    last = character(p_.substr(i_, n), fold);
                    i_ += n;
                }
                i_ = std::min(end + 2, p_.size());
                continue;
            }
            if (last) c.add(*last);
            last = atom(fold);
        }
        if (last) c.add(*last);
        return c.finish();
    }

    // `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe followed by `?`; max < min: no bound.
    bool repetition(std::size_t& min, std::size_t& max) {
        char c = p_[i_];
        if (c == '*' || c == '+' || c == '?') {
            min = c == '+' ? 1 : 0;
            max = c == '?' ? 1 : 0;
            ++i_;
        } else if (c == '{') {
            std::size_t j = i_ + 1;
            auto number = [&](std::size_t& value) {
                const std::size_t start = j;
                for (value = 0; j < p_.size() && is_decimal(p_[j]); ++j)
                    value = std::min<std::size_t>(
                        value * 10 + static_cast<std::size_t>(p_[j] - '0'), 100'000);
                return j > start;
            };
            // RE2 reads a brace that is not a repetition as a literal.
            std::size_t n = 0, m = 0;
            if (!number(n)) return false;
            bool bounded = true;
            m = n;
            if (j < p_.size() && p_[j] == ',') {
                ++j;
                bounded = number(m);
            }
            if (j >= p_.size() || p_[j] != '}') return false;
            i_ = j + 1;
            min = n;
            max = bounded ? m : 0;
        } else {
            return false;
        }
        if (i_ < p_.size() && p_[i_] == '?') ++i_; // not greedy: the same matches
        return true;
    }

    // `(?i)`, `(?-i)`, `(?ims-U)`...: flags and no group.
    bool flag_group(bool& fold) {
        if (!p_.substr(i_).starts_with("(?")) return false;
        std::size_t j = i_ + 2;
        bool negate = false, folds = fold;
        for (; j < p_.size() && p_[j] != ')'; ++j) {
            char f = p_[j];
            if (f == '-')
                negate = true;
            else if (f == 'i')
                folds = !negate;
            else if (f != 'm' && f != 's' && f != 'U')
                return false;
        }
        if (j >= p_.size()) return false;
        fold = folds;
        i_ = j + 1;
        return true;
    }

    Info atom(bool fold) {
        char c = p_[i_];
        switch (c) {
        case '(':
            return group(fold);
        case '[':
            return byte_class(fold);
        case '.':
            ++i_;
            return anything();
        case '^':
        case '$':
            ++i_;
            return exact({});
        case '\\':
            return escape(fold);
        default: {
            std::size_t n = std::min(utf8_bytes(static_cast<unsigned char>(c)), p_.size() - i_);
            Info info = character(p_.substr(i_, n), fold);
            i_ += n;
            return info;
        }
        }
    }

    Info group(bool fold) {
        ++i_; // '('
        if (i_ < p_.size() && p_[i_] == '?') {
            std::string_view rest = p_.substr(i_);
            if (rest.starts_with("?P<") || rest.starts_with("?<")) {
                std::size_t close = p_.find('>', i_);
                if (close == std::string_view::npos) return fail();
                i_ = close + 1;
            } else {
                bool negate = false;
                for (++i_; i_ < p_.size() && p_[i_] != ':'; ++i_) {
                    char f = p_[i_];
                    if (f == '-')
                        negate = true;
                    else if (f == 'i')
                        fold = !negate;
                    else if (f != 'm' && f != 's' && f != 'U')
                        return fail();
                }
                if (i_ >= p_.size()) return fail();
                ++i_; // ':'
            }
        }
        Info info = alternation(fold);
        if (!more() || p_[i_] != ')') return fail();
        ++i_;
        return info;
    }

    // One character of the pattern that stands for itself.
    static Info character(std::string_view bytes, bool fold) {
        auto lead = static_cast<unsigned char>(bytes.front());
        if (fold && (lead >= 0x80 || folds_to_non_ascii(lead))) return anything();
        if (bytes.size() == 1) return literal({with_case(lead, fold)});
        Seq s;
        for (char b : bytes) {
            ByteSet one;
            one.set(static_cast<unsigned char>(b));
            s.push_back(one);
        }
        return literal(std::move(s));
    }

    static ByteSet with_case(unsigned char c, bool fold) {
        ByteSet s;
        s.set(c);
        if (fold && ascii_letter(c)) s.set(c ^ 0x20);
        return s;
    }

    Info escape(bool fold) {
        if (i_ + 1 >= p_.size()) return fail();
        char e = p_[i_ + 1];
        auto u = static_cast<unsigned char>(e);
        if (u < 0x80 && !is_decimal(e) && !ascii_letter(u)) {
            i_ += 2;
            return character(p_.substr(i_ - 1, 1), fold);
        }
        switch (e) {
        case 'b':
        case 'B':
        case 'A':
        case 'z':
            i_ += 2;
            return exact({}); // where, not what
        case 'd':
        case 'w':
        case 's':
            i_ += 2;
            return perl_class(e);
        case 'D':
        case 'W':
        case 'S':
            i_ += 2;
            return anything();
        case 'C':
            // Any byte, '\n' too, which never_nl does not stop: a match may span lines, so
            // no line can be ruled out.
            return fail();
        case 'p':
        case 'P':
            if (!skip_unicode_group()) return fail();
            return anything();
        default: {
            Member m;
            if (!escaped_character(m)) return fail();
            return anything(); // \x41, \n, \0: rare in searches, left to RE2
        }
        }
    }

    // `\d`, `\w` or `\s` as rio has them (Unicode, decision 0052): one character, ASCII or
    // not. What is sure is its first byte (an ASCII member or a lead byte) and its last (an
    // ASCII member or a continuation byte); RE2 matches no character starting elsewhere.
    static Info perl_class(char which) {
        ByteSet ascii;
        for (unsigned c = 0; c < 0x80; ++c) {
            bool digit = c >= '0' && c <= '9';
            bool word = digit || ascii_letter(c) || c == '_';
            bool space = c == ' ' || (c >= '\t' && c <= '\r');
            if (which == 'd' ? digit : which == 'w' ? word : space) ascii.set(c);
        }
        Info i;
        ByteSet first = ascii, last = ascii;
        for (unsigned b = 0xC0; b < 0x100; ++b)
            first.set(b);
        for (unsigned b = 0x80; b < 0xC0; ++b)
            last.set(b);
        i.prefix = {first};
        i.suffix = {last};
        i.best = {first};
        return i;
    }

    // Past `\pL` or `\p{Greek}` at i_.
    bool skip_unicode_group() {
        std::size_t j = i_ + 2;
        if (j >= p_.size()) return false;
        if (p_[j] == '{') {
            std::size_t close = p_.find('}', j);
            if (close == std::string_view::npos) return false;
            i_ = close + 1;
        } else {
            i_ = j + utf8_bytes(static_cast<unsigned char>(p_[j]));
        }
        return true;
    }

    // An escape that stands for one character (RE2's ParseEscape): its code.
    bool escaped_character(Member& m) {
        char e = p_[i_ + 1];
        auto u = static_cast<unsigned char>(e);
        if (u < 0x80 && !is_decimal(e) && !ascii_letter(u)) {
            m.code = u;
            i_ += 2;
            return true;
        }
        switch (e) {
        case 'n':
            m.code = '\n';
            break;
        case 'r':
            m.code = '\r';
            break;
        case 't':
            m.code = '\t';
            break;
        case 'a':
            m.code = '\a';
            break;
        case 'f':
            m.code = '\f';
            break;
        case 'v':
            m.code = '\v';
            break;
        case 'x': {
            std::size_t j = i_ + 2;
            std::uint32_t code = 0;
            if (j < p_.size() && p_[j] == '{') {
                std::size_t close = p_.find('}', j);
                if (close == std::string_view::npos || close == j + 1) return false;
                for (std::size_t k = j + 1; k < close; ++k) {
                    int h = hex_digit_value(p_[k]);
                    if (h < 0 || code > 0x10FFFF) return false;
                    code = code * 16 + static_cast<std::uint32_t>(h);
                }
                i_ = close + 1;
            } else {
                if (j + 2 > p_.size() || hex_digit_value(p_[j]) < 0 ||
                    hex_digit_value(p_[j + 1]) < 0)
                    return false;
                code = static_cast<std::uint32_t>(hex_digit_value(p_[j]) * 16 +
                                                  hex_digit_value(p_[j + 1]));
                i_ = j + 2;
            }
            m.code = code;
            return true;
        }
        default: {
            if (e < '0' || e > '7') return false;
            std::size_t j = i_ + 1;
            std::uint32_t code = 0;
            for (int digits = 0; digits < 3 && j < p_.size() && p_[j] >= '0' && p_[j] <= '7';
                 ++digits, ++j)
                code = code * 8 + static_cast<std::uint32_t>(p_[j] - '0');
            if (e != '0' && j == i_ + 2) return false; // `\1`: a back-reference RE2 refuses
            m.code = code;
            i_ = j;
            return true;
        }
        }
        i_ += 2;
        return true;
    }

    // One member of a `[...]` class at i_.
    bool member(Member& m) {
        if (i_ >= p_.size()) return false;
        if (p_[i_] == '\\') {
            if (i_ + 1 >= p_.size()) return false;
            char e = p_[i_ + 1];
            if (e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S') {
                i_ += 2;
                m.is_class = true;
                return true;
            }
            if (e == 'p' || e == 'P') {
                m.is_class = true;
                return skip_unicode_group();
            }
            return escaped_character(m);
        }
        std::size_t n = std::min(utf8_bytes(static_cast<unsigned char>(p_[i_])), p_.size() - i_);
        m.code = utf8_code(p_.substr(i_, n));
        i_ += n;
        return true;
    }

    // A class of ASCII characters is one position of a run; any other is read past.
    Info byte_class(bool fold) {
        ++i_; // '['
        bool negated = false, known = true;
        if (i_ < p_.size() && p_[i_] == '^') {
            negated = true;
            ++i_;
        }
        ByteSet set;
        auto add = [&](std::uint32_t lo, std::uint32_t hi) {
            if (hi >= 0x80) {
                known = false;
                return;
            }
            for (std::uint32_t c = lo; c <= hi; ++c) {
                if (fold && ascii_letter(c) && folds_to_non_ascii(c)) known = false;
                set |= with_case(static_cast<unsigned char>(c), fold);
            }
        };
        for (bool first = true;; first = false) {
            if (i_ >= p_.size()) return fail();
            if (p_[i_] == ']' && !first) break;
            if (p_.substr(i_).starts_with("[:")) {
                std::size_t close = p_.find(":]", i_ + 2);
                if (close != std::string_view::npos) {
                    std::string_view name = p_.substr(i_ + 2, close - i_ - 2);
                    bool complement = name.starts_with('^');
                    if (complement) name.remove_prefix(1);
                    if (!is_posix_class_name(name)) return fail();
                    if (complement) {
                        known = false;
                    } else {
                        for (unsigned c = 0; c < 0x80; ++c)
                            if (in_posix_class(name, static_cast<unsigned char>(c))) add(c, c);
                    }
                    i_ = close + 2;
                    continue;
                }
            }
            Member lo;
            if (!member(lo)) return fail();
            if (lo.is_class) {
                known = false;
                continue;
            }
            std::uint32_t hi = lo.code;
            if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
                ++i_;
                Member end;
                if (!member(end) || end.is_class || end.code < lo.code) return fail();
                hi = end.code;
            }
            add(lo.code, hi);
        }
        ++i_; // ']'
        if (negated || !known) return anything();
        return literal({set});
    }

    std::string_view p_;
    std::size_t i_ = 0;
    bool ok_ = true;
};

} // namespace

RegexBytes regex_bytes(std::string_view pattern, bool ignore_case) {
    RegexBytes out;
    auto info = Reader(pattern).read(ignore_case);
    if (!info) return out;
    // RE2 runs with never_nl: a match holds no '\n', and a place that needs one is none.
    auto without_newline = [](Seq& s) {
        for (ByteSet& set : s) {
            set.reset('\n');
            if (set.none()) return false;
        }
        return true;
    };
    if (info->alternatives) {
        for (Seq& alternative : *info->alternatives) {
            if (alternative.empty() || !without_newline(alternative)) {
                out.alternatives.clear();
                break;
            }
            out.alternatives.push_back(ByteRun{std::move(alternative)});
        }
    }
    if (!out.alternatives.empty()) {
        // Their starts, so that where the run lies is where one of them may start.
        std::vector<const Seq*> all;
        for (const ByteRun& a : out.alternatives)
            all.push_back(&a.positions);
        Seq starts = united(all, false);
        if (starts.size() > max_run) starts.resize(max_run);
        out.required = ByteRun{std::move(starts)};
        return out;
    }
    Seq run = trimmed(best_of(*info));
    if (!run.empty() && without_newline(run)) out.required = ByteRun{std::move(run)};
    return out;
}

double run_chance(const ByteRun& run) {
    return chance_of(run.positions);
}

} // namespace rio
