// The files a project search reads, in path order, a batch at a time so that reading and
// matching can start while the walk goes on. Folders are read with getdents64 and opened
// relative to their parent's descriptor, and files are later opened relative to their
// folder's: profiled, resolving whole paths from the root was a fifth of a search's time.
#pragma once

#include "host/files/folder_ignore.hpp"
#include "host/files/gitignore.hpp"
#include "host/search/path_globs.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

using LiveText = std::map<std::string, std::string, std::less<>>;

// An open folder; its files keep it open until they have been read.
class SearchDir {
public:
    SearchDir(int fd, std::string rel) : fd_(fd), rel_(std::move(rel)) {}
    ~SearchDir();
    SearchDir(const SearchDir&) = delete;
    SearchDir& operator=(const SearchDir&) = delete;

    int fd() const { return fd_; }
    const std::string& rel() const { return rel_; } // "" for the project root

private:
    int fd_;
    std::string rel_;
};

struct SearchFile {
    std::shared_ptr<const SearchDir> dir; // the folder it is listed in; null when named alone
    std::string name;                     // in `dir`, or the project-relative path
    std::string target; // opened instead when set: a symlink's resolved path, or the path of
                        // a file named alone
    const std::string* live = nullptr; // the editor's unsaved text, searched instead

    std::string rel() const;
};

// Depth first, each folder's entries sorted so that the files come out in the order of
// their project-relative paths ("a-b" before "a/c", as the strings compare). Symlinked
// folders are not entered (no loops, no way out of the project); a symlinked file counts
// only when it resolves inside the root. Open buffers without a file yet are listed where
// their file would be. The globs decide before .gitignore, as rg's `-g` does; `.git` and
// rio's own folder stay out whatever they say.
class SearchWalker {
public:
    // `rel` and `real` name the folder searched; the .gitignore files above it apply too.
    SearchWalker(const std::filesystem::path& root, std::string rel,
                 const std::filesystem::path& real, const LiveText& live, const PathGlobs& globs);
    ~SearchWalker();
    SearchWalker(const SearchWalker&) = delete;
    SearchWalker& operator=(const SearchWalker&) = delete;

    // Appends up to `want` more files; false once the walk is over.
    bool next(std::vector<SearchFile>& out, std::size_t want);

    // Names met so far that are not valid UTF-8: left out, files and folders alike
    // (host/files/files.hpp's DirListing says why).
    std::size_t left_out() const { return left_out_; }

private:
    struct Entry {
        std::string name;
        unsigned char type;   // DT_REG, DT_DIR, DT_LNK, ...
        bool unsaved = false; // an open buffer with no file on disk
    };
    struct Frame {
        std::shared_ptr<SearchDir> dir;
        std::vector<Entry> entries;
        std::size_t next = 0;
        std::size_t inherited_rules = 0;
        std::unique_ptr<FolderIgnoreRules> ignore; // the rules for its entries
    };

    void enter(int parent_fd, const char* name, std::string rel);
    void list(Frame& frame);
    void visit(const Frame& frame, const Entry& entry, std::vector<SearchFile>& out);
    bool admits(const Frame& frame, const std::string& name, bool is_dir) const;
    void add_gitignore(const std::string& dir_rel, unsigned char type);
    const std::string* live_text(std::string_view rel) const;

    const std::filesystem::path& root_;
    const LiveText& live_;
    const PathGlobs& globs_;
    IgnoreRules rules_;
    std::vector<Frame> stack_;
    std::string path_; // the entry being visited, project-relative
    std::unique_ptr<char[]> dirents_;
    std::size_t left_out_ = 0;
};

} // namespace rio
