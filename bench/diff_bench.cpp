// rio's line diff against GNU diff on the same inputs. GNU diff is timed as a whole process
// (spawn, read both files, diff, write to /dev/null), so its numbers include a few hundred
// microseconds of process overhead that rio's in-process call does not pay.
#include "core/diff.hpp"
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

using rio::test::code_line;
using rio::test::Rng;

std::string join(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines)
        text += line + '\n';
    return text;
}

struct Pair {
    std::string a, b;
    std::size_t lines = 0; // of a and b together
    std::filesystem::path a_path, b_path;
};

// Every input pair is generated once and written next to the others in one temp dir,
// removed when the process exits.
class Inputs {
public:
    Inputs() {
        std::string pattern = std::filesystem::temp_directory_path() / "rio-diff-bench-XXXXXX";
        if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        dir_ = pattern;

        Rng rng(20240601);
        const std::size_t n = 100'000;
        std::vector<std::string> base;
        for (std::size_t k = 0; k < n; ++k)
            base.push_back(code_line(rng));
        std::vector<std::string> edited = base;
        for (std::size_t e = 0; e < 300; ++e) {
            std::size_t at = rng.below(edited.size());
            auto where = edited.begin() + static_cast<std::ptrdiff_t>(at);
            switch (e % 3) {
            case 0:
                *where = code_line(rng);
                break;
            case 1:
                edited.insert(where, code_line(rng));
                break;
            default:
                edited.erase(where);
            }
        }
        edits_ = make("edits", base, edited);

        std::vector<std::string> old_lines, new_lines;
        for (std::size_t k = 0; k < 20'000; ++k) {
            old_lines.push_back(code_line(rng) + " // old " + std::to_string(k));
            new_lines.push_back(code_line(rng) + " // new " + std::to_string(k));
        }
        unrelated_ = make("unrelated", old_lines, new_lines);

        std::vector<std::string> shuffled = base;
        for (std::size_t k = 0; k < shuffled.size(); ++k)
            shuffled[k] += " // " + std::to_string(k);
        std::vector<std::string> original = shuffled;
        for (std::size_t k = shuffled.size() - 1; k > 0; --k)
            std::swap(shuffled[k], shuffled[rng.below(k + 1)]);
        permutation_ = make("permutation", original, shuffled);
    }
    ~Inputs() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    static Inputs& get() {
        static Inputs inputs;
        return inputs;
    }

    const Pair& edits() const { return edits_; }
    const Pair& unrelated() const { return unrelated_; }
    const Pair& permutation() const { return permutation_; }

private:
    Pair make(const std::string& name, const std::vector<std::string>& a,
              const std::vector<std::string>& b) {
        Pair pair{join(a), join(b), a.size() + b.size(), dir_ / (name + ".a"),
                  dir_ / (name + ".b")};
        std::ofstream(pair.a_path, std::ios::binary) << pair.a;
        std::ofstream(pair.b_path, std::ios::binary) << pair.b;
        return pair;
    }

    std::filesystem::path dir_;
    Pair edits_, unrelated_, permutation_;
};

void rio_diff(benchmark::State& state, const Pair& pair, rio::DiffOptions options = {}) {
    rio::LineDiff diff;
    for (auto _ : state) {
        diff = rio::diff_lines(pair.a, pair.b, options);
        benchmark::DoNotOptimize(diff);
    }
    state.counters["lines/s"] = benchmark::Counter(static_cast<double>(pair.lines) *
                                                       static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
    state.counters["removed"] = static_cast<double>(diff.removed);
    state.counters["added"] = static_cast<double>(diff.added);
    state.counters["exact"] = diff.exact ? 1 : 0;
}

void gnu_diff(benchmark::State& state, const Pair& pair, bool minimal) {
    std::vector<std::string> argv{"/usr/bin/diff"};
    if (minimal) argv.push_back("--minimal");
    argv.push_back(pair.a_path);
    argv.push_back(pair.b_path);
    for (auto _ : state) {
        auto seconds = rio::test::timed_run(argv);
        if (!seconds) {
            state.SkipWithError("could not run /usr/bin/diff");
            break;
        }
        state.SetIterationTime(*seconds);
    }
    state.counters["lines/s"] = benchmark::Counter(static_cast<double>(pair.lines) *
                                                       static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}

void BM_RioDiff_100k_300edits(benchmark::State& state) {
    rio_diff(state, Inputs::get().edits());
}
void BM_GnuDiff_100k_300edits(benchmark::State& state) {
    gnu_diff(state, Inputs::get().edits(), true);
}
void BM_GnuDiffDefault_100k_300edits(benchmark::State& state) {
    gnu_diff(state, Inputs::get().edits(), false);
}

void BM_RioDiff_20k_allDifferent(benchmark::State& state) {
    rio_diff(state, Inputs::get().unrelated());
}
void BM_GnuDiff_20k_allDifferent(benchmark::State& state) {
    gnu_diff(state, Inputs::get().unrelated(), true);
}
void BM_GnuDiffDefault_20k_allDifferent(benchmark::State& state) {
    gnu_diff(state, Inputs::get().unrelated(), false);
}

void BM_RioDiff_100k_permutation(benchmark::State& state) {
    rio_diff(state, Inputs::get().permutation());
}
// What the automatic cap's halving buys: the same input with the cap held at 4096.
void BM_RioDiff_100k_permutation_fixedCap4096(benchmark::State& state) {
    rio_diff(state, Inputs::get().permutation(), rio::DiffOptions{4096});
}
// GNU diff --minimal has no cap and would take minutes here; its default mode is the
// comparable one, since it caps the search in much the same way.
void BM_GnuDiffDefault_100k_permutation(benchmark::State& state) {
    gnu_diff(state, Inputs::get().permutation(), false);
}

BENCHMARK(BM_RioDiff_100k_300edits)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnuDiff_100k_300edits)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_GnuDiffDefault_100k_300edits)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RioDiff_20k_allDifferent)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnuDiff_20k_allDifferent)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_GnuDiffDefault_20k_allDifferent)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RioDiff_100k_permutation)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RioDiff_100k_permutation_fixedCap4096)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_GnuDiffDefault_100k_permutation)->Unit(benchmark::kMillisecond)->UseManualTime();

} // namespace

BENCHMARK_MAIN();
