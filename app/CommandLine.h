// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtNetwork/QHostAddress>

namespace rvscope::app {

struct ServeOptions final {
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8001;
    std::size_t watchHistory = 10000;
};

// What the command line asks for. Parsing never exits the process; main() acts on it.
struct Command final {
    enum class Kind { Gui, Serve, Help, Version, Error };
    Kind kind = Kind::Gui;
    ServeOptions serve;
    QString error; // for Kind::Error: what was wrong, in one line
};

Command parseCommandLine(const QStringList &arguments);
QString usageText();

} // namespace rvscope::app
