// rio's project search against `grep -rn` on the same generated tree: ~5,000 files and
// ~50 MB of code-like text, a tenth of it under .gitignore'd folders. grep runs as a whole
// process (spawn, walk, read, match, write to /dev/null) and is told to skip the same
// folders with --exclude-dir, so both read the same bytes; rio is timed in-process and uses
// its thread pool. Both read from a warm page cache after the first iteration.
#include "host/search.hpp"
#include "tests/support/code_text.hpp"
#include "tests/support/rng.hpp"
#include "tests/support/timed_run.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using rio::test::code_line;
using rio::test::Rng;
using rio::test::word;

// The tree is generated once per process and removed when it exits.
class Tree {
public:
    static constexpr std::size_t kFiles = 5000;
    static constexpr std::size_t kFileBytes = 10'000; // about: 50 MB in all

    Tree() {
        std::string templ = (fs::temp_directory_path() / "rio-search-bench-XXXXXX").string();
        if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
        root_ = fs::canonical(templ);
        std::ofstream(root_ / ".gitignore") << "# generated output\nbuild/\n*.log\n";

        Rng rng(20240611);
        for (std::size_t f = 0; f < kFiles; ++f) {
            // One file in ten lands where .gitignore excludes it.
            bool ignored = f % 10 == 0;
            fs::path rel = ignored ? (f % 20 == 0 ? fs::path("build/obj") : fs::path("logs"))
                                   : fs::path("src") / ("mod" + std::to_string(f % 40)) /
                                         ("part" + std::to_string(f % 7));
            std::string name = "file" + std::to_string(f) +
                               (ignored && f % 20 != 0 ? ".log"
                                : f % 3                ? ".cpp"
                                                       : ".hpp");
            std::string text;
            while (text.size() < kFileBytes) {
                text += code_line(rng);
                // Rare needles for the literal and the regex searches.
                if (rng.below(40000) == 0) text += " // rio_needle_token";
                if (rng.below(40000) == 0)
                    text += " needle_" + std::to_string(rng.below(100)) + "(" + word(rng) + ")";
                text += '\n';
            }
            fs::create_directories(root_ / rel);
            std::ofstream(root_ / rel / name, std::ios::binary) << text;
            if (!ignored) {
                ++searched_files_;
                searched_bytes_ += text.size();
            }
            total_bytes_ += text.size();
        }
    }
    ~Tree() {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    static Tree& get() {
        static Tree tree;
        return tree;
    }

    const fs::path& root() const { return root_; }
    std::size_t searched_files() const { return searched_files_; }
    std::size_t searched_bytes() const { return searched_bytes_; }
    std::size_t total_bytes() const { return total_bytes_; }

private:
    fs::path root_;
    std::size_t searched_files_ = 0, searched_bytes_ = 0, total_bytes_ = 0;
};

void set_rates(benchmark::State& state, std::size_t files, std::size_t bytes) {
    auto iterations = static_cast<double>(state.iterations());
    state.counters["files/s"] =
        benchmark::Counter(static_cast<double>(files) * iterations, benchmark::Counter::kIsRate);
    state.counters["MB/s"] = benchmark::Counter(static_cast<double>(bytes) / 1e6 * iterations,
                                                benchmark::Counter::kIsRate);
}

void rio_search(benchmark::State& state, const rio::SearchQuery& query) {
    const Tree& tree = Tree::get();
    rio::SearchResult result;
    for (auto _ : state) {
        auto r = rio::search_project(tree.root(), query);
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        result = std::move(*r);
        benchmark::DoNotOptimize(result);
    }
    state.counters["matches"] = static_cast<double>(result.matches.size());
    state.counters["searched"] = static_cast<double>(result.files_searched);
    // An early stop reads fewer files; the rate counts what a full search would have covered.
    set_rates(state, tree.searched_files(), tree.searched_bytes());
}

void grep(benchmark::State& state, std::vector<std::string> args) {
    const Tree& tree = Tree::get();
    args.insert(args.begin(), "/usr/bin/grep");
    args.push_back("--exclude-dir=build");
    args.push_back("--exclude=*.log");
    args.push_back(tree.root().string());
    for (auto _ : state) {
        // The C locale is grep's fastest mode (no multibyte decoding).
        auto seconds = rio::test::timed_run(args, {"LC_ALL=C"});
        if (!seconds) {
            state.SkipWithError("could not run /usr/bin/grep");
            break;
        }
        state.SetIterationTime(*seconds);
    }
    set_rates(state, tree.searched_files(), tree.searched_bytes());
}

rio::SearchQuery query(std::string pattern, bool regex = false) {
    rio::SearchQuery q;
    q.pattern = std::move(pattern);
    q.regex = regex;
    return q;
}

const char* const kRegex = R"(needle_[0-9]+\([a-z]+\))";

void BM_RioLiteral(benchmark::State& state) {
    rio_search(state, query("rio_needle_token"));
}
void BM_GrepLiteral(benchmark::State& state) {
    grep(state, {"-rnF", "rio_needle_token"});
}
void BM_RioRegex(benchmark::State& state) {
    rio_search(state, query(kRegex, true));
}
void BM_GrepRegex(benchmark::State& state) {
    grep(state, {"-rnE", kRegex});
}
void BM_RioRegexIgnoreCase(benchmark::State& state) {
    rio::SearchQuery q = query(kRegex, true);
    q.ignore_case = true;
    rio_search(state, q);
}
void BM_GrepRegexIgnoreCase(benchmark::State& state) {
    grep(state, {"-rniE", kRegex});
}
// A word on most lines: rio stops once 200 matches are certain, grep prints all of them.
void BM_RioCommonWord_200(benchmark::State& state) {
    rio_search(state, query("result"));
}
void BM_GrepCommonWord_all(benchmark::State& state) {
    grep(state, {"-rnF", "result"});
}

BENCHMARK(BM_RioLiteral)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GrepLiteral)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RioRegex)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GrepRegex)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RioRegexIgnoreCase)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GrepRegexIgnoreCase)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RioCommonWord_200)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GrepCommonWord_all)->Unit(benchmark::kMillisecond)->UseManualTime();

} // namespace

BENCHMARK_MAIN();
