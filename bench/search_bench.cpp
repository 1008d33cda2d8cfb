// rio's project search against ripgrep and GNU grep on generated trees of code-like text
// (900 files / 9 MB, 9k / 90 MB, 45k / 451 MB; a tenth of the files under .gitignore'd
// folders). rio is timed in-process (search_project) and through a real rio-core answering
// fs.search over stdio, the round trip a frontend pays; rg and grep as whole processes
// (spawn, walk, read, match, write to a file), grep told to skip the same files. Every
// engine must report the same number of matching lines, or the benchmark fails. Page cache
// warm after the first run.
//
// A large result (issue 27): 1,000 files of 200 lines, 100,000 of them matching, every match
// asked for. rio-core is timed from the request to the reply's last byte, read whole (not
// parsed: that is the client's work); rg as a whole process writing to a pipe that is read
// whole (writing to a file or /dev/null it has no reader to wait for).
//
// The figures in docs/BENCHMARKS.md come from the default run: 15 repetitions of each,
// interleaved at random so that a noisy machine slows every engine alike; medians are quoted.
// RIO_BENCH_BASELINE_CORE=path/to/rio-core adds that core as a baseline in the same run.
#include "host/search/search.hpp"
#include "tests/support/code_text.hpp"
#include "tests/support/core_process.hpp"
#include "tests/support/rng.hpp"
#include "tests/support/timed_run.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using rio::test::code_line;
using rio::test::CoreProcess;
using rio::test::Json;
using rio::test::Rng;
using rio::test::word;

constexpr std::size_t kFileBytes = 10'000;
constexpr std::size_t kAllMatches = 1'000'000; // every match, as rg and grep print them
constexpr int kRepetitions = 15;

// Code-like text with rare needles, or many matches: every other line holds one.
enum class Shape { code, many_matches };

// A generated tree, removed at exit with the cores that searched it.
class Tree {
public:
    explicit Tree(std::size_t files, Shape shape = Shape::code) {
        std::string templ = (fs::temp_directory_path() / "rio-search-bench-XXXXXX").string();
        if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
        root_ = fs::canonical(templ);
        // A .git folder makes rg honour .gitignore, as it would in a real checkout.
        fs::create_directories(root_ / ".git");
        std::ofstream(root_ / ".git/HEAD") << "ref: refs/heads/main\n";
        std::ofstream(root_ / ".gitignore") << "# generated output\nbuild/\n*.log\n";
        if (shape == Shape::many_matches) {
            write_many_matches(files);
            return;
        }

        Rng rng(20240611);
        const std::size_t modules = std::max<std::size_t>(1, files / 700); // ~100 files a folder
        for (std::size_t f = 0; f < files; ++f) {
            // One file in ten lands where .gitignore excludes it.
            bool ignored = f % 10 == 0;
            fs::path rel = ignored ? (f % 20 == 0 ? fs::path("build/obj") : fs::path("logs"))
                                   : fs::path("src") / ("mod" + std::to_string(f % modules)) /
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
        }
    }
    ~Tree() {
        cores_.clear();
        std::error_code ignored;
        fs::remove_all(root_, ignored);
        fs::remove(output(), ignored);
    }
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    const fs::path& root() const { return root_; }
    // Where rg and grep write, outside the tree so that they do not search it.
    std::string output() const { return root_.string() + ".out"; }

    // One rio-core per binary with this tree open, started on first use.
    CoreProcess& core(const std::string& program) {
        auto& core = cores_[program];
        if (!core)
            core =
                std::make_unique<CoreProcess>(std::vector<std::string>{"--project", root_.string()},
                                              std::vector<std::string>{}, program);
        return *core;
    }

private:
    // 200 lines a file in folders of 50 files; the even lines call find_needle.
    void write_many_matches(std::size_t files) {
        const char* const words[] = {"alpha", "beta", "gamma", "delta", "result", "value"};
        std::size_t n = 0;
        for (std::size_t f = 0; f < files; ++f) {
            fs::path folder = root_ / "src" / ("mod" + std::to_string(f / 50));
            fs::create_directories(folder);
            std::string text;
            for (std::size_t i = 0; i < 200; ++i, ++n) {
                const std::string w = words[(i + f) % std::size(words)];
                text += i % 2 == 0 ? "    let " + w + "_" + std::to_string(i) + " = find_needle(&" +
                                         w + "s, " + std::to_string(i) + "); // step " +
                                         std::to_string(n) + "\n"
                                   : "    total += " + w + "_" + std::to_string(i - 1) +
                                         ".len() * " + std::to_string(i) + "; // " + w + "\n";
            }
            std::ofstream(folder / ("file" + std::to_string(f) + ".rs"), std::ios::binary) << text;
        }
    }

    fs::path root_;
    std::map<std::string, std::unique_ptr<CoreProcess>> cores_;
};

// The tree of 100,000 matching lines, keyed apart from the code trees.
constexpr std::size_t kManyMatchesFiles = 1'000;
constexpr std::size_t kManyMatchesKey = 1'000'000'000;

// Trees are generated when a benchmark first needs one: a filtered run makes only its own.
Tree& tree(std::size_t files) {
    static std::map<std::size_t, std::unique_ptr<Tree>> trees;
    auto& t = trees[files];
    if (!t)
        t = files == kManyMatchesKey
                ? std::make_unique<Tree>(kManyMatchesFiles, Shape::many_matches)
                : std::make_unique<Tree>(files);
    return *t;
}

struct Case {
    const char* name;
    std::string pattern;
    bool regex = false;
    bool ignore_case = false;
    std::size_t max_matches = kAllMatches;
    std::vector<std::string> rg_flags;
    std::vector<std::string> grep_flags;
    bool many = false; // on the tree of 100,000 matching lines, rg writing to a pipe
};

const char* const kRegex = R"(needle_[0-9]+\([a-z]+\))";

std::vector<Case> cases() {
    return {
        {"literal", "rio_needle_token", false, false, kAllMatches, {"-nF"}, {"-rnF"}},
        {"regex", kRegex, true, false, kAllMatches, {"-n"}, {"-rnE"}},
        {"regex_ignore_case", kRegex, true, true, kAllMatches, {"-ni"}, {"-rniE"}},
        // A word on most lines: rio stops once 200 matches are certain, rg prints them all.
        {"common_word_first_200", "result", false, false, 200, {"-nF"}, {}},
        {"every_match_100k", "find_needle", false, false, kAllMatches, {"-nF"}, {}, true},
    };
}

rio::SearchQuery query_of(const Case& c) {
    rio::SearchQuery q;
    q.pattern = c.pattern;
    q.regex = c.regex;
    q.ignore_case = c.ignore_case;
    q.max_matches = c.max_matches;
    return q;
}

// Matching lines as rio counts them, the reference for the other engines.
std::size_t expected_matches(std::size_t files, const Case& c) {
    static std::map<std::pair<std::size_t, std::string>, std::size_t> known;
    auto key = std::make_pair(files, std::string(c.name));
    auto it = known.find(key);
    if (it != known.end()) return it->second;
    auto r = rio::search_project(tree(files).root(), query_of(c));
    std::size_t n = r ? r->matches.size() : 0;
    known.emplace(key, n);
    return n;
}

std::size_t lines_in(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void check_count(benchmark::State& state, std::size_t files, const Case& c, std::size_t got) {
    state.counters["matches"] = static_cast<double>(got);
    if (c.max_matches == kAllMatches && got != expected_matches(files, c))
        state.SkipWithError(("found " + std::to_string(got) + " matching lines, rio " +
                             std::to_string(expected_matches(files, c)))
                                .c_str());
}

// The search alone, timed by the same clock as the round trips.
void rio_in_process(benchmark::State& state, std::size_t files, const Case& c) {
    const Tree& t = tree(files);
    rio::SearchQuery q = query_of(c);
    std::size_t matches = 0;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        auto r = rio::search_project(t.root(), q);
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (!r) {
            state.SkipWithError(r.error().message.c_str());
            return;
        }
        matches = r->matches.size();
        state.SetIterationTime(elapsed.count());
    }
    check_count(state, files, c, matches);
}

// The matches of a reply: its files' rows (a baseline core from before decision 0067 lists
// them flat, as `matches`).
std::size_t matches_in(const Json& result) {
    if (result.contains("matches")) return result["matches"].size();
    std::size_t n = 0;
    for (const Json& file : result.at("files"))
        n += file.at("matches").size();
    return n;
}

// From the request to the reply's last byte, the reply read whole but parsed after the clock
// stops: a frontend shows the first matches before it has parsed the last.
void rio_core(benchmark::State& state, std::size_t files, const Case& c,
              const std::string& program) {
    CoreProcess& core = tree(files).core(program);
    Json params{{"pattern", c.pattern},
                {"regex", c.regex},
                {"ignore_case", c.ignore_case},
                {"max_matches", c.max_matches}};
    std::size_t matches = 0;
    long id = 0;
    for (auto _ : state) {
        const std::string request =
            Json{{"id", ++id}, {"op", "fs.search"}, {"params", params}}.dump() + "\n";
        auto start = std::chrono::steady_clock::now();
        core.stdio().send_raw(request);
        std::optional<std::string> line;
        do
            line = core.stdio().next_line();
        while (line && line->starts_with("{\"event\""));
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        Json r = line ? Json::parse(*line, nullptr, false) : Json();
        if (!r.is_object() || r["ok"] != true || r["id"] != id) {
            state.SkipWithError(("fs.search failed: " + line.value_or("no reply")).c_str());
            return;
        }
        matches = matches_in(r["result"]);
        state.SetIterationTime(elapsed.count());
    }
    check_count(state, files, c, matches);
}

std::optional<std::string> find_program(const char* name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        fs::path candidate = fs::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return std::nullopt;
}

void whole_process(benchmark::State& state, std::size_t files, const Case& c,
                   const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    const Tree& t = tree(files);
    for (auto _ : state) {
        auto seconds = rio::test::timed_run(argv, env, 1, t.output());
        if (!seconds) {
            state.SkipWithError(("could not run " + argv[0]).c_str());
            return;
        }
        state.SetIterationTime(*seconds);
    }
    check_count(state, files, c, lines_in(t.output()));
}

// A whole process writing to a pipe this thread reads whole; its lines are counted.
std::optional<double> piped_run(const std::vector<std::string>& args, std::size_t& lines) {
    int fds[2];
    if (::pipe(fds) != 0) return std::nullopt;
    std::vector<std::string> argv_s = args;
    std::vector<char*> argv;
    for (auto& a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], 1);
        ::close(fds[0]);
        ::close(fds[1]);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    static std::vector<char> buffer(1 << 20);
    lines = 0;
    for (ssize_t got; (got = ::read(fds[0], buffer.data(), buffer.size())) > 0;)
        lines += static_cast<std::size_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
    ::close(fds[0]);
    int status = 0;
    const bool ran = pid > 0 && ::waitpid(pid, &status, 0) == pid;
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!ran || !WIFEXITED(status) || WEXITSTATUS(status) > 1) return std::nullopt;
    return elapsed.count();
}

void rg(benchmark::State& state, std::size_t files, const Case& c) {
    static const std::optional<std::string> program = find_program("rg");
    if (!program) {
        state.SkipWithError("rg not found: install ripgrep (scripts/install-deps) to compare");
        return;
    }
    std::vector<std::string> argv{*program};
    argv.insert(argv.end(), c.rg_flags.begin(), c.rg_flags.end());
    argv.insert(argv.end(), {"-e", c.pattern, tree(files).root().string()});
    if (!c.many) return whole_process(state, files, c, argv, {});
    std::size_t lines = 0;
    for (auto _ : state) {
        auto seconds = piped_run(argv, lines);
        if (!seconds) {
            state.SkipWithError("could not run rg");
            return;
        }
        state.SetIterationTime(*seconds);
    }
    check_count(state, files, c, lines);
}

void grep(benchmark::State& state, std::size_t files, const Case& c) {
    std::vector<std::string> argv{"/usr/bin/grep"};
    argv.insert(argv.end(), c.grep_flags.begin(), c.grep_flags.end());
    argv.insert(argv.end(), {"--exclude-dir=.git", "--exclude-dir=build", "--exclude=*.log", "-e",
                             c.pattern, tree(files).root().string()});
    // The C locale is grep's fastest mode (no multibyte decoding).
    whole_process(state, files, c, argv, {"LC_ALL=C"});
}

void register_all() {
    const std::pair<std::size_t, const char*> sizes[] = {
        {900, "900_files_9MB"}, {9'000, "9k_files_90MB"}, {45'000, "45k_files_451MB"}};
    const char* baseline = std::getenv("RIO_BENCH_BASELINE_CORE");
    for (const Case& c : cases()) {
        for (const auto& size : sizes) {
            if (c.many && size.first != sizes[0].first) continue; // one tree of its own
            const std::size_t files = c.many ? kManyMatchesKey : size.first;
            std::string prefix =
                std::string(c.name) + "/" + (c.many ? "1k_files_100k_matches" : size.second) + "/";
            // Many short samples: interleaved, they spread a noisy moment over every engine.
            const int iterations = files == kManyMatchesKey ? 2
                                   : files >= 45'000        ? 1
                                   : files >= 9'000         ? 2
                                                            : 8;
            auto add = [&](const std::string& engine, auto fn) {
                benchmark::RegisterBenchmark((prefix + engine).c_str(), fn)
                    ->Unit(benchmark::kMillisecond)
                    ->Iterations(iterations)
                    ->Repetitions(kRepetitions)
                    ->ReportAggregatesOnly(true)
                    ->UseManualTime();
            };
            add("rio", [files, c](benchmark::State& s) { rio_in_process(s, files, c); });
            add("rio-core", [files, c](benchmark::State& s) {
                rio_core(s, files, c, rio::test::core_binary());
            });
            if (baseline)
                add("baseline-core", [files, c, program = std::string(baseline)](
                                         benchmark::State& s) { rio_core(s, files, c, program); });
            add("rg", [files, c](benchmark::State& s) { rg(s, files, c); });
            if (!c.grep_flags.empty())
                add("grep", [files, c](benchmark::State& s) { grep(s, files, c); });
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    // Before the caller's flags, which may override it.
    std::string interleave = "--benchmark_enable_random_interleaving=true";
    args.insert(args.begin() + 1, interleave.data());
    int count = static_cast<int>(args.size());
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    register_all();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
