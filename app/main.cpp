// SPDX-License-Identifier: MIT
#include <cstdio>
#include <memory>

#include <QtCore/QCoreApplication>
#include <QtWidgets/QApplication>

#include "BulkWatchCommand.h"
#include "ClientCommand.h"
#include "CommandLine.h"
#include "LabWindow.h"
#include "ScenarioCommand.h"
#include "ServeCommand.h"

namespace {

QStringList rawArguments(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

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
    using rvscope::app::Command;
    const Command command = rvscope::app::parseCommandLine(rawArguments(argc, argv));
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
    case Command::Kind::Gui:
        break;
    }

    if (!hasDisplay()) {
        std::fputs("rvscope: no display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot "
                   "open; serving headless instead (`rvscope serve --help` for options).\n",
                   stderr);
        return runHeadless(argc, argv, command.serve);
    }
    if (!command.serve.dataDir.isEmpty()) {
        // The lab's scenarios start from a fresh store (the first run opens one), which
        // would set the directory's objects aside as soon as the window opened.
        std::fputs("rvscope: --data-dir is for `rvscope serve`: the desktop lab's scenarios start from a fresh "
                   "store\n",
                   stderr);
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rvscope"));
    QApplication::setOrganizationName(QStringLiteral("rvscope"));
    rvscope::app::LabWindow lab(command.serve);
    return QApplication::exec();
}
