// SPDX-License-Identifier: MIT
// rvscope-gui: the desktop lab's window, started by `rvscope [gui] [serve options]` (which
// itself never loads a GUI library). It takes the same options as `rvscope gui`.
#include <cstdio>

#include <QtWidgets/QApplication>

#include "CommandLine.h"
#include "OpenSslAtExit.h"
#include "LabWindow.h"

int main(int argc, char **argv)
{
    rvscope::app::leaveOpenSslStateToProcessExit();
    using rvscope::app::Command;
    const Command command = rvscope::app::parseCommandLine(rvscope::app::argumentsOf(argc, argv));
    if (command.kind == Command::Kind::Error) {
        std::fprintf(stderr, "rvscope: %s\n", qPrintable(command.error));
        return 2;
    }
    if (command.kind != Command::Kind::Gui) {
        std::fputs("rvscope-gui opens the window and takes its options only; run rvscope for everything else "
                   "(rvscope --help)\n",
                   stderr);
        return 2;
    }
    if (const QString refused = rvscope::app::windowOptionsError(command.serve); !refused.isEmpty()) {
        std::fprintf(stderr, "rvscope: %s\n", qPrintable(refused));
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rvscope"));
    QApplication::setOrganizationName(QStringLiteral("rvscope"));
    rvscope::app::LabWindow lab(command.serve);
    return QApplication::exec();
}
