// SPDX-License-Identifier: MIT
// `serve`'s option table (split from CommandLine.cpp, which parses the commands).
#include "ServeOptionTable.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "faults/FaultRule.h"

namespace rvscope::app {
namespace {

using EngineOptions = engine::EngineOptions;

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

} // namespace

QString number(std::size_t n)
{
    return QString::number(qulonglong(n));
}

int periodMs(const QString &value, int minMs, int maxMs)
{
    bool ok = false;
    double ms = -1;
    if (value.endsWith(u"ms"))
        ms = value.chopped(2).toDouble(&ok);
    else if (value.endsWith(u's'))
        ms = value.chopped(1).toDouble(&ok) * 1000;
    else if (value.endsWith(u'm'))
        ms = value.chopped(1).toDouble(&ok) * 60'000;
    else if (value.endsWith(u'h'))
        ms = value.chopped(1).toDouble(&ok) * 3'600'000;
    return ok && ms >= minMs && ms <= maxMs ? int(ms) : -1;
}

QString periodText(int ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1s").arg(ms / 1000) : QStringLiteral("%1ms").arg(ms);
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
        {QStringLiteral("--fault"), QStringLiteral("RULE"),
         QStringLiteral("Inject a fault (repeatable), e.g. 'update deployments/x every=3 conflict' or 'watch "
                        "deployments/x expire-after=5': VERBS RESOURCE[.GROUP][/NAMESPACE][/NAME] (RESOURCE is the "
                        "plural, checked against the served types), which requests (subresource= user= agent= "
                        "client=), when (every=N, probability=P seed=S, once, times=N) and one action (conflict, "
                        "throttle [retry-after=S], error, timeout, drop, delay=D, delay-after-commit=D, "
                        "drop-after-commit, end-after=N, expire-after=N, stall, compact). "
                        "Rules also come and go at /rvscope/v1/faults (README, \"Fault injection\")."),
         [](EngineOptions &o, const QString &value) {
             auto rule = faults::parseFaultRule(value.toStdString());
             if (!rule)
                 return QStringLiteral("--fault: %1").arg(QString::fromStdString(rule.error().message));
             o.faults.append(value);
             return QString();
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
             return QStringLiteral("%1 in the window and for `serve --export`; 0 for `serve` otherwise, where nothing "
                                   "reads it and it costs 5-15% of the request rate")
                 .arg(number(EngineOptions::LAB_JOURNAL_SIZE));
         }},
        {QStringLiteral("--export"), QStringLiteral("FILE"),
         QStringLiteral("`serve` only: at a clean stop (SIGINT/SIGTERM) stop taking requests and write the history "
                        "journal to FILE as JSON Lines (Secrets' values as REDACTED), for `rvscope check FILE`. Turns "
                        "the journal on (see --journal-size); a full journal keeps the newest records, and the file "
                        "says how many it dropped."),
         [](EngineOptions &o, const QString &value) {
             if (value.isEmpty())
                 return QStringLiteral("--export needs a file name");
             o.exportPath = value;
             return QString();
         }},
        {QStringLiteral("--export-secrets"), QString(), QStringLiteral("Keep Secrets' values in the --export file."),
         [](EngineOptions &o, const QString &) {
             o.exportSecrets = true;
             return QString();
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
             const int ms = periodMs(value, 10, 3'600'000);
             if (ms < 0)
                 return QStringLiteral("--acl-recheck expects a period such as 1s or 250ms (10ms to 1h), got '%1'")
                     .arg(value);
             o.aclRecheckMs = ms;
             return QString();
         },
         [](const EngineOptions &o) { return periodText(o.aclRecheckMs); }},
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
    static const OptionTable<EngineOptions> withLimits = table + limitOptions();
    return withLimits;
}

} // namespace rvscope::app
