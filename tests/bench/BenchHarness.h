// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

// A small side-by-side benchmark harness. The machine is shared and noisy, so each workload
// runs its baseline and rvscope's implementation in alternating rounds within one process
// and reports the medians of each, and the median of the rounds' paired ratios with their
// spread; a goal is a minimum ratio, printed, not asserted.
namespace rvscope::bench {

struct Options {
    int rounds = 9;
    double secondsPerRound = 0.2;
    bool smoke = false; // one short round: keeps the benchmark building and running in ctest
    std::string filter;  // run only workloads whose name contains this
};

// One timed run: calls `body(n)` which must perform n operations; returns ops/s.
double opsPerSecond(const std::function<void(long)> &body, double seconds);

struct Comparison {
    std::string name;
    double ours = 0;
    double baseline = 0;
    double ratio = 0; // the median of the rounds' ours/baseline; 0: ours/baseline of the medians
    double ratioMin = 0;
    double ratioMax = 0;
    double goal = 0; // minimum ratio, 0: none
    std::string unit = "ops/s";
};

// Whether a workload named `name` is selected by --filter.
bool selected(const Options &options, const std::string &name);

// Alternates baseline and ours for options.rounds rounds; medians of each, and of the
// rounds' ratios.
Comparison compare(const std::string &name, const Options &options, const std::function<void(long)> &ours,
                   const std::function<void(long)> &baseline, double goal = 0);

void printHeader(const char *title);
void print(const Comparison &comparison);
// Parses --smoke / --rounds N / --seconds S / --filter TEXT.
Options parseOptions(int argc, char **argv);

} // namespace rvscope::bench
