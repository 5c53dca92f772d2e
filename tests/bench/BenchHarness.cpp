// SPDX-License-Identifier: MIT
#include "BenchHarness.h"

#include <cstring>

namespace rvscope::bench {
namespace {
double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}
} // namespace

double opsPerSecond(const std::function<void(long)> &body, double seconds)
{
    using Clock = std::chrono::steady_clock;
    long batch = 1;
    long total = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    // Grow the batch until a batch takes ~1/20 of the round, so timing overhead stays small.
    while (elapsed < seconds) {
        const auto before = Clock::now();
        body(batch);
        const double took = std::chrono::duration<double>(Clock::now() - before).count();
        total += batch;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (took < seconds / 20)
            batch *= 2;
    }
    return static_cast<double>(total) / elapsed;
}

Comparison compare(const std::string &name, const Options &options, const std::function<void(long)> &ours,
                   const std::function<void(long)> &baseline, double goal)
{
    std::vector<double> oursRuns;
    std::vector<double> baselineRuns;
    std::vector<double> ratios;
    const double seconds = options.smoke ? 0.01 : options.secondsPerRound;
    const int rounds = options.smoke ? 1 : options.rounds;
    for (int round = 0; round < rounds; ++round) {
        // Which side runs first alternates, so neither always inherits the other's warm caches
        // (or a burst of the neighbours' load at the start of a round).
        double base = 0;
        double mine = 0;
        if (round % 2 == 0) {
            base = opsPerSecond(baseline, seconds);
            mine = opsPerSecond(ours, seconds);
        } else {
            mine = opsPerSecond(ours, seconds);
            base = opsPerSecond(baseline, seconds);
        }
        baselineRuns.push_back(base);
        oursRuns.push_back(mine);
        ratios.push_back(base > 0 ? mine / base : 0);
    }
    Comparison result;
    result.name = name;
    result.ours = median(oursRuns);
    result.baseline = median(baselineRuns);
    // The ratio of each round's pair, taken back to back: the machine's slow drift cancels in
    // a pair, where it does not between two medians.
    result.ratio = median(ratios);
    result.ratioMin = *std::min_element(ratios.begin(), ratios.end());
    result.ratioMax = *std::max_element(ratios.begin(), ratios.end());
    result.goal = goal;
    return result;
}

void printHeader(const char *title)
{
    std::printf("\n%s\n", title);
    std::printf("%-52s %14s %14s %8s %10s %12s\n", "workload", "rvscope", "baseline", "ratio", "goal",
                "pairs");
}

void print(const Comparison &c)
{
    // Comparisons filled in by hand (no rounds) have the ratio of their two figures.
    const double ratio = c.ratio > 0 ? c.ratio : (c.baseline > 0 ? c.ours / c.baseline : 0);
    char goal[32] = "-";
    if (c.goal > 0)
        std::snprintf(goal, sizeof goal, ">=%.2f %s", c.goal, ratio >= c.goal ? "ok" : "MISS");
    char spread[32] = "";
    if (c.ratio > 0)
        std::snprintf(spread, sizeof spread, "%.2f..%.2f", c.ratioMin, c.ratioMax);
    std::printf("%-52s %14.0f %14.0f %8.2f %10s %12s\n", (c.name + " (" + c.unit + ")").c_str(), c.ours,
                c.baseline, ratio, goal, spread);
    std::fflush(stdout);
}

bool selected(const Options &options, const std::string &name)
{
    return options.filter.empty() || name.find(options.filter) != std::string::npos;
}

Options parseOptions(int argc, char **argv)
{
    Options options;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0)
            options.smoke = true;
        else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            options.rounds = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            options.secondsPerRound = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
            options.filter = argv[++i];
    }
    return options;
}

} // namespace rvscope::bench
