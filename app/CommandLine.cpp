// SPDX-License-Identifier: MIT
#include "CommandLine.h"

#include <optional>
#include <utility>

#include <QtCore/QUrl>

#include "sim/ClientSpec.h"

namespace rvscope::app {
namespace {

Command only(Command::Kind kind)
{
    Command command;
    command.kind = kind;
    return command;
}

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

// "8Mi", "512Ki", "1Gi", "4096": a size in bytes (the Kubernetes quantity suffixes).
std::optional<std::size_t> parseByteSize(QString text)
{
    std::size_t unit = 1;
    for (const auto &[suffix, factor] : {std::pair{u"Ki", 1024ull}, std::pair{u"Mi", 1024ull * 1024}, std::pair{u"Gi", 1024ull * 1024 * 1024}}) {
        if (text.endsWith(QStringView(suffix))) {
            unit = factor;
            text.chop(2);
            break;
        }
    }
    bool ok = false;
    const qulonglong n = text.toULongLong(&ok);
    if (!ok || n > (1ull << 40) / unit)
        return std::nullopt;
    return static_cast<std::size_t>(n * unit);
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
        } else if (takeValue(args, i, QStringLiteral("--token-file"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--token-file needs a file (token,user,uid,\"group1,group2\" per line)"));
            command.serve.tokenFile = value;
        } else if (takeValue(args, i, QStringLiteral("--policy-file"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--policy-file needs a file"));
            command.serve.policyFile = value;
        } else if (arg == u"--anonymous") {
            command.serve.anonymous = 1;
        } else if (arg == u"--no-anonymous") {
            command.serve.anonymous = 0;
        } else if (takeValue(args, i, QStringLiteral("--acl-recheck"), value)) {
            bool ok = false;
            int ms = -1;
            if (value.endsWith(u"ms"))
                ms = value.chopped(2).toInt(&ok);
            else if (value.endsWith(u's'))
                ms = int(value.chopped(1).toDouble(&ok) * 1000);
            if (!ok || ms < 10 || ms > 3'600'000)
                return fail(QStringLiteral("--acl-recheck expects a period such as 1s or 250ms (10ms to 1h), got '%1'").arg(value));
            command.serve.aclRecheckMs = ms;
        } else if (takeValue(args, i, QStringLiteral("--tls-cert"), value)) {
            command.serve.tlsCertificate = value;
        } else if (takeValue(args, i, QStringLiteral("--tls-key"), value)) {
            command.serve.tlsKey = value;
        } else if (takeValue(args, i, QStringLiteral("--separate-storage"), value)) {
            const QStringList types = value.split(u',', Qt::SkipEmptyParts);
            if (types.isEmpty())
                return fail(QStringLiteral("--separate-storage needs group resources, such as events or "
                                           "events,leases.coordination.k8s.io"));
            for (const QString &type : types) {
                if (!command.serve.separateStorage.contains(type.trimmed()))
                    command.serve.separateStorage.append(type.trimmed());
            }
        } else if (takeValue(args, i, QStringLiteral("--watch-backlog"), value)) {
            const std::optional<std::size_t> bytes = parseByteSize(value);
            if (!bytes)
                return fail(QStringLiteral("--watch-backlog expects a size such as 8Mi, 512Ki or 0 (unbounded), got '%1'")
                                .arg(value));
            command.serve.maxWatchBacklog = *bytes;
        } else if (takeValue(args, i, QStringLiteral("--data-dir"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--data-dir expects a directory"));
            command.serve.dataDir = value;
        } else if (takeValue(args, i, QStringLiteral("--journal-size"), value)) {
            bool ok = false;
            const qulonglong n = value.toULongLong(&ok);
            if (!ok || n > 100'000'000)
                return fail(QStringLiteral("--journal-size expects a number of operations from 0 (off) to 100000000, got '%1'").arg(value));
            command.serve.journalSize = static_cast<std::size_t>(n);
        } else {
            return fail(QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(arg));
        }
    }
    if (command.serve.tlsCertificate.isEmpty() != command.serve.tlsKey.isEmpty())
        return fail(QStringLiteral("--tls-cert and --tls-key go together"));
    return command;
}

bool parseCount(const QString &flag, const QString &value, int min, int max, int &out, QString &error)
{
    bool ok = false;
    const int n = value.toInt(&ok);
    if (!ok || n < min || n > max) {
        error = QStringLiteral("%1 expects a number from %2 to %3, got '%4'").arg(flag).arg(min).arg(max).arg(value);
        return false;
    }
    out = n;
    return true;
}

bool parseSeed(const QString &value, quint64 &out, QString &error)
{
    bool ok = false;
    out = value.toULongLong(&ok);
    if (!ok)
        error = QStringLiteral("--seed expects a non-negative integer, got '%1'").arg(value);
    return ok;
}

Command parseScenario(const QStringList &args)
{
    Command command;
    command.kind = Command::Kind::Scenario;
    if (args.size() < 3)
        return fail(QStringLiteral("scenario needs 'list' or 'run NAME' (see rvscope --help)"));
    if (args[2] == u"--help" || args[2] == u"-h")
        return only(Command::Kind::Help);
    if (args[2] == u"list") {
        command.scenario.list = true;
        if (args.size() > 3)
            return fail(QStringLiteral("scenario list takes no arguments"));
        return command;
    }
    if (args[2] != u"run")
        return fail(QStringLiteral("unknown scenario command '%1' (use list or run)").arg(args[2]));
    for (qsizetype i = 3; i < args.size(); ++i) {
        QString value;
        QString error;
        if (takeValue(args, i, QStringLiteral("--seed"), value)) {
            if (!parseSeed(value, command.scenario.seed, error))
                return fail(error);
        } else if (takeValue(args, i, QStringLiteral("--export"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--export needs a file name"));
            command.scenario.exportPath = value;
        } else if (args[i] == u"--check") {
            command.scenario.check = true;
        } else if (args[i].startsWith(u'-')) {
            return fail(QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(args[i]));
        } else if (command.scenario.nameOrPath.isEmpty()) {
            command.scenario.nameOrPath = args[i];
        } else {
            return fail(QStringLiteral("scenario run takes one scenario, got '%1' too").arg(args[i]));
        }
    }
    if (command.scenario.nameOrPath.isEmpty())
        return fail(QStringLiteral("scenario run needs a scenario name or file (rvscope scenario list)"));
    return command;
}

Command parseClient(const QStringList &args)
{
    Command command;
    command.kind = Command::Kind::Client;
    ClientOptions &options = command.client;
    for (qsizetype i = 2; i < args.size(); ++i) {
        QString value;
        QString error;
        bool ok = true;
        if (args[i] == u"--help" || args[i] == u"-h")
            return only(Command::Kind::Help);
        if (args[i] == u"--json") {
            options.json = true;
        } else if (takeValue(args, i, QStringLiteral("--server"), value)) {
            const QUrl url(value);
            if (!url.isValid() || (url.scheme() != u"http") || url.host().isEmpty())
                return fail(QStringLiteral("--server expects http://HOST:PORT, got '%1'").arg(value));
            options.server = value;
        } else if (takeValue(args, i, QStringLiteral("--clients"), value)) {
            ok = parseCount(QStringLiteral("--clients"), value, 1, 10000, options.clients, error);
        } else if (takeValue(args, i, QStringLiteral("--objects"), value)) {
            ok = parseCount(QStringLiteral("--objects"), value, 1, 100000, options.objects, error);
        } else if (takeValue(args, i, QStringLiteral("--operations"), value)) {
            ok = parseCount(QStringLiteral("--operations"), value, 0, 100000000, options.operations, error);
        } else if (takeValue(args, i, QStringLiteral("--strategy"), value)) {
            options.strategy = value;
        } else if (takeValue(args, i, QStringLiteral("--think"), value)) {
            options.thinkTime = value;
        } else if (takeValue(args, i, QStringLiteral("--seed"), value)) {
            ok = parseSeed(value, options.seed, error);
        } else if (takeValue(args, i, QStringLiteral("--name"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--name needs a client name prefix"));
            options.namePrefix = value;
        } else {
            return fail(QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(args[i]));
        }
        if (!ok)
            return fail(error);
    }
    return command;
}

// `client bulk-watch`: --server and at least one --watch are required.
Command parseBulkWatch(const QStringList &args, qsizetype start)
{
    Command command;
    command.kind = Command::Kind::BulkWatch;
    BulkWatchOptions &options = command.bulkWatch;
    for (qsizetype i = start; i < args.size(); ++i) {
        QString value;
        if (args[i] == u"--help" || args[i] == u"-h")
            return only(Command::Kind::Help);
        if (args[i] == u"--json") {
            options.json = true;
        } else if (args[i] == u"--insecure-skip-tls-verify") {
            options.insecureSkipTlsVerify = true;
        } else if (takeValue(args, i, QStringLiteral("--server"), value)) {
            const QUrl url(value);
            static const QStringList schemes = {QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("ws"),
                                                QStringLiteral("wss")};
            if (!url.isValid() || !schemes.contains(url.scheme()) || url.host().isEmpty())
                return fail(QStringLiteral("--server expects http(s)://HOST:PORT, got '%1'").arg(value));
            options.server = value;
        } else if (takeValue(args, i, QStringLiteral("--token"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--token needs a bearer token"));
            options.token = value;
        } else if (takeValue(args, i, QStringLiteral("--certificate-authority"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--certificate-authority needs a PEM file"));
            options.certificateAuthority = value;
        } else if (takeValue(args, i, QStringLiteral("--watch"), value)) {
            if (value.isEmpty())
                return fail(QStringLiteral("--watch needs a SPEC: RESOURCE[.GROUP][/NAMESPACE[/NAME]]"));
            QString error;
            auto spec = parseBulkWatchSpec(value, error);
            if (!spec)
                return fail(error);
            options.watches.append(*spec);
        } else {
            return fail(QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(args[i]));
        }
    }
    if (options.server.isEmpty())
        return fail(QStringLiteral("client bulk-watch needs --server URL (e.g. http://127.0.0.1:8001)"));
    if (options.watches.isEmpty())
        return fail(QStringLiteral("client bulk-watch needs at least one --watch SPEC (e.g. --watch secrets/default)"));
    if (options.insecureSkipTlsVerify && !options.certificateAuthority.isEmpty())
        return fail(QStringLiteral("--certificate-authority and --insecure-skip-tls-verify exclude each other"));
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
        return only(Command::Kind::Help);
    if (first == u"--version")
        return only(Command::Kind::Version);
    if (first == u"serve")
        return parseServerOptions(Command::Kind::Serve, arguments, 2);
    if (first == u"scenario")
        return parseScenario(arguments);
    if (first == u"client" && arguments.size() > 2 && arguments[2] == u"bulk-watch")
        return parseBulkWatch(arguments, 3);
    if (first == u"client")
        return parseClient(arguments);
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
    const auto strategyHelp = [] {
        QString text;
        for (const sim::WriteStrategy strategy : sim::allStrategies())
            text += QStringLiteral("      %1  %2\n")
                        .arg(QString::fromStdString(sim::strategyName(strategy)), -16)
                        .arg(QString::fromStdString(sim::strategyDescription(strategy)));
        return text;
    };
    return QStringLiteral(
        "rvscope: see and test Kubernetes-style optimistic concurrency.\n"
        "\n"
        "Usage:\n"
        "  rvscope [gui] [serve options]  Open the desktop lab (main window). Without a display\n"
        "                                 (no DISPLAY/WAYLAND_DISPLAY and no QT_QPA_PLATFORM) it\n"
        "                                 says so and runs `serve` with the same options.\n"
        "  rvscope serve [options]        Run the embedded apiserver headless.\n"
        "  rvscope scenario list          List the built-in scenarios.\n"
        "  rvscope scenario run NAME|FILE [--seed S] [--export FILE] [--check]\n"
        "                                 Run a scenario to its end on a fresh core, as fast as\n"
        "                                 possible; print each step, the history and (--check)\n"
        "                                 the checkers' verdicts. --export writes the history as\n"
        "                                 JSON Lines. Exit 0 when every step got the status its\n"
        "                                 script expects and (--check) every verdict is the one\n"
        "                                 the scenario teaches, 1 otherwise.\n"
        "  rvscope client [options]       Competing clients against a server over HTTP, each\n"
        "                                 incrementing data.counter of ConfigMaps; prints a\n"
        "                                 summary.\n"
        "  rvscope client bulk-watch --server URL --watch SPEC [--watch SPEC ...] [options]\n"
        "                                 Open one bulk watch websocket, one channel per --watch,\n"
        "                                 and print one line per server frame until every\n"
        "                                 channel has ended, the server closes the connection, or\n"
        "                                 SIGINT/SIGTERM.\n"
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
        "  --data-dir DIR                 Keep the store in DIR (created if missing) and restore it\n"
        "                                 on the next start: every write is acknowledged once it\n"
        "                                 is on disk (fsync'd in groups). Watches resume from the\n"
        "                                 restored revision on; older ones get 410.\n"
        "  --journal-size N               Operations (and watch deliveries) the history journal\n"
        "                                 keeps, oldest dropped first (default 0: off, since\n"
        "                                 nothing reads it headless; it costs ~10-18% under load).\n"
        "  --token-file FILE              Bearer tokens, the apiserver's static token file format\n"
        "                                 (token,user,uid,\"group1,group2\"); a bad token gets 401.\n"
        "  --policy-file FILE             Authorization rules (JSON, see README); without it any\n"
        "                                 authenticated user may do anything. The node authorizer\n"
        "                                 (system:node:<n>) applies whenever either file is given.\n"
        "  --anonymous | --no-anonymous   Whether requests without a token are system:anonymous\n"
        "                                 (default: only when listening on loopback).\n"
        "  --acl-recheck PERIOD           Re-authorize open watches this often (default 1s); a watch\n"
        "                                 that lost access ends with an ERROR event (403).\n"
        "  --tls-cert FILE --tls-key FILE Serve HTTPS (PEM); kubectl sends tokens only over TLS.\n"
        "  --separate-storage TYPES       Keep these group resources (comma-separated, e.g.\n"
        "                                 events,leases.coordination.k8s.io) in storages of their\n"
        "                                 own: their resourceVersions count in a series of their own.\n"
        "  --watch-backlog SIZE           Bytes a watch's client may leave unread (default 8Mi;\n"
        "                                 0: unbounded); past it the watch ends with ERROR 410.\n"
        "\n"
        "SIGINT/SIGTERM stop the server cleanly.\n"
        "\n"
        "client options:\n"
        "  --server URL                   API server (default http://127.0.0.1:8001).\n"
        "  --clients N                    Concurrent clients in this process (default 1).\n"
        "  --strategy S                   How each write is made (default retry-default):\n"
        "%1"
        "  --objects N                    ConfigMaps counter-0..N-1 in default (default 1: a hot key).\n"
        "  --operations N                 Increments per client (default 100).\n"
        "  --think T                      Think time between read and write: 5ms, 2-10ms\n"
        "                                 (uniform) or exp:5ms (default 1-5ms).\n"
        "  --seed S                       Random seed (default 1).\n"
        "  --name PREFIX                  Client names PREFIX1..N (default client-).\n"
        "  --json                         Print only the summary, as one JSON line.\n"
        "\n"
        "client bulk-watch options:\n"
        "  --server URL                   API server, http(s)://HOST:PORT (required).\n"
        "  --token TOKEN                  Bearer token for the websocket handshake.\n"
        "  --certificate-authority FILE   PEM certificate(s) the server's certificate must chain to.\n"
        "  --insecure-skip-tls-verify     Do not verify the server's certificate.\n"
        "  --watch SPEC                   RESOURCE[.GROUP][/NAMESPACE[/NAME]][?OPTIONS], e.g.\n"
        "                                 secrets/default/db-password, pods/default, configmaps,\n"
        "                                 deployments.apps/default, nodes//n1 (no namespace),\n"
        "                                 'pods/default?labelSelector=app=web&resourceVersion=42'.\n"
        "                                 OPTIONS: labelSelector, fieldSelector, resourceVersion\n"
        "                                 (a & in a value as %26). Repeat for more channels.\n"
        "  --json                         Print every server frame verbatim, one JSON per line.\n"
        "  Lines: `channel C opened: SPEC`, `request N rejected (SPEC): CODE Reason: message`,\n"
        "  `channel C ADDED|MODIFIED|DELETED RESOURCE NAMESPACE/NAME rv=RV`, `channel C closed:\n"
        "  CODE Reason: message` (an ERROR event ends that channel only). Exit 0 when the watch\n"
        "  ended normally (every channel ended after one opened, the server closed the socket,\n"
        "  or a signal), 1 when it failed after connecting (every request rejected, connection\n"
        "  lost), 2 when it could not start (bad arguments, server unreachable, TLS failure,\n"
        "  token rejected).\n")
        .arg(strategyHelp());
}

} // namespace rvscope::app
