// The globs that narrow a project search or file list (fs.search, fs.files, the agent's
// `search`), read as ripgrep reads `-g` (decision 0074): models and people write them as
// they would for rg, and `*.{c,h}` or `!*.c` must not quietly match nothing. Each glob is
// translated the way ripgrep's globset does and matched by RE2 on the project-relative path.
#pragma once

#include "protocol/error.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace rio {

class PathGlobs {
public:
    enum class Verdict : std::uint8_t {
        none,    // no glob decides: .gitignore does
        include, // searched (a file) or entered (a folder), whatever .gitignore says
        exclude, // left out
    };

    // No globs: every verdict is none.
    PathGlobs();
    PathGlobs(PathGlobs&&) noexcept;
    PathGlobs& operator=(PathGlobs&&) noexcept;
    ~PathGlobs();

    // Each glob as one `rg -g`, in order: `*`, `?`, `[a-z]`, `[!a-z]`, `{a,b}`, `**` between
    // slashes, a leading `!` to exclude, a trailing `/` for folders only, a leading `/` (or a
    // `/` inside) to anchor at the project's root. Empty globs are skipped. A glob rio cannot
    // read is a bad_request that names it and says which forms work.
    static Result<PathGlobs> make(const std::vector<std::string>& globs);

    bool empty() const { return globs_.empty(); }

    // For a project-relative file or folder (rg's override rules): the last glob that matches
    // decides; a file no glob matches is excluded when some glob includes.
    Verdict decide(std::string_view rel, bool is_dir) const;

    // False when nothing below the folder can be included: every including glob is anchored
    // under other folders (`src/**/*.h` needs nothing outside src/).
    bool may_enter(std::string_view dir_rel) const;

private:
    struct Glob {
        std::unique_ptr<re2::RE2> re;
        bool exclude = false;
        bool dir_only = false;
        std::string fixed_dirs; // for an anchored glob, its leading folders without wildcards
    };

    std::vector<Glob> globs_;
    bool includes_ = false;      // some glob includes
    bool enter_anywhere_ = true; // some including glob may match below any folder
};

} // namespace rio
