// Which project files git would ignore: .gitignore and .git/info/exclude semantics as
// `man gitignore` documents them, plus the shell-glob dialect (git's wildmatch with
// pathname rules) those patterns are written in. The search's globs are rg's instead
// (host/search/path_globs).
#pragma once

#include <bitset>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

struct GlobToken {
    enum class Kind : std::uint8_t {
        byte,       // one exact byte
        any_byte,   // `?`: one byte except '/'
        byte_class, // `[...]`: one byte of a set, never '/'
        star,       // `*`: any run of bytes without '/'
        any_path,   // a trailing `/**` or a lone `**`: any run of bytes, '/' included
        any_dirs,   // a leading or middle `**/`: zero or more whole folders, ([^/]*/)*;
                    // this position is at a folder boundary and may skip past the pair
        in_dir,     // always right after any_dirs: inside one of those folders' names
    };
    Kind kind = Kind::byte;
    std::uint8_t byte = 0;         // Kind::byte
    std::uint32_t class_index = 0; // Kind::byte_class: index into Glob::classes
};

// Matching runs the tokens as an NFA (a set of positions advanced byte by byte), so time is
// linear in the subject whatever the pattern: no backtracking blow-up on model-written
// globs. Most .gitignore lines are a plain name or `*.ext`; those skip the NFA.
struct Glob {
    enum class Shape : std::uint8_t { literal, suffix, general };
    Shape shape = Shape::general;
    std::string fixed; // Shape::literal: the whole text; Shape::suffix: what follows a leading `*`
    // Shape::general: the longest run of plain bytes, which every match contains; checked
    // first, it spares the NFA most subjects (`**/generated/**` against every path of a walk).
    std::string required;
    std::vector<GlobToken> tokens;
    std::vector<std::bitset<256>> classes;
};

// `*`, `?`, `[a-z]`, `[!x]`/`[^x]`, `[[:alpha:]]`, `\` escapes, and `**` where it stands
// alone between slashes; other runs of stars are one star. An unterminated `[` is literal.
Glob compile_glob(std::string_view pattern);
bool glob_match(const Glob& glob, std::string_view subject);

struct IgnorePattern {
    Glob glob;
    std::string base; // folder of the file the line came from, project-relative; "" = root
    bool negated = false;
    bool dir_only = false;      // written with a trailing '/'
    bool basename_only = false; // no '/' in the pattern: matches a name at any depth below base
};

// Parses one .gitignore (or info/exclude) file's text; `base` as in IgnorePattern.
std::vector<IgnorePattern> parse_gitignore(std::string_view text, std::string_view base);

// The patterns in force, in precedence order: .git/info/exclude first, then each
// .gitignore from the root down, so the last pattern that matches decides. A walk pushes a
// folder's patterns on the way in and erases them on the way out.
struct IgnoreRules {
    std::vector<IgnorePattern> patterns;

    void add(std::string_view gitignore_text, std::string_view base);
    // Reads the file if it exists; a missing or unreadable file adds nothing.
    void add_file(const std::filesystem::path& file, std::string_view base);

    // The decision for one entry, taking its parent folders as not excluded: what a walk
    // asks, since it never enters an excluded folder. A `.git` entry is always ignored.
    bool ignored_entry(std::string_view rel_path, bool is_dir) const;
    // Full git semantics for any path: also ignored when a parent folder is excluded
    // ("it is not possible to re-include a file if a parent directory is excluded").
    bool ignored(std::string_view rel_path, bool is_dir) const;
};

} // namespace rio
