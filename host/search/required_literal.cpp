#include "host/search/required_literal.hpp"

#include <cctype>

namespace rio {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// Letters whose Unicode case variants are not all ASCII (U+212A KELVIN SIGN, U+017F LONG S).
bool folds_beyond_ascii(char c) {
    return c == 'k' || c == 'K' || c == 's' || c == 'S';
}

std::size_t utf8_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
}

// The longest run seen so far, and the one being read.
class Runs {
public:
    void append(std::string_view character) {
        run_ += character;
        last_ = character.size();
    }
    void end() {
        if (run_.size() > best_.size()) best_ = run_;
        run_.clear();
        last_ = 0;
    }
    // A repetition applies to the last atom, which leaves the run even when one copy is
    // required: RE2 lets a second repetition follow through an empty `\Q\E` or a flag
    // group, and `b+\Q\E?` is then `(b+)?`.
    void repeat() {
        run_.resize(run_.size() - last_);
        end();
    }
    std::string take_best() {
        end();
        return std::move(best_);
    }

private:
    std::string run_, best_;
    std::size_t last_ = 0; // bytes of the run's last character if it was the last atom, else 0
};

// Past a `[...]` class whose '[' is at `i`; RE2 allows `[]a]`, `[^]a]` and `[[:alpha:]]`.
std::size_t skip_class(std::string_view p, std::size_t i) {
    ++i;
    if (i < p.size() && p[i] == '^') ++i;
    if (i < p.size() && p[i] == ']') ++i;
    while (i < p.size()) {
        if (p[i] == '\\') {
            i += 2;
        } else if (p[i] == '[' && i + 1 < p.size() && p[i + 1] == ':') {
            std::size_t close = p.find(":]", i + 2);
            i = close == std::string_view::npos ? i + 1 : close + 2;
        } else if (p[i] == ']') {
            return i + 1;
        } else {
            ++i;
        }
    }
    return i;
}

// Past the group whose '(' is at `i`, nested groups, classes and escapes included.
std::size_t skip_group(std::string_view p, std::size_t i) {
    int depth = 0;
    while (i < p.size()) {
        char c = p[i];
        if (c == '\\') {
            i += 2;
        } else if (c == '[') {
            i = skip_class(p, i);
        } else {
            ++i;
            if (c == '(') ++depth;
            if (c == ')' && --depth == 0) return i;
        }
    }
    return i;
}

// Past an escape whose '\' is at `i`, and whether it stands for its own character.
std::size_t skip_escape(std::string_view p, std::size_t i, bool& literal) {
    literal = false;
    if (i + 1 >= p.size()) return p.size();
    char c = p[i + 1];
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && !std::isalnum(u)) {
        literal = true;
        return i + 2;
    }
    std::size_t j = i + 2;
    if (c == 'x' || c == 'p' || c == 'P') {
        if (j < p.size() && p[j] == '{') {
            std::size_t close = p.find('}', j);
            return close == std::string_view::npos ? p.size() : close + 1;
        }
        return std::min(p.size(), j + (c == 'x' ? 2 : 1));
    }
    while (is_digit(c) && j < p.size() && j < i + 4 && is_digit(p[j]))
        ++j;
    return j;
}

// `{n}`, `{n,}` or `{n,m}` at `i`: past it. RE2 reads a brace that is not a repetition as
// a literal, which ends the run the same way.
bool parse_repeat(std::string_view p, std::size_t& i) {
    std::size_t j = i + 1;
    std::size_t digits = j;
    while (j < p.size() && is_digit(p[j]))
        ++j;
    if (j == digits) return false;
    if (j < p.size() && p[j] == ',') {
        ++j;
        while (j < p.size() && is_digit(p[j]))
            ++j;
    }
    if (j >= p.size() || p[j] != '}') return false;
    i = j + 1;
    return true;
}

// A flag group that turns on `i` anywhere makes every character ignore case; taking it for
// the whole pattern only widens what the literal scan lets through.
bool sets_ignore_case(std::string_view p) {
    for (std::size_t at = p.find("(?"); at != std::string_view::npos; at = p.find("(?", at + 1)) {
        for (std::size_t j = at + 2; j < p.size() && p[j] != ':' && p[j] != ')'; ++j)
            if (p[j] == 'i') return true;
    }
    return false;
}

// `(?i)`, `(?-s)`...: only flags, no group. RE2 applies a repetition after one to the atom
// before it, so the run goes on through it.
std::size_t flag_group_length(std::string_view p, std::size_t i) {
    if (!p.substr(i).starts_with("(?")) return 0;
    for (std::size_t j = i + 2; j < p.size(); ++j) {
        if (p[j] == ')') return j + 1 - i;
        if (std::string_view("imsU-").find(p[j]) == std::string_view::npos) return 0;
    }
    return 0;
}

// One character of the pattern that stands for itself; its length in bytes.
std::size_t add_character(Runs& runs, std::string_view p, std::size_t i, bool fold) {
    std::size_t length = std::min(utf8_length(static_cast<unsigned char>(p[i])), p.size() - i);
    bool ascii = length == 1 && static_cast<unsigned char>(p[i]) < 0x80;
    if (fold && (!ascii || folds_beyond_ascii(p[i])))
        runs.end();
    else
        runs.append(p.substr(i, length));
    return length;
}

} // namespace

std::optional<RequiredLiteral> required_regex_literal(std::string_view p, bool ignore_case) {
    const bool fold = ignore_case || sets_ignore_case(p);
    Runs runs;
    std::size_t i = 0;
    while (i < p.size()) {
        char c = p[i];
        switch (c) {
        case '|':
            return std::nullopt; // alternatives share no required text that this reading sees
        case '\\': {
            if (p.substr(i).starts_with("\\Q")) { // quoted: every character is itself
                std::size_t end = std::min(p.find("\\E", i + 2), p.size());
                for (i += 2; i < end;)
                    i += add_character(runs, p, i, fold);
                i = std::min(end + 2, p.size());
                break;
            }
            bool literal = false;
            std::size_t next = skip_escape(p, i, literal);
            if (literal && !(fold && folds_beyond_ascii(p[i + 1])))
                runs.append(p.substr(i + 1, 1));
            else
                runs.end();
            i = next;
            break;
        }
        case '[':
            runs.end();
            i = skip_class(p, i);
            break;
        case '(':
            if (std::size_t flags = flag_group_length(p, i)) {
                i += flags;
                break;
            }
            runs.end();
            i = skip_group(p, i);
            break;
        case '.':
        case '^':
        case '$':
            runs.end();
            ++i;
            break;
        case '*':
        case '?':
        case '+':
            runs.repeat();
            ++i;
            if (i < p.size() && p[i] == '?') ++i; // non-greedy
            break;
        case '{': {
            if (parse_repeat(p, i)) {
                runs.repeat();
                if (i < p.size() && p[i] == '?') ++i;
            } else {
                runs.end();
                ++i;
            }
            break;
        }
        default:
            i += add_character(runs, p, i, fold);
        }
    }
    std::string best = runs.take_best();
    if (best.empty()) return std::nullopt;
    return RequiredLiteral{std::move(best), fold};
}

std::optional<RequiredLiteral> required_plain_literal(std::string_view p, bool ignore_case) {
    if (p.empty()) return std::nullopt;
    if (!ignore_case) return RequiredLiteral{std::string(p), false};
    Runs runs;
    for (char c : p) {
        if (static_cast<unsigned char>(c) >= 0x80 || folds_beyond_ascii(c))
            runs.end();
        else
            runs.append(std::string_view(&c, 1));
    }
    std::string best = runs.take_best();
    if (best.empty()) return std::nullopt;
    return RequiredLiteral{std::move(best), true};
}

} // namespace rio
