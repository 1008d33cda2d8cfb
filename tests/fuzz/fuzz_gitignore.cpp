// .gitignore rules and globs: any pattern text compiles, and matching any path against it
// terminates (the matcher is an NFA, linear in the path) without crashing.
#include "host/files/gitignore.hpp"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::size_t split = bytes.find('\0');
    std::string_view rules_text = bytes.substr(0, split);
    std::string_view paths = split == std::string_view::npos ? "" : bytes.substr(split + 1);
    rio::IgnoreRules rules;
    rules.add(rules_text, "");
    rules.add(rules_text, "sub/dir");
    std::size_t at = 0;
    while (at <= paths.size()) {
        std::size_t nl = paths.find('\n', at);
        std::string_view path = paths.substr(at, nl == std::string_view::npos ? nl : nl - at);
        (void)rules.ignored(path, false);
        (void)rules.ignored_entry(path, true);
        rio::Glob glob = rio::compile_glob(rules_text.substr(0, 64));
        (void)rio::glob_match(glob, path);
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return 0;
}
