// SPDX-License-Identifier: MIT
#include <cstdio>

#include <QtCore/QCoreApplication>

#include "BulkWatchCommand.h"
#include "CheckCommand.h"
#include "ClientCommand.h"
#include "CommandLine.h"
#include "OpenSslAtExit.h"
#include "ScenarioCommand.h"
#include "ServeCommand.h"
#include "WindowProcess.h"

namespace {

// A GUI needs a display server, unless the user chose a Qt platform (offscreen, vnc, ...).
bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

int runHeadless(int argc, char **argv, const rvscope::app::ServeOptions &options)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rvscope"));
    return rvscope::app::runServe(options);
}

} // namespace

int main(int argc, char **argv)
{
    rvscope::app::leaveOpenSslStateToProcessExit();
    using rvscope::app::Command;
    const Command command = rvscope::app::parseCommandLine(rvscope::app::argumentsOf(argc, argv));
    switch (command.kind) {
    case Command::Kind::Help:
        std::fputs(qPrintable(rvscope::app::usageText()), stdout);
        return 0;
    case Command::Kind::Version:
        std::puts("rvscope " RVSCOPE_VERSION);
        return 0;
    case Command::Kind::Error:
        std::fprintf(stderr, "rvscope: %s\n", qPrintable(command.error));
        return 2;
    case Command::Kind::Serve:
        return runHeadless(argc, argv, command.serve);
    case Command::Kind::Scenario: {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rvscope"));
        return rvscope::app::runScenarioCommand(command.scenario);
    }
    case Command::Kind::Client: {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rvscope"));
        return rvscope::app::runClientCommand(command.client);
    }
    case Command::Kind::BulkWatch: {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rvscope"));
        return rvscope::app::runBulkWatchCommand(command.bulkWatch);
    }
    case Command::Kind::Check:
        return rvscope::app::runCheckCommand(command.check);
    case Command::Kind::Gui:
        break;
    }

    if (!hasDisplay()) {
        std::fputs("rvscope: no display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot "
                   "open; serving headless instead (`rvscope serve --help` for options).\n",
                   stderr);
        return runHeadless(argc, argv, command.serve);
    }
    if (const QString refused = rvscope::app::windowOptionsError(command.serve); !refused.isEmpty()) {
        std::fprintf(stderr, "rvscope: %s\n", qPrintable(refused));
        return 2;
    }
    // The window is its own executable, so that nothing else here loads Widgets or Gui.
    if (const int failed = rvscope::app::execWindowProcess(argc, argv))
        return failed;
    return runHeadless(argc, argv, command.serve);
}
