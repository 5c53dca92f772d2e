// SPDX-License-Identifier: MIT
#include "CommandLine.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <QtCore/QUrl>

#include "OptionTable.h"
#include "ServeOptionTable.h"
#include "sim/ClientSpec.h"

namespace rvscope::app {
namespace {

using EngineOptions = engine::EngineOptions;

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

bool isHelp(const QString &arg)
{
    return arg == u"--help" || arg == u"-h";
}


QString parseCount(const QString &flag, const QString &value, qlonglong min, qlonglong max, qlonglong &out)
{
    bool ok = false;
    const qlonglong n = value.toLongLong(&ok);
    if (!ok || n < min || n > max)
        return QStringLiteral("%1 expects a number from %2 to %3, got '%4'").arg(flag).arg(min).arg(max).arg(value);
    out = n;
    return {};
}

template<typename Int>
QString setCount(const QString &flag, const QString &value, qlonglong min, qlonglong max, Int &out)
{
    qlonglong n = 0;
    QString error = parseCount(flag, value, min, max, n);
    if (error.isEmpty())
        out = static_cast<Int>(n);
    return error;
}

QString setSeed(const QString &value, quint64 &out)
{
    bool ok = false;
    const quint64 seed = value.toULongLong(&ok);
    if (!ok)
        return QStringLiteral("--seed expects a non-negative integer, got '%1'").arg(value);
    out = seed;
    return {};
}



QString strategyHelp()
{
    QString text;
    for (const sim::WriteStrategy strategy : sim::allStrategies())
        text += helpEntry(QStringLiteral("    ") + QString::fromStdString(sim::strategyName(strategy)),
                          QString::fromStdString(sim::strategyDescription(strategy)));
    return text;
}

const OptionTable<ClientOptions> &clientOptions()
{
    static const OptionTable<ClientOptions> table = {
        {QStringLiteral("--server"), QStringLiteral("URL"), QStringLiteral("API server."),
         [](ClientOptions &o, const QString &value) {
             const QUrl url(value);
             if (!url.isValid() || url.scheme() != u"http" || url.host().isEmpty())
                 return QStringLiteral("--server expects http://HOST:PORT, got '%1'").arg(value);
             o.server = value;
             return QString();
         },
         [](const ClientOptions &o) { return o.server; }},
        {QStringLiteral("--clients"), QStringLiteral("N"), QStringLiteral("Concurrent clients in this process."),
         [](ClientOptions &o, const QString &value) { return setCount(QStringLiteral("--clients"), value, 1, 10000, o.clients); },
         [](const ClientOptions &o) { return QString::number(o.clients); }},
        {QStringLiteral("--strategy"), QStringLiteral("S"),
         QStringLiteral("How each write is made, one of the strategies below."),
         [](ClientOptions &o, const QString &value) {
             o.strategy = value;
             return QString();
         },
         [](const ClientOptions &o) { return o.strategy; }},
        {QStringLiteral("--objects"), QStringLiteral("N"),
         QStringLiteral("ConfigMaps PREFIX-0..N-1 in default (1: a hot key; PREFIX: --object-prefix)."),
         [](ClientOptions &o, const QString &value) { return setCount(QStringLiteral("--objects"), value, 1, 100000, o.objects); },
         [](const ClientOptions &o) { return QString::number(o.objects); }},
        {QStringLiteral("--object-prefix"), QStringLiteral("PREFIX"),
         QStringLiteral("Name prefix of the ConfigMaps (and of their Leases, PREFIX-0-lock, for the lease "
                        "strategy), so that client processes race on objects of their own."),
         [](ClientOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--object-prefix needs a name prefix");
             o.objectPrefix = value;
             return QString();
         },
         [](const ClientOptions &o) { return o.objectPrefix; }},
        {QStringLiteral("--operations"), QStringLiteral("N"), QStringLiteral("Increments per client."),
         [](ClientOptions &o, const QString &value) {
             return setCount(QStringLiteral("--operations"), value, 0, 100000000, o.operations);
         },
         [](const ClientOptions &o) { return QString::number(o.operations); }},
        {QStringLiteral("--think"), QStringLiteral("T"),
         QStringLiteral("Think time between read and write: 5ms, 2-10ms (uniform) or exp:5ms."),
         [](ClientOptions &o, const QString &value) {
             o.thinkTime = value;
             return QString();
         },
         [](const ClientOptions &o) { return o.thinkTime; }},
        {QStringLiteral("--seed"), QStringLiteral("S"), QStringLiteral("Random seed."),
         [](ClientOptions &o, const QString &value) { return setSeed(value, o.seed); },
         [](const ClientOptions &o) { return QString::number(o.seed); }},
        {QStringLiteral("--name"), QStringLiteral("PREFIX"), QStringLiteral("Client names PREFIX1..N."),
         [](ClientOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--name needs a client name prefix");
             o.namePrefix = value;
             return QString();
         },
         [](const ClientOptions &o) { return o.namePrefix; }},
        {QStringLiteral("--json"), QString(), QStringLiteral("Print only the summary, as one JSON line."),
         [](ClientOptions &o, const QString &) {
             o.json = true;
             return QString();
         }},
    };
    return table;
}

const OptionTable<BulkWatchOptions> &bulkWatchOptions()
{
    static const OptionTable<BulkWatchOptions> table = {
        {QStringLiteral("--server"), QStringLiteral("URL"), QStringLiteral("API server, http(s)://HOST:PORT (required)."),
         [](BulkWatchOptions &o, const QString &value) {
             static const QStringList schemes = {QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("ws"),
                                                 QStringLiteral("wss")};
             const QUrl url(value);
             if (!url.isValid() || !schemes.contains(url.scheme()) || url.host().isEmpty())
                 return QStringLiteral("--server expects http(s)://HOST:PORT, got '%1'").arg(value);
             o.server = value;
             return QString();
         }},
        {QStringLiteral("--token"), QStringLiteral("TOKEN"), QStringLiteral("Bearer token for the websocket handshake."),
         [](BulkWatchOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--token needs a bearer token");
             o.token = value;
             return QString();
         }},
        {QStringLiteral("--certificate-authority"), QStringLiteral("FILE"),
         QStringLiteral("PEM certificate(s) the server's certificate must chain to."),
         [](BulkWatchOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--certificate-authority needs a PEM file");
             o.certificateAuthority = value;
             return QString();
         }},
        {QStringLiteral("--insecure-skip-tls-verify"), QString(), QStringLiteral("Do not verify the server's certificate."),
         [](BulkWatchOptions &o, const QString &) {
             o.insecureSkipTlsVerify = true;
             return QString();
         }},
        {QStringLiteral("--watch"), QStringLiteral("SPEC"),
         QStringLiteral("RESOURCE[.GROUP][/NAMESPACE[/NAME]][?OPTIONS], e.g. secrets/default/db-password, "
                        "pods/default, configmaps, deployments.apps/default, nodes//n1 (no namespace), "
                        "'pods/default?labelSelector=app=web&resourceVersion=42'. OPTIONS: labelSelector, "
                        "fieldSelector, resourceVersion (a & in a value as %26). Repeat for more channels."),
         [](BulkWatchOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--watch needs a SPEC: RESOURCE[.GROUP][/NAMESPACE[/NAME]]");
             QString error;
             auto spec = parseBulkWatchSpec(value, error);
             if (!spec)
                 return error;
             o.watches.append(*spec);
             return QString();
         }},
        {QStringLiteral("--json"), QString(), QStringLiteral("Print every server frame verbatim, one JSON per line."),
         [](BulkWatchOptions &o, const QString &) {
             o.json = true;
             return QString();
         }},
    };
    return table;
}

const OptionTable<ScenarioOptions> &scenarioRunOptions()
{
    static const OptionTable<ScenarioOptions> table = {
        {QStringLiteral("--seed"), QStringLiteral("S"), QStringLiteral("Random seed of the scenario's clients."),
         [](ScenarioOptions &o, const QString &value) { return setSeed(value, o.seed); },
         [](const ScenarioOptions &o) { return QString::number(o.seed); }},
        {QStringLiteral("--export"), QStringLiteral("FILE"),
         QStringLiteral("Write the history as JSON Lines (Secrets' values as REDACTED)."),
         [](ScenarioOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--export needs a file name");
             o.exportPath = value;
             return QString();
         }},
        {QStringLiteral("--export-secrets"), QString(), QStringLiteral("Keep Secrets' values in the --export file."),
         [](ScenarioOptions &o, const QString &) {
             o.exportSecrets = true;
             return QString();
         }},
        {QStringLiteral("--check"), QString(),
         QStringLiteral("Run the checkers; exit 1 unless every verdict is the one the scenario teaches."),
         [](ScenarioOptions &o, const QString &) {
             o.check = true;
             return QString();
         }},
    };
    return table;
}

const OptionTable<CheckOptions> &checkOptions()
{
    static const OptionTable<CheckOptions> table = {
        {QStringLiteral("--json"), QString(),
         QStringLiteral("Print one JSON object (the counts, what the journal dropped, every verdict with all its "
                        "findings) instead of the verdict lines."),
         [](CheckOptions &o, const QString &) {
             o.json = true;
             return QString();
         }},
    };
    return table;
}

// `serve` and the window: the options of serveOptions().
Command parseServerOptions(Command::Kind kind, const QStringList &args, qsizetype start)
{
    Command command;
    command.kind = kind;
    if (std::any_of(args.begin() + start, args.end(), isHelp))
        return only(Command::Kind::Help);
    if (QString error = parseOptions(serveOptions(), args, start, command.serve); !error.isEmpty())
        return fail(error);
    if (command.serve.tlsCertificate.isEmpty() != command.serve.tlsKey.isEmpty())
        return fail(QStringLiteral("--tls-cert and --tls-key go together"));
    if (command.serve.exportSecrets && command.serve.exportPath.isEmpty())
        return fail(QStringLiteral("--export-secrets needs --export FILE"));
    if (!command.serve.exportPath.isEmpty() && command.serve.journalSize == std::size_t(0))
        return fail(QStringLiteral("--export writes the history journal, which --journal-size 0 turns off: give it a "
                                   "size, or leave --journal-size out (with --export it defaults to %1)")
                        .arg(number(EngineOptions::LAB_JOURNAL_SIZE)));
    return command;
}

Command parseScenario(const QStringList &args)
{
    Command command;
    command.kind = Command::Kind::Scenario;
    if (args.size() < 3)
        return fail(QStringLiteral("scenario needs 'list' or 'run NAME' (see rvscope --help)"));
    if (isHelp(args[2]))
        return only(Command::Kind::Help);
    if (args[2] == u"list") {
        command.scenario.list = true;
        if (args.size() > 3)
            return fail(QStringLiteral("scenario list takes no arguments"));
        return command;
    }
    if (args[2] != u"run")
        return fail(QStringLiteral("unknown scenario command '%1' (use list or run)").arg(args[2]));
    ScenarioOptions &options = command.scenario;
    const QString error = parseOptions(scenarioRunOptions(), args, 3, options, [&options](const QString &word) {
        if (!options.nameOrPath.isEmpty())
            return QStringLiteral("scenario run takes one scenario, got '%1' too").arg(word);
        options.nameOrPath = word;
        return QString();
    });
    if (!error.isEmpty())
        return fail(error);
    if (options.nameOrPath.isEmpty())
        return fail(QStringLiteral("scenario run needs a scenario name or file (rvscope scenario list)"));
    if (options.exportSecrets && options.exportPath.isEmpty())
        return fail(QStringLiteral("--export-secrets needs --export FILE"));
    return command;
}

Command parseClient(const QStringList &args)
{
    Command command;
    command.kind = Command::Kind::Client;
    if (std::any_of(args.begin() + 2, args.end(), isHelp))
        return only(Command::Kind::Help);
    if (QString error = parseOptions(clientOptions(), args, 2, command.client); !error.isEmpty())
        return fail(error);
    return command;
}

Command parseCheck(const QStringList &args)
{
    Command command;
    command.kind = Command::Kind::Check;
    if (std::any_of(args.begin() + 2, args.end(), isHelp))
        return only(Command::Kind::Help);
    CheckOptions &options = command.check;
    const QString error = parseOptions(checkOptions(), args, 2, options, [&options](const QString &word) {
        if (!options.path.isEmpty())
            return QStringLiteral("check takes one history file, got '%1' too").arg(word);
        options.path = word;
        return QString();
    });
    if (!error.isEmpty())
        return fail(error);
    if (options.path.isEmpty())
        return fail(QStringLiteral("check needs a history file (JSON Lines, from serve --export or scenario run --export)"));
    return command;
}

// `client bulk-watch`: --server and at least one --watch are required.
Command parseBulkWatch(const QStringList &args, qsizetype start)
{
    Command command;
    command.kind = Command::Kind::BulkWatch;
    BulkWatchOptions &options = command.bulkWatch;
    if (std::any_of(args.begin() + start, args.end(), isHelp))
        return only(Command::Kind::Help);
    if (QString error = parseOptions(bulkWatchOptions(), args, start, options); !error.isEmpty())
        return fail(error);
    if (options.server.isEmpty())
        return fail(QStringLiteral("client bulk-watch needs --server URL (e.g. http://127.0.0.1:8001)"));
    if (options.watches.isEmpty())
        return fail(QStringLiteral("client bulk-watch needs at least one --watch SPEC (e.g. --watch secrets/default)"));
    if (options.insecureSkipTlsVerify && !options.certificateAuthority.isEmpty())
        return fail(QStringLiteral("--certificate-authority and --insecure-skip-tls-verify exclude each other"));
    return command;
}

} // namespace

QString windowOptionsError(const ServeOptions &options)
{
    // The lab's scenarios start from a fresh store (the first run opens one), which would
    // set the directory's objects aside as soon as the window opened.
    // On etcd the window opens on the shared store instead (no first-run scenario), so that
    // it shows what every instance writes; a scenario played later runs in memory.
    if (!options.dataDir.isEmpty())
        return QStringLiteral("--data-dir is for `rvscope serve`: the desktop lab's scenarios start from a fresh store");
    if (!options.exportPath.isEmpty())
        return QStringLiteral("--export is for `rvscope serve`: the window exports its history from File → Export history");
    return {};
}

QStringList argumentsOf(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

Command parseCommandLine(const QStringList &arguments)
{
    // arguments[0] is the program.
    if (arguments.size() <= 1)
        return Command{};
    const QString &first = arguments[1];
    if (isHelp(first) || first == u"help")
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
    if (first == u"check")
        return parseCheck(arguments);
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
               "  rvscope scenario list          List the built-in scenarios.\n"
               "  rvscope scenario run NAME|FILE [options]\n"
               "                                 Run a scenario to its end on a fresh core, as fast as\n"
               "                                 possible; print each step, the history and (--check)\n"
               "                                 the checkers' verdicts. Exit 0 when every step got the\n"
               "                                 status its script expects and (--check) every verdict\n"
               "                                 is the one the scenario teaches, 1 otherwise.\n"
               "  rvscope client [options]       Competing clients against a server over HTTP, each\n"
               "                                 incrementing data.counter of ConfigMaps; prints a\n"
               "                                 summary.\n"
               "  rvscope client bulk-watch --server URL --watch SPEC [--watch SPEC ...] [options]\n"
               "                                 Open one bulk watch websocket, one channel per --watch,\n"
               "                                 and print one line per server frame until every\n"
               "                                 channel has ended, the server closes the connection, or\n"
               "                                 SIGINT/SIGTERM.\n"
               "  rvscope check FILE [--json]    Run the checkers (lost update, linearizability, watch\n"
               "                                 guarantees) on a history exported by `serve --export` or\n"
               "                                 `scenario run --export`. Exit 0 when none finds a\n"
               "                                 violation, 1 when one does or cannot decide (or the file\n"
               "                                 holds nothing), 2 when the file cannot be read. A history\n"
               "                                 whose journal dropped its oldest records is checked as\n"
               "                                 far as it goes, and each verdict says so.\n"
               "  rvscope --help                 Show this help.\n"
               "  rvscope --version              Show the version.\n"
               "\n"
               "serve options (the window takes them too):\n")
        + optionHelp(serveOptions())
        + QStringLiteral("\nSIGINT/SIGTERM stop the server cleanly (after writing --export FILE).\n\nscenario run "
                         "options:\n")
        + optionHelp(scenarioRunOptions())
        + QStringLiteral("\ncheck options:\n") + optionHelp(checkOptions())
        + QStringLiteral("\nclient options:\n") + optionHelp(clientOptions())
        + QStringLiteral("  Strategies:\n") + strategyHelp() + QStringLiteral("\nclient bulk-watch options:\n")
        + optionHelp(bulkWatchOptions())
        + QStringLiteral(
            "  Lines: `channel C opened: SPEC`, `request N rejected (SPEC): CODE Reason: message`,\n"
            "  `channel C ADDED|MODIFIED|DELETED RESOURCE NAMESPACE/NAME rv=RV`, `channel C closed:\n"
            "  CODE Reason: message` (an ERROR event ends that channel only). Exit 0 when the watch\n"
            "  ended normally (every channel ended after one opened, the server closed the socket,\n"
            "  or a signal), 1 when it failed after connecting (every request rejected, connection\n"
            "  lost), 2 when it could not start (bad arguments, server unreachable, TLS failure,\n"
            "  token rejected).\n");
}

} // namespace rvscope::app
