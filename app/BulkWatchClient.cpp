// SPDX-License-Identifier: MIT
#include "BulkWatchClient.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include <QtCore/QRegularExpression>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>
#include <nlohmann/json.hpp>

#include "VerdictPrinter.h"

namespace rvscope::app {
namespace {

constexpr int HANDSHAKE_TIMEOUT_MS = 15000;
constexpr int CLOSE_TIMEOUT_MS = 2000;
const char *const BULK_PATH = "/apis/bulk.k8s.io/v1/bulkgetoperations";

void writeLine(std::FILE *stream, const QByteArray &line)
{
    std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stream);
    std::fputc('\n', stream);
    std::fflush(stream);
}

void printError(const QString &message)
{
    writeLine(stderr, QByteArrayLiteral("rvscope client bulk-watch: ") + message.toUtf8());
}

// The server URL with the scheme of the transport (http/ws, https/wss) and `path` appended
// to its own path prefix.
QUrl endpoint(const QString &server, bool websocket, const QString &path)
{
    QUrl url(server);
    const bool secure = url.scheme() == u"https" || url.scheme() == u"wss";
    url.setScheme(websocket ? (secure ? QStringLiteral("wss") : QStringLiteral("ws"))
                            : (secure ? QStringLiteral("https") : QStringLiteral("http")));
    QString prefix = url.path();
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    url.setPath(prefix + path);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

QString text(const nlohmann::json &value, const char *key)
{
    if (!value.is_object())
        return {};
    auto it = value.find(key);
    return it != value.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

// "403 Forbidden: secrets is forbidden: ...", as the history journal writes a Status.
QString statusText(const nlohmann::json &status)
{
    if (!status.is_object())
        return QString::fromStdString(status.dump());
    QString out;
    if (auto code = status.find("code"); code != status.end() && code->is_number_integer())
        out = QString::number(code->get<int>());
    const QString reason = text(status, "reason");
    if (!reason.isEmpty())
        out += (out.isEmpty() ? QString() : QStringLiteral(" ")) + reason;
    const QString message = text(status, "message");
    if (!message.isEmpty())
        out += (out.isEmpty() ? QString() : QStringLiteral(": ")) + message;
    return out.isEmpty() ? QString::fromStdString(status.dump()) : out;
}

int statusCode(const nlohmann::json &status)
{
    if (!status.is_object())
        return 0;
    auto code = status.find("code");
    return code != status.end() && code->is_number_integer() ? code->get<int>() : 0;
}

std::optional<std::int64_t> integer(const nlohmann::json &frame, const char *key)
{
    auto it = frame.find(key);
    if (it == frame.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

// "channel 1 MODIFIED secrets default/db-password rv=42"
QString eventLine(std::int64_t channel, const QString &type, const QString &resource, const nlohmann::json &object)
{
    const nlohmann::json metadata = object.is_object() ? object.value("metadata", nlohmann::json()) : nlohmann::json();
    const QString rv = text(metadata, "resourceVersion");
    if (type == u"BOOKMARK")
        return QStringLiteral("channel %1 BOOKMARK rv=%2").arg(channel).arg(rv);
    const QString namespaceName = text(metadata, "namespace");
    const QString name = text(metadata, "name");
    return QStringLiteral("channel %1 %2 %3 %4 rv=%5")
        .arg(QString::number(channel), type, resource,
             namespaceName.isEmpty() ? name : namespaceName + u'/' + name, rv);
}

} // namespace

BulkWatchClient::BulkWatchClient(BulkWatchOptions options, const QSslConfiguration &tls, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_tls(tls)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (m_closing)
            finish(m_exitCode);
        else if (!m_connected)
            fail(NotStarted, QStringLiteral("cannot connect to %1: no websocket handshake after %2 s")
                                 .arg(m_options.server)
                                 .arg(HANDSHAKE_TIMEOUT_MS / 1000));
    });
    connect(&m_socket, &QWebSocket::connected, this, &BulkWatchClient::handleConnected);
    connect(&m_socket, &QWebSocket::disconnected, this, &BulkWatchClient::handleDisconnected);
    connect(&m_socket, &QWebSocket::textMessageReceived, this, &BulkWatchClient::handleFrame);
    connect(&m_socket, &QWebSocket::binaryMessageReceived, this,
            [this](const QByteArray &message) { handleFrame(QString::fromUtf8(message)); });
    connect(&m_socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), this,
            &BulkWatchClient::handleSocketError);
    connect(&m_socket, &QWebSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
        for (const QSslError &error : errors)
            m_sslErrors += (m_sslErrors.isEmpty() ? QString() : QStringLiteral("; ")) + error.errorString();
    });
}

BulkWatchClient::~BulkWatchClient()
{
    m_finished = true; // the socket's last signals find nothing to do
}

void BulkWatchClient::start()
{
    const bool needsDiscovery = std::any_of(m_options.watches.cbegin(), m_options.watches.cend(),
                                            [](const BulkWatchSpec &spec) { return spec.version.isEmpty(); });
    if (needsDiscovery)
        resolveVersions();
    else
        openSocket();
}

void BulkWatchClient::stop()
{
    if (m_finished || m_closing)
        return;
    if (m_connected) {
        closeSocket(Ended);
        return;
    }
    finish(Ended); // a discovery request still running is dropped with this object
    m_socket.abort();
}

void BulkWatchClient::resolveVersions()
{
    // GET /apis names every group with its preferred version (one request for all --watch).
    m_network = new QNetworkAccessManager(this);
    QNetworkRequest request(endpoint(m_options.server, false, QStringLiteral("/apis")));
    request.setSslConfiguration(m_tls);
    request.setRawHeader("Accept", "application/json");
    if (!m_options.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_options.token.toUtf8());
    request.setTransferTimeout(HANDSHAKE_TIMEOUT_MS);
    connect(m_network, &QNetworkAccessManager::sslErrors, this, [this](QNetworkReply *, const QList<QSslError> &errors) {
        for (const QSslError &error : errors)
            m_sslErrors += (m_sslErrors.isEmpty() ? QString() : QStringLiteral("; ")) + error.errorString();
    });
    QNetworkReply *reply = m_network->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] { handleDiscoveryReply(reply); });
}

void BulkWatchClient::handleDiscoveryReply(QNetworkReply *reply)
{
    reply->deleteLater();
    if (m_finished)
        return;
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid()) {
        if (!m_sslErrors.isEmpty() || reply->error() == QNetworkReply::SslHandshakeFailedError)
            fail(NotStarted, QStringLiteral("TLS handshake with %1 failed: %2; pass --certificate-authority FILE or "
                                            "--insecure-skip-tls-verify")
                                 .arg(m_options.server, m_sslErrors.isEmpty() ? reply->errorString() : m_sslErrors));
        else
            fail(NotStarted, QStringLiteral("cannot connect to %1: %2").arg(m_options.server, reply->errorString()));
        return;
    }
    const QByteArray body = reply->readAll();
    const nlohmann::json json = nlohmann::json::parse(body.toStdString(), nullptr, false);
    if (status.toInt() == 401) {
        fail(NotStarted, tokenRejectedMessage(json.is_object() ? statusText(json) : QStringLiteral("401")));
        return;
    }
    if (status.toInt() != 200 || !json.is_object() || !json.value("groups", nlohmann::json()).is_array()) {
        fail(NotStarted, QStringLiteral("discovery (GET %1) failed: %2")
                             .arg(reply->url().toString(), json.is_object() ? statusText(json)
                                                                            : QString::number(status.toInt())));
        return;
    }
    for (BulkWatchSpec &spec : m_options.watches) {
        if (!spec.version.isEmpty())
            continue;
        for (const nlohmann::json &group : json["groups"]) {
            if (text(group, "name") == spec.group)
                spec.version = text(group.value("preferredVersion", nlohmann::json()), "version");
        }
        if (spec.version.isEmpty()) {
            fail(NotStarted, QStringLiteral("--watch '%1': the server has no API group '%2'").arg(spec.text, spec.group));
            return;
        }
    }
    m_network->deleteLater();
    m_network = nullptr;
    openSocket();
}

void BulkWatchClient::openSocket()
{
    QNetworkRequest request(endpoint(m_options.server, true, QString::fromLatin1(BULK_PATH)));
    if (!m_options.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_options.token.toUtf8());
    m_socket.setSslConfiguration(m_tls);
    m_timeout.start(HANDSHAKE_TIMEOUT_MS);
    m_socket.open(request);
}

void BulkWatchClient::handleConnected()
{
    m_timeout.stop();
    m_connected = true;
    for (qsizetype i = 0; i < m_options.watches.size(); ++i) {
        const std::int64_t id = i + 1;
        m_pending[id] = i;
        m_socket.sendTextMessage(QString::fromStdString(m_options.watches[i].watchRequestFrame(id)));
    }
}

void BulkWatchClient::handleFrame(const QString &message)
{
    if (m_finished)
        return;
    if (m_options.json) {
        QByteArray line = message.toUtf8();
        line.replace('\n', ' '); // one frame, one line, whatever the server sent
        writeLine(stdout, line.trimmed());
    }
    const nlohmann::json frame = nlohmann::json::parse(message.toStdString(), nullptr, false);
    if (frame.is_discarded() || !frame.is_object()) {
        if (!m_options.json)
            printLine(QStringLiteral("unreadable frame: ") + message);
        return;
    }
    const auto error = frame.find("error");
    if (frame.contains("requestId")) {
        const std::optional<std::int64_t> id = integer(frame, "requestId");
        auto pending = id ? m_pending.find(*id) : m_pending.end();
        if (pending == m_pending.end()) {
            // Not about a watch request of ours: a token refused at the handshake, or a
            // complaint about a frame.
            if (error != frame.end() && statusCode(*error) == 401) {
                printError(tokenRejectedMessage(statusText(*error)));
                closeSocket(NotStarted);
            } else if (!m_options.json) {
                printLine(QStringLiteral("server error: ")
                          + (error != frame.end() ? statusText(*error) : QString::fromStdString(frame.dump())));
            }
            return;
        }
        const qsizetype index = pending->second;
        m_pending.erase(pending);
        const QString &spec = m_options.watches[index].text;
        const std::optional<std::int64_t> channel = integer(frame, "channel");
        if (error != frame.end()) {
            if (!m_options.json)
                printLine(QStringLiteral("request %1 rejected (%2): %3").arg(QString::number(*id), spec, statusText(*error)));
        } else if (channel) {
            m_channels[*channel] = index;
            m_anyOpened = true;
            if (!m_options.json)
                printLine(QStringLiteral("channel %1 opened: %2").arg(QString::number(*channel), spec));
        } else if (!m_options.json) {
            printLine(QStringLiteral("request %1 answered (%2): %3").arg(QString::number(*id), spec, message));
        }
        closeWhenIdle();
        return;
    }
    const std::optional<std::int64_t> channel = integer(frame, "channel");
    const auto event = frame.find("event");
    if (!channel || event == frame.end() || !event->is_object()) {
        if (!m_options.json)
            printLine(QStringLiteral("unexpected frame: ") + message);
        return;
    }
    const QString type = text(*event, "type");
    const nlohmann::json object = event->value("object", nlohmann::json());
    auto open = m_channels.find(*channel);
    if (type == u"ERROR") {
        if (!m_options.json)
            printLine(QStringLiteral("channel %1 closed: %2").arg(QString::number(*channel), statusText(object)));
        if (open != m_channels.end())
            m_channels.erase(open);
        closeWhenIdle();
        return;
    }
    if (!m_options.json) {
        const QString resource = open != m_channels.end() ? m_options.watches[open->second].resourceLabel()
                                                          : text(object, "kind");
        printLine(eventLine(*channel, type, resource, object));
    }
}

void BulkWatchClient::handleSocketError(QAbstractSocket::SocketError error)
{
    if (m_connected && m_connectionError.isEmpty())
        m_connectionError = m_socket.errorString(); // the TCP connection went without a close frame
    if (m_finished || m_closing || m_connected)
        return; // after the handshake, disconnected() tells what happened
    const QString reason = m_socket.errorString();
    const auto httpStatus = QRegularExpression(QStringLiteral("status code: (\\d+)")).match(reason);
    if (httpStatus.hasMatch() && httpStatus.captured(1) == u"401")
        fail(NotStarted, tokenRejectedMessage(QStringLiteral("401 Unauthorized")));
    else if (httpStatus.hasMatch())
        fail(NotStarted, QStringLiteral("%1 refused the bulk watch websocket: %2").arg(m_options.server, reason));
    else if (error == QAbstractSocket::SslHandshakeFailedError || !m_sslErrors.isEmpty())
        fail(NotStarted, QStringLiteral("TLS handshake with %1 failed: %2; pass --certificate-authority FILE or "
                                        "--insecure-skip-tls-verify")
                             .arg(m_options.server, m_sslErrors.isEmpty() ? reason : m_sslErrors));
    else
        fail(NotStarted, QStringLiteral("cannot connect to %1: %2").arg(m_options.server, reason));
}

void BulkWatchClient::handleDisconnected()
{
    if (m_finished)
        return;
    if (m_closing) {
        finish(m_exitCode);
        return;
    }
    if (!m_connected) {
        // error() may come after disconnected(); let it name the cause first.
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_finished)
                    fail(NotStarted, QStringLiteral("cannot connect to %1: %2").arg(m_options.server, m_socket.errorString()));
            },
            Qt::QueuedConnection);
        return;
    }
    // Without a close frame Qt still reports CloseCodeNormal: the socket error tells them apart.
    const QWebSocketProtocol::CloseCode code = m_socket.closeCode();
    if (m_connectionError.isEmpty()
        && (code == QWebSocketProtocol::CloseCodeNormal || code == QWebSocketProtocol::CloseCodeGoingAway)) {
        printError(QStringLiteral("the server closed the connection"));
        finish(Ended);
        return;
    }
    QString reason = m_connectionError;
    if (reason.isEmpty()) {
        reason = QStringLiteral("close code %1").arg(int(code));
        if (!m_socket.closeReason().isEmpty())
            reason += QStringLiteral(", ") + m_socket.closeReason();
    }
    printError(QStringLiteral("lost the connection to %1: %2").arg(m_options.server, reason));
    finish(Failed);
}

void BulkWatchClient::closeWhenIdle()
{
    if (!m_pending.empty() || !m_channels.empty() || m_closing)
        return;
    if (!m_anyOpened) {
        printError(QStringLiteral("every watch request was rejected"));
        closeSocket(Failed);
        return;
    }
    closeSocket(Ended);
}

void BulkWatchClient::closeSocket(int exitCode)
{
    m_exitCode = exitCode;
    m_closing = true;
    m_timeout.start(CLOSE_TIMEOUT_MS);
    m_socket.close();
}

void BulkWatchClient::fail(int exitCode, const QString &message)
{
    printError(message);
    finish(exitCode);
    m_socket.abort();
}

void BulkWatchClient::finish(int exitCode)
{
    if (m_finished)
        return;
    m_finished = true;
    m_timeout.stop();
    Q_EMIT finished(exitCode);
}

QString BulkWatchClient::tokenRejectedMessage(const QString &status) const
{
    if (m_options.token.isEmpty())
        return QStringLiteral("the server requires a token (%1); pass --token").arg(status);
    return QStringLiteral("the server rejected the token (%1); check --token").arg(status);
}

} // namespace rvscope::app
