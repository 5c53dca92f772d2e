// SPDX-License-Identifier: MIT
#include "CommandLine.h"

namespace rvscope::app {
namespace {

Command fail(QString message)
{
    Command command;
    command.kind = Command::Kind::Error;
    command.error = std::move(message);
    return command;
}

// "ADDR:PORT", "[v6]:PORT" or ":PORT"; port 0 means any free port.
bool parseListen(const QString &value, ServeOptions &options, QString &error)
{
    const qsizetype colon = value.lastIndexOf(u':');
    if (colon < 0) {
        error = QStringLiteral("--listen expects ADDR:PORT, got '%1'").arg(value);
        return false;
    }
    QString host = value.left(colon);
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = value.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535) {
        error = QStringLiteral("--listen: '%1' is not a port number (0-65535)").arg(value.mid(colon + 1));
        return false;
    }
    QHostAddress address = host.isEmpty() || host == u"localhost" ? QHostAddress(QHostAddress::LocalHost)
                                                                   : QHostAddress(host);
    if (address.isNull()) {
        error = QStringLiteral("--listen: '%1' is not an IP address").arg(host);
        return false;
    }
    options.address = address;
    options.port = static_cast<quint16>(port);
    return true;
}

// Accepts "--flag value" and "--flag=value"; advances `i` past the value.
bool takeValue(const QStringList &args, qsizetype &i, const QString &flag, QString &value)
{
    const QString &arg = args[i];
    if (arg.startsWith(flag + u'=')) {
        value = arg.mid(flag.size() + 1);
        return true;
    }
    if (arg != flag)
        return false;
    if (i + 1 >= args.size()) {
        value.clear();
        return true;
    }
    value = args[++i];
    return true;
}

// The options of `serve`, also accepted by the GUI for its embedded server.
Command parseServerOptions(Command::Kind kind, const QStringList &args, qsizetype start)
{
    Command command;
    command.kind = kind;
    for (qsizetype i = start; i < args.size(); ++i) {
        const QString &arg = args[i];
        QString value;
        if (arg == u"--help" || arg == u"-h") {
            command.kind = Command::Kind::Help;
            return command;
        }
        if (takeValue(args, i, QStringLiteral("--listen"), value)) {
            QString error;
            if (value.isEmpty())
                return fail(QStringLiteral("--listen needs a value (ADDR:PORT)"));
            if (!parseListen(value, command.serve, error))
                return fail(error);
        } else if (takeValue(args, i, QStringLiteral("--watch-history"), value)) {
            bool ok = false;
            const qulonglong n = value.toULongLong(&ok);
            if (!ok || n == 0)
                return fail(QStringLiteral("--watch-history expects a positive number of events, got '%1'").arg(value));
            command.serve.watchHistory = static_cast<std::size_t>(n);
        } else {
            return fail(QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(arg));
        }
    }
    return command;
}

} // namespace

Command parseCommandLine(const QStringList &arguments)
{
    // arguments[0] is the program.
    if (arguments.size() <= 1)
        return Command{};
    const QString &first = arguments[1];
    if (first == u"--help" || first == u"-h" || first == u"help")
        return Command{Command::Kind::Help, {}, {}};
    if (first == u"--version")
        return Command{Command::Kind::Version, {}, {}};
    if (first == u"serve")
        return parseServerOptions(Command::Kind::Serve, arguments, 2);
    if (first == u"gui")
        return parseServerOptions(Command::Kind::Gui, arguments, 2);
    if (first.startsWith(u"--"))
        return parseServerOptions(Command::Kind::Gui, arguments, 1);
    // Qt's own GUI options (-platform, -style, ...) go to QApplication.
    if (first.startsWith(u'-'))
        return Command{};
    return fail(QStringLiteral("unknown command '%1' (see rvscope --help)").arg(first));
}

QString usageText()
{
    return QStringLiteral(
        "rvscope: see and test Kubernetes-style optimistic concurrency.\n"
        "\n"
        "Usage:\n"
        "  rvscope [gui] [serve options]  Open the desktop lab (main window). Without a display\n"
        "                                 (no DISPLAY/WAYLAND_DISPLAY and no QT_QPA_PLATFORM) it\n"
        "                                 says so and runs `serve` with the same options.\n"
        "  rvscope serve [options]        Run the embedded apiserver headless.\n"
        "  rvscope --help                 Show this help.\n"
        "  rvscope --version              Show the version.\n"
        "\n"
        "serve options:\n"
        "  --listen ADDR:PORT             Address to listen on (default 127.0.0.1:8001; port 0\n"
        "                                 picks a free port). Prints `listening on\n"
        "                                 http://ADDR:PORT` once connections are accepted.\n"
        "  --watch-history N              Change events kept for watch and resume (default\n"
        "                                 10000). A watch from an older resourceVersion gets\n"
        "                                 410 Expired.\n"
        "\n"
        "SIGINT/SIGTERM stop the server cleanly.\n");
}

} // namespace rvscope::app
