// Quick open's matching: which project paths a few typed characters pick, best first, as the
// file pickers of VS Code and Zed rank them. The query's characters must appear in the path
// in order, case ignored; among the ways they can, the best scoring one counts: characters in
// a row, characters at the start of a path segment or a word (after `/`, `_`, `-`, `.`, a
// lower-to-upper case change) and characters in the file name score more; gaps, and the rest
// of a file name after the match, cost. Equal scores go to the shorter path. No Qt: the
// desktop paints what this returns.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rio::client {

struct FuzzyHit {
    std::size_t index = 0;              // into the paths searched
    int score = 0;                      // higher is better; 0 for an empty query
    std::vector<std::size_t> positions; // the matched characters, byte offsets into the path
};

// The paths `query` picks, best first, at most `limit` of them. Spaces in the query are
// ignored. An empty query picks the first `limit` paths as they are.
std::vector<FuzzyHit> fuzzy_find(const std::vector<std::string>& paths, std::string_view query,
                                 std::size_t limit);

} // namespace rio::client
