#include "host/search/file_list.hpp"

namespace rio {

FileList list_project_files(const std::filesystem::path& root, const LiveText& buffers,
                            std::size_t max_files, const PathGlobs& globs) {
    SearchWalker walker(root, std::string(), root, buffers, globs);
    FileList list;
    std::vector<SearchFile> batch;
    for (bool more = true; more;) {
        batch.clear();
        more = walker.next(batch, 4096);
        for (const SearchFile& file : batch) {
            if (list.files.size() == max_files) {
                list.truncated = true;
                list.left_out = walker.left_out();
                return list;
            }
            list.files.push_back(file.rel());
        }
    }
    list.left_out = walker.left_out();
    return list;
}

} // namespace rio
