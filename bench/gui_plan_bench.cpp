// The plan view (DESIGN §13) on a 100 KB Markdown plan, on the offscreen platform: from
// show_plan (parse, paint into the document, layout) to the first painted screen; a jump to
// the end (Ctrl+End) right after that paint and once the view has settled; and
// scrolling through the whole plan a page at a time, each step with its repaint and whatever
// the event loop had to do in between — the frames a reader sees (target: ≤ 30 ms to first
// paint, no frame a reader notices).
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractSlider>
#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTest>
#include <algorithm>
#include <benchmark/benchmark.h>
#include <vector>

namespace {

using namespace rio::gui;
using namespace rio::gui::test;

const QString& plan() {
    static const QString text = large_plan(100 * 1024);
    return text;
}

double seconds(const QElapsedTimer& clock) {
    return static_cast<double>(clock.nsecsElapsed()) / 1e9;
}

// A window's worth of plan view, shown and exposed, with nothing pending.
struct Shown {
    PlanView view;
    int plans = 0;

    Shown() {
        view.resize(1280, 800);
        view.show();
        spin_until([&] { return view.isVisible(); });
        drain_events();
    }

    // Another plan each time: the same path shown again keeps its place.
    void show() {
        view.show_plan(QStringLiteral("Move the settings store to SQLite"),
                       QStringLiteral(".rio/plans/bench-%1.md").arg(++plans), plan());
        view.repaint();
    }
};

void BM_PlanView_ShowToFirstPaint_100KB(benchmark::State& state) {
    Shown s;
    for (auto _ : state) {
        QElapsedTimer clock;
        clock.start();
        s.show();
        state.SetIterationTime(seconds(clock));
        drain_events(); // whatever the view left for later runs between iterations
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * plan().size());
}
BENCHMARK(BM_PlanView_ShowToFirstPaint_100KB)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(15);

// Ctrl+End as soon as the plan is painted: nothing left for later has had its chance yet.
void BM_PlanView_EndRightAfterFirstPaint_100KB(benchmark::State& state) {
    Shown s;
    for (auto _ : state) {
        s.show();
        QElapsedTimer clock;
        clock.start();
        QTest::keyClick(s.view.body(), Qt::Key_End, Qt::ControlModifier);
        s.view.body()->viewport()->repaint();
        state.SetIterationTime(seconds(clock));
        // The caret at the plan's last character is on the screen.
        if (!s.view.body()->viewport()->rect().contains(s.view.body()->cursorRect())) {
            state.SkipWithError("Ctrl+End did not show the end");
            break;
        }
        drain_events();
    }
}
BENCHMARK(BM_PlanView_EndRightAfterFirstPaint_100KB)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(15);

// Ctrl+End once the view has settled: the rest painted (how long that took after the first
// paint, with the event loop free, is a counter) and a moment more for the layout.
void BM_PlanView_EndWhenSettled_100KB(benchmark::State& state) {
    Shown s;
    std::vector<double> rest;
    for (auto _ : state) {
        QElapsedTimer background;
        background.start();
        s.show();
        spin_until([&] { return !s.view.body()->painting(); });
        rest.push_back(seconds(background));
        QTest::qWait(300);
        QElapsedTimer clock;
        clock.start();
        QTest::keyClick(s.view.body(), Qt::Key_End, Qt::ControlModifier);
        s.view.body()->viewport()->repaint();
        state.SetIterationTime(seconds(clock));
        if (!s.view.body()->viewport()->rect().contains(s.view.body()->cursorRect())) {
            state.SkipWithError("Ctrl+End did not show the end");
            break;
        }
        drain_events();
    }
    std::sort(rest.begin(), rest.end());
    state.counters["all_painted_ms"] = rest[rest.size() / 2] * 1e3;
}
BENCHMARK(BM_PlanView_EndWhenSettled_100KB)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(9);

// Page by page from the top to the end, starting right after the first paint. Each frame is
// the event loop's pending work (as between two wheel turns) plus a page step and its paint.
// The time is the median frame; the slowest frame is a counter.
void BM_PlanView_ScrollFrames_100KB(benchmark::State& state) {
    Shown s;
    std::vector<double> worst;
    double pages = 0;
    for (auto _ : state) {
        s.show();
        QScrollBar* bar = s.view.body()->verticalScrollBar();
        std::vector<double> frames;
        for (int guard = 0; guard < 10000; ++guard) {
            QElapsedTimer clock;
            clock.start();
            QCoreApplication::processEvents();
            bar->triggerAction(QAbstractSlider::SliderPageStepAdd);
            s.view.body()->viewport()->repaint();
            frames.push_back(seconds(clock));
            if (bar->value() == bar->maximum()) break;
        }
        std::sort(frames.begin(), frames.end());
        state.SetIterationTime(frames[frames.size() / 2]);
        worst.push_back(frames.back());
        pages = static_cast<double>(frames.size());
        drain_events();
    }
    std::sort(worst.begin(), worst.end());
    state.counters["slowest_frame_ms"] = worst[worst.size() / 2] * 1e3;
    state.counters["pages"] = pages;
}
BENCHMARK(BM_PlanView_ScrollFrames_100KB)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(5);

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    std::printf("plan: %lld bytes of Markdown\n", static_cast<long long>(plan().toUtf8().size()));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
