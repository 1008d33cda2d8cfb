#include "host/search/path_globs.hpp"

#include <optional>
#include <re2/re2.h>

namespace rio {
namespace {

// Said with every glob refused: the forms that work, in the words of rg's manual.
constexpr std::string_view forms =
    "globs work as in ripgrep's -g: * and ? within a name, ** across folders (src/**/*.h), "
    "[a-z] and [!a-z], {a,b} alternatives (not nested, none empty), a leading ! to exclude "
    "(!*.c), a leading / to anchor at the project's root, a trailing / for folders only; "
    "several globs as an array, the later one deciding where two match";

// A glob's pieces as ripgrep's globset parses them; `literal_separator` holds throughout
// (`*` and `?` stop at '/'), and `\` escapes.
struct Token {
    enum class Kind : std::uint8_t {
        literal,
        any,              // `?`
        star,             // `*`
        recursive_prefix, // `**/` at the start: no folder or any folders
        recursive_suffix, // `/**` at the end: anything below
        recursive_middle, // `/**/`: one '/' or any folders between two
        byte_class,       // `[...]`, as RE2 text
        alternates,       // `{a,b}`
    };
    Kind kind = Kind::literal;
    unsigned char byte = 0; // literal
    std::string text;       // byte_class
    std::vector<std::vector<Token>> alternatives;
};

Token token(Token::Kind kind, unsigned char byte = 0, std::string text = {}) {
    return Token{kind, byte, std::move(text), {}};
}

std::string hex_byte(unsigned char b) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out = "\\x";
    out += digits[b >> 4];
    out += digits[b & 15];
    return out;
}

// A byte as RE2 (Latin-1) reads it literally.
std::string escaped(unsigned char b) {
    bool plain = (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    return plain ? std::string(1, static_cast<char>(b)) : hex_byte(b);
}

bool is_posix_class(std::string_view name) {
    for (std::string_view known : {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower",
                                   "print", "punct", "space", "upper", "xdigit"})
        if (name == known) return true;
    return false;
}

// globset's parser, byte by byte: a multi-byte character becomes the same bytes either way.
class Parser {
public:
    explicit Parser(std::string_view glob) : glob_(glob) { stack_.emplace_back(); }

    // The tokens, or why the glob cannot be read.
    std::optional<std::string> parse() {
        while (auto c = bump()) {
            std::optional<std::string> error;
            switch (*c) {
            case '?':
                push(token(Token::Kind::any));
                break;
            case '*':
                star();
                break;
            case '[':
                error = byte_class();
                break;
            case '{':
                if (stack_.size() > 1) return "nested {…} alternatives are not supported";
                stack_.emplace_back();
                break;
            case '}':
                error = close_alternatives();
                break;
            case ',':
                if (stack_.size() > 1)
                    stack_.emplace_back();
                else
                    push(literal(','));
                break;
            case '\\':
                if (auto escaped = bump())
                    push(literal(*escaped));
                else
                    return "a \\ at the end escapes nothing";
                break;
            default:
                push(literal(*c));
            }
            if (error) return error;
        }
        if (stack_.size() > 1) return "a { is not closed";
        return std::nullopt;
    }

    const std::vector<Token>& tokens() const { return stack_.front(); }

private:
    static Token literal(char c) {
        return token(Token::Kind::literal, static_cast<unsigned char>(c));
    }
    void push(Token t) { stack_.back().push_back(std::move(t)); }
    std::optional<char> peek() const {
        if (at_ >= glob_.size()) return std::nullopt;
        return glob_[at_];
    }
    std::optional<char> bump() {
        prev_ = cur_;
        cur_ = peek();
        if (cur_) ++at_;
        return cur_;
    }

    // rg reads `{a,}` as `{a}` and a stray `}` as nothing; rio says so instead.
    std::optional<std::string> close_alternatives() {
        if (stack_.size() < 2) return "a } has no { before it";
        Token t = token(Token::Kind::alternates);
        while (stack_.size() > 1) {
            if (stack_.back().empty()) return "an empty alternative in {…} is not supported";
            t.alternatives.push_back(std::move(stack_.back()));
            stack_.pop_back();
        }
        push(std::move(t));
        return std::nullopt;
    }

    // `**` is recursive only where it stands for whole folders: at the start or after '/'
    // (or at the start of an alternative), and before '/', the end, or the end of an
    // alternative. Elsewhere it is two `*`.
    void star() {
        const std::optional<char> before = prev_;
        auto two_stars = [this] {
            push(token(Token::Kind::star));
            push(token(Token::Kind::star));
        };
        if (peek() != '*') {
            push(token(Token::Kind::star));
            return;
        }
        bump();
        if (stack_.back().empty()) {
            if (peek() && *peek() != '/') {
                two_stars();
            } else {
                push(token(Token::Kind::recursive_prefix));
                bump(); // the '/', if any
            }
            return;
        }
        if (before != '/') {
            two_stars();
            return;
        }
        bool suffix = false;
        if (!peek()) {
            suffix = true;
        } else if ((*peek() == ',' || *peek() == '}') && stack_.size() > 1) {
            suffix = true;
        } else if (*peek() == '/') {
            bump();
        } else {
            two_stars();
            return;
        }
        // The '/' before the stars belongs to the recursive token; a recursive token there
        // already (`**/**`) absorbs these stars.
        Token last = std::move(stack_.back().back());
        stack_.back().pop_back();
        if (last.kind == Token::Kind::recursive_prefix ||
            last.kind == Token::Kind::recursive_suffix)
            push(std::move(last));
        else
            push(token(suffix ? Token::Kind::recursive_suffix : Token::Kind::recursive_middle));
    }

    // globset's class: `!` or `^` negates, a leading `]` or `-` is a member, `a-z` a range
    // (a trailing `-` a member), no escapes. rio also reads `[:alpha:]` and the other POSIX
    // names, as .gitignore does (rg takes them for the characters they are written with).
    std::optional<std::string> byte_class() {
        bool negated = false;
        if (peek() == '!' || peek() == '^') {
            bump();
            negated = true;
        }
        std::vector<std::pair<unsigned char, unsigned char>> ranges;
        std::string named;
        bool first = true, in_range = false;
        for (;;) {
            auto c = bump();
            if (!c) return "a [ is not closed";
            auto b = static_cast<unsigned char>(*c);
            if (b == ']' && !first) break;
            if (b == '[' && peek() == ':') {
                std::size_t close = glob_.find(":]", at_ + 1);
                if (close != std::string_view::npos) {
                    std::string_view name = glob_.substr(at_ + 1, close - at_ - 1);
                    if (!is_posix_class(name))
                        return "[:" + std::string(name) + ":] is not a character class";
                    named += "[:" + std::string(name) + ":]";
                    at_ = close + 2;
                    cur_ = ']';
                    first = false;
                    in_range = false;
                    continue;
                }
            }
            if (b == '-' && !first && !in_range && !ranges.empty()) {
                in_range = true;
            } else if (in_range) {
                if (ranges.back().first > b)
                    return std::string("the range ") + static_cast<char>(ranges.back().first) +
                           "-" + static_cast<char>(b) + " in [...] runs backwards";
                ranges.back().second = b;
                in_range = false;
            } else {
                ranges.emplace_back(b, b);
            }
            first = false;
        }
        if (in_range) ranges.emplace_back('-', '-');
        std::string text = negated ? "[^" : "[";
        for (auto [lo, hi] : ranges)
            text += lo == hi ? escaped(lo) : escaped(lo) + "-" + escaped(hi);
        text += named + "]";
        push(token(Token::Kind::byte_class, 0, std::move(text)));
        return std::nullopt;
    }

    std::string_view glob_;
    std::size_t at_ = 0;
    std::optional<char> prev_, cur_;
    std::vector<std::vector<Token>> stack_; // the tokens, then one list per open alternative
};

void to_regex(const std::vector<Token>& tokens, std::string& re) {
    for (const Token& t : tokens) {
        switch (t.kind) {
        case Token::Kind::literal:
            re += escaped(t.byte);
            break;
        case Token::Kind::any:
            re += "[^/]";
            break;
        case Token::Kind::star:
            re += "[^/]*";
            break;
        case Token::Kind::recursive_prefix:
            re += "(?:/?|.*/)";
            break;
        case Token::Kind::recursive_suffix:
            re += "/.*";
            break;
        case Token::Kind::recursive_middle:
            re += "(?:/|/.*/)";
            break;
        case Token::Kind::byte_class:
            re += t.text;
            break;
        case Token::Kind::alternates:
            re += "(?:";
            for (std::size_t i = 0; i < t.alternatives.size(); ++i) {
                if (i > 0) re += '|';
                to_regex(t.alternatives[i], re);
            }
            re += ')';
            break;
        }
    }
}

Error refuse(std::string_view glob, std::string_view why) {
    return Error{ErrorCode::bad_request, "cannot read the glob \"" + std::string(glob) +
                                             "\": " + std::string(why) + "; " + std::string(forms)};
}

} // namespace

PathGlobs::PathGlobs() = default;
PathGlobs::PathGlobs(PathGlobs&&) noexcept = default;
PathGlobs& PathGlobs::operator=(PathGlobs&&) noexcept = default;
PathGlobs::~PathGlobs() = default;

// Each glob becomes what ripgrep's gitignore-style override builder makes of it: a glob
// without '/' matches a name at any depth (`**/` before it), `/**` at the end matches what is
// below a folder but not the folder, and the result must match the whole path.
Result<PathGlobs> PathGlobs::make(const std::vector<std::string>& globs) {
    PathGlobs out;
    for (const std::string& original : globs) {
        std::string_view line = original;
        if (!line.ends_with("\\ "))
            while (!line.empty() &&
                   std::string_view(" \t\r\n\v\f").find(line.back()) != std::string_view::npos)
                line.remove_suffix(1);
        if (line.empty()) continue;
        // rg drops a glob that starts with '#' as a comment: a filter that filters nothing.
        if (line.starts_with('#'))
            return refuse(original, "it starts with #, which rg reads as a comment (\\# for a #)");
        Glob g;
        bool anchored = false;
        if (line.starts_with("\\!") || line.starts_with("\\#")) {
            line.remove_prefix(1);
        } else {
            if (line.starts_with('!')) {
                g.exclude = true;
                line.remove_prefix(1);
            }
            // rio's own: "./" anchors as "/" does (rg would match nothing).
            while (line.starts_with("./")) {
                line.remove_prefix(2);
                anchored = true;
            }
            if (line.starts_with('/')) {
                line.remove_prefix(1);
                anchored = true;
            }
        }
        if (line.ends_with('/')) {
            g.dir_only = true;
            line.remove_suffix(1);
        }
        if (line.empty()) return refuse(original, "it names no file or folder");
        std::string actual(line);
        if (!anchored && actual.find('/') == std::string::npos) {
            if (!actual.starts_with("**/") && actual != "**") actual = "**/" + actual;
        } else if (!g.exclude) {
            std::size_t wild = actual.find_first_of("*?[{\\");
            std::size_t slash = actual.substr(0, wild).rfind('/');
            if (slash != std::string::npos) g.fixed_dirs = actual.substr(0, slash + 1);
        }
        if (actual.ends_with("/**")) actual += "/*";

        Parser parser(actual);
        if (auto why = parser.parse()) return refuse(original, *why);
        std::string re;
        if (parser.tokens().size() == 1 &&
            parser.tokens().front().kind == Token::Kind::recursive_prefix)
            re = ".*"; // `**` alone: everything
        else
            to_regex(parser.tokens(), re);
        RE2::Options options;
        options.set_encoding(RE2::Options::EncodingLatin1); // bytes, as rg's (?-u)
        options.set_log_errors(false);
        g.re = std::make_unique<RE2>(re, options);
        if (!g.re->ok()) return refuse(original, g.re->error());

        out.includes_ = out.includes_ || !g.exclude;
        out.globs_.push_back(std::move(g));
    }
    if (out.includes_) {
        out.enter_anywhere_ = false;
        for (const Glob& g : out.globs_)
            if (!g.exclude && g.fixed_dirs.empty()) out.enter_anywhere_ = true;
    }
    return out;
}

PathGlobs::Verdict PathGlobs::decide(std::string_view rel, bool is_dir) const {
    for (auto it = globs_.rbegin(); it != globs_.rend(); ++it) {
        if (it->dir_only && !is_dir) continue;
        if (RE2::FullMatch(re2::StringPiece(rel.data(), rel.size()), *it->re))
            return it->exclude ? Verdict::exclude : Verdict::include;
    }
    return includes_ && !is_dir ? Verdict::exclude : Verdict::none;
}

bool PathGlobs::may_enter(std::string_view dir_rel) const {
    if (enter_anywhere_) return true;
    std::string dir = std::string(dir_rel) + "/";
    for (const Glob& g : globs_)
        if (!g.exclude && (dir.starts_with(g.fixed_dirs) || g.fixed_dirs.starts_with(dir)))
            return true;
    return false;
}

} // namespace rio
