#include "core/front_matter.hpp"

namespace rio {

std::size_t front_matter_size(std::string_view text) {
    constexpr std::string_view fence = "---\n";
    if (text.substr(0, fence.size()) != fence) return 0;
    std::size_t end = text.find("\n---\n", fence.size() - 1);
    return end == std::string_view::npos ? 0 : end + 5;
}

bool keeps_front_matter(std::string_view rel) {
    constexpr std::string_view folder = ".rio/plans/";
    return rel.substr(0, folder.size()) == folder && rel.size() > folder.size() + 3 &&
           rel.substr(rel.size() - 3) == ".md" &&
           rel.substr(folder.size()).find('/') == std::string_view::npos;
}

} // namespace rio
