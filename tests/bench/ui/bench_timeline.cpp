// SPDX-License-Identifier: MIT
// Timeline benchmark: what one frame of the Timeline panel costs to paint with 10k and 100k
// operations (on the RV and time axes, fully zoomed out and at a typical zoom of ~200
// revisions or ~10 ms), through the real widget's repaint on the offscreen platform, and what
// appending one 1000-operation batch costs (the engine sends one every ~33 ms at most).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QElapsedTimer>
#include <QtWidgets/QApplication>

#include "BenchHarness.h"
#include "TimelineFixtures.h"
#include "timeline/TimelineView.h"

using namespace rvscope;
using ui::TimelineView;

namespace {

constexpr double FRAME_BUDGET_MS = 33.0;
constexpr int BATCH = 1000;

struct Figures {
    double median = 0;
    double p95 = 0;
};

Figures summarize(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    Figures figures;
    if (samples.empty())
        return figures;
    figures.median = samples[samples.size() / 2];
    figures.p95 = samples[std::min(samples.size() - 1, samples.size() * 95 / 100)];
    return figures;
}

void printRow(const char *name, const Figures &figures, const char *unit, double goal, const char *note = "")
{
    char verdict[32] = "-";
    if (goal > 0)
        std::snprintf(verdict, sizeof verdict, "<=%.0f %s", goal, figures.p95 <= goal ? "ok" : "MISS");
    std::printf("%-52s %10.2f %10.2f %6s %12s  %s\n", name, figures.median, figures.p95, unit, verdict, note);
    std::fflush(stdout);
}

// What the frame drew: marks one by one, or per-pixel columns (level of detail).
std::string drawn(const ui::TimelinePaintStats &stats)
{
    int marks = 0;
    int aggregated = 0;
    for (std::size_t kind = 0; kind < ui::MARKER_KIND_COUNT; ++kind) {
        marks += stats.markers[kind];
        aggregated += stats.aggregatedOperations[kind];
    }
    char text[96];
    std::snprintf(text, sizeof text, "%d marks, %d ops in %d columns", marks, aggregated, stats.aggregatedColumns);
    return text;
}

// Repaints `frames` times (the view caches nothing between frames).
Figures paintFrames(TimelineView &view, int frames)
{
    std::vector<double> samples;
    QElapsedTimer timer;
    for (int i = 0; i < frames; ++i) {
        timer.start();
        view.viewport()->repaint();
        samples.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return summarize(samples);
}

void zoomToSpan(TimelineView &view, double span)
{
    const auto [low, high] = view.visibleRange();
    view.zoomBy((high - low) / span);
}

void paintWorkloads(int operations, const bench::Options &options, QSize size)
{
    TimelineView view;
    view.resize(size);
    view.show();
    testing::ContentionRun run(8, 4);
    engine::WatchEventBatch deliveries; // a watcher of every key receiving every revision
    for (int done = 0; done < operations; done += BATCH) {
        const engine::OperationBatch batch = run.next(BATCH);
        view.appendOperations(batch);
        deliveries << testing::deliveriesOf(batch, QStringLiteral("watch-1"), 0);
    }
    QCoreApplication::processEvents();
    const int frames = options.smoke ? 2 : 40;
    const double goal = operations >= 100000 ? FRAME_BUDGET_MS : 0;
    char name[96];

    auto measure = [&](const char *zoom, bool rv) {
        std::snprintf(name, sizeof name, "paint %dk ops, %s axis, %s", operations / 1000, rv ? "RV" : "time", zoom);
        if (bench::selected(options, name)) {
            const Figures figures = paintFrames(view, frames);
            printRow(name, figures, "ms", goal, drawn(view.lastPaintStats()).c_str());
        }
    };
    for (TimelineView::Axis axis : {TimelineView::Axis::ResourceVersion, TimelineView::Axis::Time}) {
        const bool rv = axis == TimelineView::Axis::ResourceVersion;
        view.setAxis(axis);
        view.fitAll();
        const auto [low, high] = view.visibleRange();
        measure("fit all", rv);
        // About 250 operations per client lane: the densest frame still drawn mark by mark.
        zoomToSpan(view, (high - low) * 2000.0 / operations);
        measure("densest detail", rv);
        view.fitAll();
        zoomToSpan(view, rv ? 200.0 : 10e6);
        measure(rv ? "~200 revisions" : "~10 ms", rv);
    }
    // The same frames with the watch overlay of one watcher that received every revision.
    view.showWatchDeliveries(QStringLiteral("watch-1"), deliveries);
    for (TimelineView::Axis axis : {TimelineView::Axis::ResourceVersion, TimelineView::Axis::Time}) {
        const bool rv = axis == TimelineView::Axis::ResourceVersion;
        view.setAxis(axis);
        view.fitAll();
        measure("fit all + overlay", rv);
        zoomToSpan(view, rv ? 200.0 : 10e6);
        measure(rv ? "~200 revisions + overlay" : "~10 ms + overlay", rv);
    }
}

void appendWorkloads(const bench::Options &options)
{
    const int total = options.smoke ? 5 * BATCH : 100 * BATCH;
    testing::ContentionRun run(8, 4);
    std::vector<engine::OperationBatch> batches;
    for (int done = 0; done < total; done += BATCH)
        batches.push_back(run.next(BATCH));

    std::vector<double> dataSamples;
    ui::TimelineData data;
    QElapsedTimer timer;
    for (const auto &batch : batches) {
        timer.start();
        data.append(batch);
        dataSamples.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::vector<double> viewSamples;
    TimelineView view;
    view.resize(1280, 700);
    view.show();
    for (const auto &batch : batches) {
        timer.start();
        view.appendOperations(batch);
        viewSamples.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    char name[96];
    std::snprintf(name, sizeof name, "append 1000 ops to TimelineData (0 -> %dk)", total / 1000);
    if (bench::selected(options, name))
        printRow(name, summarize(dataSamples), "ms", 0);
    std::snprintf(name, sizeof name, "append 1000 ops to TimelineView (0 -> %dk)", total / 1000);
    if (bench::selected(options, name))
        printRow(name, summarize(viewSamples), "ms", 0);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bench::Options options = bench::parseOptions(argc, argv);
    const QSize size(1600, 800);
    std::printf("\nTimeline (%dx%d widget, offscreen raster; median and p95 of %d frames)\n", size.width(),
                size.height(), options.smoke ? 2 : 40);
    std::printf("%-52s %10s %10s %6s %12s  %s\n", "workload", "median", "p95", "unit", "goal", "last frame drew");
    appendWorkloads(options);
    paintWorkloads(options.smoke ? 5000 : 10000, options, size);
    paintWorkloads(options.smoke ? 20000 : 100000, options, size);
    return 0;
}
