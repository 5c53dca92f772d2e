// SPDX-License-Identifier: MIT
// GUI responsiveness under load: the real main window (offscreen) and a real Engine while
// 64 in-process clients increment one ConfigMap with no think time. Prints the longest gap
// between ticks of a 1 ms timer in the GUI thread (an event-loop stall; goal <= 50 ms), its
// p99, and what the window's handling of one operation batch costs (the panels' model
// inserts and the timeline's repaint request), next to the same figures with no clients.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QTimer>
#include <QtWidgets/QApplication>

#include "BenchHarness.h"
#include "MainWindow.h"
#include "engine/Engine.h"

using namespace rvscope;

namespace {

// Restarted by a slot connected before the window's own, read by one connected after them:
// the difference is what the window's panels spend on one batch.
QElapsedTimer g_batchTimer;

struct Figures {
    double longestStallMs = 0;
    double p99GapMs = 0;
    int batches = 0;
    long operations = 0;
    double batchMedianMs = 0;
    double batchMaxMs = 0;
    double seconds = 0;
};

double percentile(std::vector<double> values, double fraction)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<std::size_t>(fraction * double(values.size())))];
}

// Runs the event loop until `done` (or `seconds` pass when clients == 0), measuring.
Figures measure(engine::Engine &engine, int clients, int operations, double seconds)
{
    Figures figures;
    std::vector<double> gaps;
    std::vector<double> batchCosts;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] {
        gaps.push_back(double(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    QObject::connect(&engine, &engine::Engine::operationsRecorded, &ticker, [&](const engine::OperationBatch &batch) {
        figures.operations += batch.size();
        ++figures.batches;
        batchCosts.push_back(double(g_batchTimer.nsecsElapsed()) / 1e6);
    });
    QEventLoop loop;
    QElapsedTimer wall;
    wall.start();
    sinceTick.start();
    ticker.start();
    if (clients > 0) {
        QObject::connect(&engine, &engine::Engine::workloadFinished, &loop, &QEventLoop::quit);
        engine::ClientLaunch launch;
        launch.clients = clients;
        launch.operations = operations;
        launch.thinkTime = QStringLiteral("0ms");
        engine.launchClients(launch);
    } else {
        QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    }
    loop.exec();
    ticker.stop();
    figures.seconds = double(wall.elapsed()) / 1000.0;
    figures.longestStallMs = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
    figures.p99GapMs = percentile(gaps, 0.99);
    figures.batchMedianMs = percentile(batchCosts, 0.5);
    figures.batchMaxMs = batchCosts.empty() ? 0 : *std::max_element(batchCosts.begin(), batchCosts.end());
    return figures;
}

void print(const char *name, const Figures &figures)
{
    std::printf("%-22s %5.1f s %7ld ops %4d batches | longest stall %5.1f ms, p99 gap %5.1f ms %s | window per "
                "batch: median %5.2f ms, max %5.2f ms\n",
                name, figures.seconds, figures.operations, figures.batches, figures.longestStallMs, figures.p99GapMs,
                figures.longestStallMs <= 50.0 ? "(goal <= 50: ok)" : "(goal <= 50: MISS)", figures.batchMedianMs,
                figures.batchMaxMs);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bench::Options options = bench::parseOptions(argc, argv);
    engine::Engine engine;
    QObject::connect(&engine, &engine::Engine::operationsRecorded, &app, [] { g_batchTimer.restart(); });
    ui::MainWindow window(engine, nullptr, QString());
    window.resize(1600, 900);
    window.show();
    QEventLoop settle;
    QTimer::singleShot(200, &settle, &QEventLoop::quit);
    settle.exec();

    const int operations = options.smoke ? 5 : 300;
    std::printf("bench_gui_stall: main window offscreen, in-process clients with no think time on one ConfigMap\n");
    print("idle, no clients", measure(engine, 0, 0, options.smoke ? 0.2 : 1.0));
    print("8 clients flat out", measure(engine, 8, operations, 0));
    print("64 clients flat out", measure(engine, 64, operations, 0));
    return 0;
}
