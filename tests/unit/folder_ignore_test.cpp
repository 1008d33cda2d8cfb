// FolderIgnoreRules must decide exactly as IgnoreRules::ignored_entry does, for any rules.
#include "host/files/folder_ignore.hpp"
#include "tests/support/rng.hpp"

#include <gtest/gtest.h>
#include <string>

namespace rio {
namespace {

TEST(FolderIgnoreRules, DecidesAsIgnoredEntryDoes) {
    const char* const lines[] = {"a",    "b",    "c.txt", "*.txt", "*.o",    "d/",      "/a",
                                 "a/b",  "a/**", "**/b",  "!a",    "!*.txt", "a*",      "[ab]",
                                 "?.o",  "/b/*", "a/b/c", "**/c/", "!d/",    "b/c.txt", "/c.txt",
                                 "\\!a", "*",    "!*/",   "ab/",   "*b",     "x/**/d",  "/a/b/"};
    const char* const bases[] = {"", "", "a", "a/b", "x"};
    const char* const folders[] = {"", "a", "a/b", "a/b/c", "x", "x/y", "ab", "b"};
    const char* const names[] = {"a", "b", "c.txt", "x.o", "d", ".git", "ab", "c", "!a", "bb"};
    test::Rng rng(11);
    for (int round = 0; round < 3000; ++round) {
        IgnoreRules rules;
        for (std::size_t files = 1 + rng.below(3); files > 0; --files) {
            std::string text;
            for (std::size_t n = rng.below(6); n > 0; --n)
                text += std::string(lines[rng.below(std::size(lines))]) + "\n";
            rules.add(text, bases[rng.below(std::size(bases))]);
        }
        for (const char* folder : folders) {
            FolderIgnoreRules compiled(rules, folder);
            for (const char* name : names)
                for (bool is_dir : {false, true}) {
                    std::string rel = *folder ? std::string(folder) + "/" + name : name;
                    ASSERT_EQ(compiled.ignored(name, is_dir), rules.ignored_entry(rel, is_dir))
                        << rel << (is_dir ? "/" : "") << " in round " << round;
                }
        }
    }
}

} // namespace
} // namespace rio
