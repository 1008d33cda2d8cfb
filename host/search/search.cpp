#include "host/search/search.hpp"

#include "host/files/confine.hpp"
#include "host/files/files.hpp"
#include "host/search/search_matcher.hpp"
#include "host/search/search_scan.hpp"
#include "host/search/search_walk.hpp"

#include <cerrno>
#include <sys/stat.h>

namespace rio {
namespace {

namespace fs = std::filesystem;

bool looks_like_regex(std::string_view p) {
    for (std::string_view token : {".*", ".+", "\\", "|", "[", "(?"})
        if (p.find(token) != std::string_view::npos) return true;
    return p.starts_with('^') || p.ends_with('$');
}

std::string joined(const std::vector<std::string>& globs) {
    std::string out;
    for (const std::string& g : globs)
        out += (out.empty() ? "" : " ") + g;
    return out;
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
    auto globs = PathGlobs::make(query.globs);
    if (!globs) return globs.error();
    auto scope = confine(root, query.path);
    if (!scope) return scope.error();
    std::string rel = scope->rel == "." ? "" : scope->rel;

    struct stat st {};
    const bool found = ::stat(scope->real.c_str(), &st) == 0;
    const int err = errno;
    if (!found || S_ISREG(st.st_mode)) {
        // A file named explicitly is searched whatever .gitignore and the globs say, and a
        // buffer that was never saved has no file yet but can still be searched.
        auto it = live_text.find(rel);
        const std::string* live = it == live_text.end() ? nullptr : &it->second;
        if (!found && !live) return errno_error(err, "search", scope->rel);
        std::vector<SearchFile> one{
            SearchFile{nullptr, rel, found ? scope->real.string() : std::string(), live}};
        return scan_files(
            [&one](std::vector<SearchFile>& out, std::size_t) {
                out = std::move(one);
                return false;
            },
            *matcher, query);
    }
    if (!S_ISDIR(st.st_mode))
        return make_error(ErrorCode::bad_request, scope->rel + " is neither a file nor a folder");

    SearchWalker walker(root, rel, scope->real, live_text, *globs);
    SearchResult result = scan_files([&walker](std::vector<SearchFile>& out,
                                               std::size_t want) { return walker.next(out, want); },
                                     *matcher, query);
    result.left_out = walker.left_out();
    return result;
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
    if (result.left_out > 0)
        skipped += (skipped.empty() ? "" : "; ") +
                   plural(result.left_out, "name that is not valid UTF-8",
                          "names that are not valid UTF-8") +
                   " left out";

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
        if (!query.globs.empty()) out += " matching " + joined(query.globs);
        out += skipped.empty() ? "." : " (" + skipped + ").";
        if (!query.regex && looks_like_regex(query.pattern))
            out += " The pattern was searched literally; set regex for a regular expression.";
        if (query.regex && query.pattern.find("\\n") != std::string::npos)
            out += " A match cannot span lines.";
        if (result.files_searched == 0 && !query.globs.empty())
            out += query.globs.size() == 1 ? " The glob matched no files."
                                           : " The globs matched no files.";
    }
    return out;
}

} // namespace rio
