// SPDX-License-Identifier: MIT
#include "CommandLine.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <QtCore/QUrl>

#include "OptionTable.h"
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

// "ADDR:PORT", "[v6]:PORT" or ":PORT"; port 0 means any free port.
QString parseListen(EngineOptions &options, const QString &value)
{
    if (value.isEmpty())
        return QStringLiteral("--listen needs a value (ADDR:PORT)");
    const qsizetype colon = value.lastIndexOf(u':');
    if (colon < 0)
        return QStringLiteral("--listen expects ADDR:PORT, got '%1'").arg(value);
    QString host = value.left(colon);
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = value.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535)
        return QStringLiteral("--listen: '%1' is not a port number (0-65535)").arg(value.mid(colon + 1));
    const QHostAddress address = host.isEmpty() || host == u"localhost" ? QHostAddress(QHostAddress::LocalHost)
                                                                         : QHostAddress(host);
    if (address.isNull())
        return QStringLiteral("--listen: '%1' is not an IP address").arg(host);
    options.address = address;
    options.port = static_cast<quint16>(port);
    return {};
}

QString listenText(const EngineOptions &options)
{
    const QString host = options.address.protocol() == QAbstractSocket::IPv6Protocol
        ? QStringLiteral("[%1]").arg(options.address.toString())
        : options.address.toString();
    return QStringLiteral("%1:%2").arg(host).arg(options.port);
}

constexpr std::pair<char16_t, std::size_t> BYTE_UNITS[] = {{u'G', 1024ull * 1024 * 1024}, {u'M', 1024ull * 1024}, {u'K', 1024}};

// "8Mi", "512Ki", "1Gi", "4096": a size in bytes (the Kubernetes quantity suffixes).
std::optional<std::size_t> parseByteSize(QString text)
{
    std::size_t unit = 1;
    for (const auto &[letter, factor] : BYTE_UNITS) {
        if (text.size() > 2 && text.endsWith(u'i') && text.at(text.size() - 2) == QChar(letter)) {
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

QString byteSizeText(std::size_t bytes)
{
    for (const auto &[letter, factor] : BYTE_UNITS) {
        if (bytes >= factor && bytes % factor == 0)
            return QString::number(qulonglong(bytes / factor)) + QChar(letter) + u'i';
    }
    return QString::number(qulonglong(bytes));
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

QString number(std::size_t n)
{
    return QString::number(qulonglong(n));
}

// The options of `serve`, also taken by the window for its embedded server.
const OptionTable<EngineOptions> &serveOptions()
{
    static const OptionTable<EngineOptions> table = {
        {QStringLiteral("--listen"), QStringLiteral("ADDR:PORT"),
         QStringLiteral("Address to listen on (port 0 picks a free port). `serve` prints `listening on "
                        "http://ADDR:PORT` once connections are accepted."),
         parseListen, listenText},
        {QStringLiteral("--watch-history"), QStringLiteral("N"),
         QStringLiteral("Change events kept for watch and resume. A watch from an older resourceVersion gets 410 "
                        "Expired."),
         [](EngineOptions &o, const QString &value) {
             bool ok = false;
             const qulonglong n = value.toULongLong(&ok);
             if (!ok || n == 0)
                 return QStringLiteral("--watch-history expects a positive number of events, got '%1'").arg(value);
             o.watchHistory = static_cast<std::size_t>(n);
             return QString();
         },
         [](const EngineOptions &o) { return number(o.watchHistory); }},
        {QStringLiteral("--data-dir"), QStringLiteral("DIR"),
         QStringLiteral("Keep the store in DIR (created if missing) and restore it on the next start: a write is "
                        "acknowledged, and seen by reads and watches, once it is on disk (fsync'd in groups). The "
                        "watch history is kept too, so watches resume across a restart. `serve` only."),
         [](EngineOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--data-dir expects a directory");
             o.dataDir = value;
             return QString();
         }},
        {QStringLiteral("--storage"), QStringLiteral("memory|etcd"),
         QStringLiteral("Where the served objects live: memory (the embedded store; durable with --data-dir), or a "
                        "real etcd v3 cluster (--etcd-endpoints), which several rvscope instances may share; the "
                        "window then shows the other instances' writes, until a scenario runs (in memory)."),
         [](EngineOptions &o, const QString &value) {
             if (value == QStringLiteral("memory"))
                 o.storageKind = EngineOptions::StorageKind::Memory;
             else if (value == QStringLiteral("etcd"))
                 o.storageKind = EngineOptions::StorageKind::Etcd;
             else
                 return QStringLiteral("--storage expects memory or etcd, got '%1'").arg(value);
             return QString();
         },
         [](const EngineOptions &o) {
             return o.storageKind == EngineOptions::StorageKind::Etcd ? QStringLiteral("etcd") : QStringLiteral("memory");
         }},
        {QStringLiteral("--etcd-endpoints"), QStringLiteral("URL[,URL...]"),
         QStringLiteral("The etcd cluster's client URLs for --storage etcd; requests fail over from one member to "
                        "the next."),
         [](EngineOptions &o, const QString &value) {
             QStringList endpoints;
             for (const QString &endpoint : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                 const QString trimmed = endpoint.trimmed();
                 if (!trimmed.startsWith(QStringLiteral("http://")) && !trimmed.startsWith(QStringLiteral("https://")))
                     return QStringLiteral("--etcd-endpoints expects http:// or https:// URLs, got '%1'").arg(trimmed);
                 endpoints << trimmed;
             }
             if (endpoints.isEmpty())
                 return QStringLiteral("--etcd-endpoints expects at least one URL");
             o.etcdEndpoints = endpoints;
             return QString();
         },
         [](const EngineOptions &o) { return o.etcdEndpoints.join(QLatin1Char(',')); }},
        {QStringLiteral("--etcd-prefix"), QStringLiteral("PREFIX"),
         QStringLiteral("The etcd key prefix of every object (like kube-apiserver's --etcd-prefix); deployments "
                        "with different prefixes share one etcd without seeing each other."),
         [](EngineOptions &o, const QString &value) {
             if (!value.startsWith(QLatin1Char('/')) || value.size() < 2)
                 return QStringLiteral("--etcd-prefix expects a key prefix such as /registry, got '%1'").arg(value);
             o.etcdPrefix = value;
             return QString();
         },
         [](const EngineOptions &o) { return o.etcdPrefix; }},
        {QStringLiteral("--etcd-servers-overrides"), QStringLiteral("TYPE#URL[;URL...][,...]"),
         QStringLiteral("Keep a group resource on another etcd cluster, in a revision series of its own (like "
                        "kube-apiserver's flag), e.g. events#http://127.0.0.1:2479 (with --storage etcd)."),
         [](EngineOptions &o, const QString &value) {
             for (const QString &item : value.split(u',', Qt::SkipEmptyParts)) {
                 const QStringList parts = item.trimmed().split(u'#');
                 QStringList endpoints;
                 for (const QString &endpoint : parts.value(1).split(u';', Qt::SkipEmptyParts))
                     endpoints << endpoint.trimmed();
                 const bool urls = std::all_of(endpoints.begin(), endpoints.end(), [](const QString &endpoint) {
                     return endpoint.startsWith(QStringLiteral("http://")) || endpoint.startsWith(QStringLiteral("https://"));
                 });
                 QString type = parts.value(0).trimmed();
                 if (type.startsWith(u'/')) // kube-apiserver's form for the core group: /events
                     type = type.mid(1);
                 if (parts.size() != 2 || type.isEmpty() || endpoints.isEmpty() || !urls)
                     return QStringLiteral("--etcd-servers-overrides expects TYPE#URL[;URL...] items such as "
                                           "events#http://127.0.0.1:2479, got '%1'")
                         .arg(item);
                 o.etcdServersOverrides[type] = endpoints;
                 if (!o.separateStorage.contains(type))
                     o.separateStorage.append(type);
             }
             return QString();
         },
         [](const EngineOptions &o) {
             QStringList items;
             for (auto it = o.etcdServersOverrides.begin(); it != o.etcdServersOverrides.end(); ++it)
                 items << it.key() + u'#' + it.value().join(u';');
             return items.join(u',');
         }},
        {QStringLiteral("--journal-size"), QStringLiteral("N"),
         QStringLiteral("Operations (and watch deliveries) the history journal keeps, oldest dropped first; 0 turns "
                        "it off, and with it the window's timeline, tables and checkers."),
         [](EngineOptions &o, const QString &value) {
             bool ok = false;
             const qulonglong n = value.toULongLong(&ok);
             if (!ok || n > 100'000'000)
                 return QStringLiteral("--journal-size expects a number of operations from 0 (off) to 100000000, "
                                       "got '%1'")
                     .arg(value);
             o.journalSize = static_cast<std::size_t>(n);
             return QString();
         },
         [](const EngineOptions &) {
             return QStringLiteral("%1 in the window; 0 for `serve`, where nothing reads it and it costs 5-15% of "
                                   "the request rate")
                 .arg(number(EngineOptions::LAB_JOURNAL_SIZE));
         }},
        {QStringLiteral("--token-file"), QStringLiteral("FILE"),
         QStringLiteral("Bearer tokens, the apiserver's static token file format (token,user,uid,\"group1,group2\"); a "
                        "bad token gets 401."),
         [](EngineOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--token-file needs a file (token,user,uid,\"group1,group2\" per line)");
             o.tokenFile = value;
             return QString();
         }},
        {QStringLiteral("--policy-file"), QStringLiteral("FILE"),
         QStringLiteral("Authorization rules (JSON, see README); without it any authenticated user may do anything. "
                        "The node authorizer (system:node:<n>) applies whenever either file is given."),
         [](EngineOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--policy-file needs a file");
             o.policyFile = value;
             return QString();
         }},
        {QStringLiteral("--anonymous"), QString(),
         QStringLiteral("Requests without a token are system:anonymous (default: only when listening on loopback)."),
         [](EngineOptions &o, const QString &) {
             o.anonymous = EngineOptions::Anonymous::Allowed;
             return QString();
         }},
        {QStringLiteral("--no-anonymous"), QString(), QStringLiteral("Requests without a token get 401."),
         [](EngineOptions &o, const QString &) {
             o.anonymous = EngineOptions::Anonymous::Refused;
             return QString();
         }},
        {QStringLiteral("--acl-recheck"), QStringLiteral("PERIOD"),
         QStringLiteral("Re-authorize open watches this often (10ms to 1h); a watch that lost access ends with an "
                        "ERROR event (403)."),
         [](EngineOptions &o, const QString &value) {
             bool ok = false;
             int ms = -1;
             if (value.endsWith(u"ms"))
                 ms = value.chopped(2).toInt(&ok);
             else if (value.endsWith(u's'))
                 ms = int(value.chopped(1).toDouble(&ok) * 1000);
             if (!ok || ms < 10 || ms > 3'600'000)
                 return QStringLiteral("--acl-recheck expects a period such as 1s or 250ms (10ms to 1h), got '%1'")
                     .arg(value);
             o.aclRecheckMs = ms;
             return QString();
         },
         [](const EngineOptions &o) {
             return o.aclRecheckMs % 1000 == 0 ? QStringLiteral("%1s").arg(o.aclRecheckMs / 1000)
                                               : QStringLiteral("%1ms").arg(o.aclRecheckMs);
         }},
        {QStringLiteral("--tls-cert"), QStringLiteral("FILE"),
         QStringLiteral("Serve HTTPS with this PEM certificate (with --tls-key); kubectl sends tokens only over TLS."),
         [](EngineOptions &o, const QString &value) {
             o.tlsCertificate = value;
             return QString();
         }},
        {QStringLiteral("--tls-key"), QStringLiteral("FILE"), QStringLiteral("The PEM private key of --tls-cert."),
         [](EngineOptions &o, const QString &value) {
             o.tlsKey = value;
             return QString();
         }},
        {QStringLiteral("--separate-storage"), QStringLiteral("TYPES"),
         QStringLiteral("Keep these group resources (comma-separated, e.g. events,leases.coordination.k8s.io) in "
                        "storages of their own: their resourceVersions count in a series of their own."),
         [](EngineOptions &o, const QString &value) {
             const QStringList types = value.split(u',', Qt::SkipEmptyParts);
             if (types.isEmpty())
                 return QStringLiteral("--separate-storage needs group resources, such as events or "
                                       "events,leases.coordination.k8s.io");
             for (const QString &type : types) {
                 if (!o.separateStorage.contains(type.trimmed()))
                     o.separateStorage.append(type.trimmed());
             }
             return QString();
         }},
        {QStringLiteral("--watch-backlog"), QStringLiteral("SIZE"),
         QStringLiteral("Bytes a watch's client may leave unread (0: unbounded); past it the watch ends with ERROR "
                        "410."),
         [](EngineOptions &o, const QString &value) {
             const std::optional<std::size_t> bytes = parseByteSize(value);
             if (!bytes)
                 return QStringLiteral("--watch-backlog expects a size such as 8Mi, 512Ki or 0 (unbounded), got "
                                       "'%1'")
                     .arg(value);
             o.maxWatchBacklog = *bytes;
             return QString();
         },
         [](const EngineOptions &o) { return byteSizeText(o.maxWatchBacklog); }},
    };
    return table;
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
         QStringLiteral("ConfigMaps counter-0..N-1 in default (1: a hot key)."),
         [](ClientOptions &o, const QString &value) { return setCount(QStringLiteral("--objects"), value, 1, 100000, o.objects); },
         [](const ClientOptions &o) { return QString::number(o.objects); }},
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
        {QStringLiteral("--export"), QStringLiteral("FILE"), QStringLiteral("Write the history as JSON Lines."),
         [](ScenarioOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--export needs a file name");
             o.exportPath = value;
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
               "  rvscope --help                 Show this help.\n"
               "  rvscope --version              Show the version.\n"
               "\n"
               "serve options (the window takes them too):\n")
        + optionHelp(serveOptions())
        + QStringLiteral("\nSIGINT/SIGTERM stop the server cleanly.\n\nscenario run options:\n")
        + optionHelp(scenarioRunOptions()) + QStringLiteral("\nclient options:\n") + optionHelp(clientOptions())
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
