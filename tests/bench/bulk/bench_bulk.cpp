// SPDX-License-Identifier: MIT
// Bulk watch benchmark: N watch channels multiplexed over S bulk websockets, against N
// regular WebSocket watches (one socket each), on the same objects and selectors. The
// server runs in a child process (this executable with --serve) so that its RSS is the
// server's alone; the load generator and its sockets live in this process.
//
// Figures, for each side:
//   opened/s   watches opened per second (bulk: watch requests answered with a channel;
//              regular: websocket handshakes completed);
//   events/s   events delivered across all N watches while writes arrive in a burst;
//   p50/p99    write-to-delivery latency with paced writes (the write's send time is
//              stamped into the object; every delivery of it is one sample);
//   KiB/watch  server RSS growth while the watches were opened, divided by N.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QThread>
#include <QtCore/QUrl>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>
#include <nlohmann/json.hpp>
#include <qcoro/qcorotask.h>

#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "storage/MemoryStorage.h"

using namespace rvscope;

namespace {

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

template <typename Predicate>
bool waitFor(Predicate done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// --serve: the server alone, printing its port; it runs until its parent closes stdin.
int serve(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    auto storage = std::make_shared<storage::MemoryStorage>();
    auto registry = std::make_shared<registry::Registry>(storage);
    QCoro::waitFor(registry->bootstrap()).value();
    auto handler = std::make_shared<api::ApiHandler>(registry);
    server::ApiServer server(handler);
    api::BulkWatchSession::Options options;
    options.maxChannels = 100000;
    server.setBulkWatchOptions(options);
    handler->openWatches().setMax(100000);
    const quint16 port = server.start(QHostAddress::LocalHost, 0);
    std::printf("%u\n", unsigned(port));
    std::fflush(stdout);
    // stdin closing (the parent finished or died) ends the server.
    QThread *watcher = QThread::create([] {
        char buffer[64];
        while (std::fread(buffer, 1, sizeof buffer, stdin) > 0) {
        }
    });
    QObject::connect(watcher, &QThread::finished, &app, &QCoreApplication::quit);
    watcher->start();
    const int code = app.exec();
    server.closeWatches();
    watcher->wait();
    delete watcher;
    return code;
}

std::size_t rssKiB(qint64 pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stoul(line.substr(6));
    }
    return 0;
}

// One keep-alive HTTP connection issuing a request at a time.
class HttpClient final {
public:
    explicit HttpClient(quint16 port)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_socket.waitForConnected(5000);
        m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    }
    void start(const char *method, const std::string &path, const std::string &body, const char *contentType)
    {
        std::string request = std::string(method) + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        request += std::string("Content-Type: ") + contentType + "\r\nContent-Length: " + std::to_string(body.size())
            + "\r\n\r\n" + body;
        m_buffer.clear();
        m_busy = true;
        m_socket.write(request.data(), qint64(request.size()));
    }
    // True once the response is complete (its body is in body()).
    bool poll()
    {
        if (!m_busy)
            return true;
        m_buffer += m_socket.readAll();
        const auto headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return false;
        const auto lengthAt = m_buffer.indexOf("Content-Length: ");
        const qsizetype length = lengthAt >= 0 ? m_buffer.mid(lengthAt + 16, m_buffer.indexOf("\r\n", lengthAt) - lengthAt - 16).toLongLong() : 0;
        if (m_buffer.size() < headerEnd + 4 + length)
            return false;
        m_body = m_buffer.mid(headerEnd + 4, length).toStdString();
        m_busy = false;
        return true;
    }
    std::string call(const char *method, const std::string &path, const std::string &body,
                     const char *contentType = "application/json")
    {
        start(method, path, body, contentType);
        waitFor([this] { return poll(); }, 10000);
        return m_body;
    }
    bool busy() const { return m_busy; }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
    std::string m_body;
    bool m_busy = false;
};

struct Config {
    int watches = 10000;
    int sockets = 100;  // bulk side
    int objects = 100;  // each watched by watches/objects watches
    int pacedWrites = 200;
    int burstRounds = 5; // burst: every object written this many times
};

// What every client socket (bulk or regular) does with a frame: count events, and take a
// latency sample from the "t" the writer stamped into the object.
struct Sink {
    std::size_t events = 0;
    std::size_t responses = 0;
    std::vector<double> latenciesUs;
    bool sampling = false;

    void handle(const QString &message)
    {
        const QByteArray bytes = message.toUtf8();
        if (!bytes.contains("\"event\"") && !bytes.startsWith("{\"type\"")) {
            ++responses;
            return;
        }
        ++events;
        if (!sampling)
            return;
        const auto at = bytes.indexOf("\"t\":\"");
        if (at < 0)
            return;
        const auto end = bytes.indexOf('"', at + 5);
        const std::int64_t sent = bytes.mid(at + 5, end - at - 5).toLongLong();
        latenciesUs.push_back(double(nowNs() - sent) / 1000.0);
    }
};

struct Figures {
    double openedPerSecond = 0;
    double eventsPerSecond = 0;
    double p50Us = 0;
    double p99Us = 0;
    double kibPerWatch = 0;
    bool ok = true;
};

std::string objectName(int i)
{
    return "obj-" + std::to_string(i);
}

Figures runSide(bool bulkSide, const Config &config, const QString &program)
{
    Figures figures;
    QProcess child;
    child.setProgram(program);
    child.setArguments({QStringLiteral("--serve")});
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start();
    if (!child.waitForReadyRead(10000)) {
        std::fprintf(stderr, "server child did not start\n");
        figures.ok = false;
        return figures;
    }
    const quint16 port = quint16(child.readLine().trimmed().toUInt());

    HttpClient http(port);
    std::string lastVersion;
    for (int i = 0; i < config.objects; ++i) {
        const std::string body = R"({"metadata":{"name":")" + objectName(i) + R"("},"data":{"t":"0"}})";
        const auto created = nlohmann::json::parse(http.call("POST", "/api/v1/namespaces/default/configmaps", body),
                                                   nullptr, false);
        lastVersion = created["metadata"].value("resourceVersion", std::string("0"));
    }
    QCoreApplication::processEvents();
    const std::size_t rssBefore = rssKiB(child.processId());

    Sink sink;
    std::vector<std::unique_ptr<QWebSocket>> sockets;
    const int socketCount = bulkSide ? config.sockets : config.watches;
    QElapsedTimer timer;
    timer.start();
    std::size_t connected = 0;
    for (int s = 0; s < socketCount; ++s) {
        auto socket = std::make_unique<QWebSocket>();
        QObject::connect(socket.get(), &QWebSocket::textMessageReceived, socket.get(),
                         [&sink](const QString &message) { sink.handle(message); });
        QObject::connect(socket.get(), &QWebSocket::connected, socket.get(), [&connected] { ++connected; });
        QString url;
        if (bulkSide) {
            url = QStringLiteral("ws://127.0.0.1:%1/apis/bulk.k8s.io/v1/bulkgetoperations").arg(port);
        } else {
            url = QString::fromStdString("ws://127.0.0.1:" + std::to_string(port)
                                         + "/api/v1/namespaces/default/configmaps?watch=true"
                                           "&fieldSelector=metadata.name%3D"
                                         + objectName(s % config.objects) + "&resourceVersion=" + lastVersion);
        }
        socket->open(QUrl(url));
        sockets.push_back(std::move(socket));
        // At most 32 handshakes in flight: a full listen backlog (Qt's is 50) drops SYNs, and
        // their 1 s retransmit would be measured instead of the server.
        waitFor([&] { return connected + 32 > std::size_t(s + 1); }, 10000);
    }
    figures.ok &= waitFor([&] { return connected == std::size_t(socketCount); }, 60000);
    if (bulkSide) {
        const int perSocket = config.watches / config.sockets;
        for (int s = 0; s < config.sockets; ++s) {
            for (int k = 0; k < perSocket; ++k) {
                const int watch = s * perSocket + k;
                nlohmann::json request = {
                    {"id", k},
                    {"watch",
                     {{"selector",
                       {{"resource", {{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}}},
                        {"options",
                         {{"namespace", "default"},
                          {"fieldSelector", "metadata.name=" + objectName(watch % config.objects)},
                          {"resourceVersion", lastVersion}}}}}}},
                };
                sockets[s]->sendTextMessage(QString::fromStdString(request.dump()));
            }
        }
        figures.ok &= waitFor([&] { return sink.responses == std::size_t(config.watches); }, 60000);
    }
    figures.openedPerSecond = config.watches / (double(timer.nsecsElapsed()) / 1e9);
    // Regular watches start once the server's handler has answered the upgrade: let it settle.
    waitFor([] { return false; }, 300);
    const std::size_t rssAfter = rssKiB(child.processId());
    figures.kibPerWatch = double(rssAfter > rssBefore ? rssAfter - rssBefore : 0) / config.watches;

    const std::size_t perObject = std::size_t(config.watches / config.objects);
    auto patch = [](int object) {
        (void)object;
        return R"({"data":{"t":")" + std::to_string(nowNs()) + R"("}})";
    };
    const char *mergePatch = "application/merge-patch+json";

    // Paced writes: latency without queueing behind a burst.
    sink.sampling = true;
    for (int w = 0; w < config.pacedWrites; ++w) {
        const int object = w % config.objects;
        const std::size_t expected = sink.events + perObject;
        http.call("PATCH", "/api/v1/namespaces/default/configmaps/" + objectName(object), patch(object), mergePatch);
        if (!waitFor([&] { return sink.events >= expected; }, 10000)) {
            figures.ok = false;
            break;
        }
    }
    sink.sampling = false;
    std::sort(sink.latenciesUs.begin(), sink.latenciesUs.end());
    if (!sink.latenciesUs.empty()) {
        figures.p50Us = sink.latenciesUs[sink.latenciesUs.size() / 2];
        figures.p99Us = sink.latenciesUs[std::min(sink.latenciesUs.size() - 1, sink.latenciesUs.size() * 99 / 100)];
    }

    // Burst: every object written burstRounds times over four connections.
    std::vector<std::unique_ptr<HttpClient>> writers;
    for (int i = 0; i < 4; ++i)
        writers.push_back(std::make_unique<HttpClient>(port));
    const std::size_t startEvents = sink.events;
    const std::size_t totalWrites = std::size_t(config.burstRounds) * config.objects;
    const std::size_t expectedEvents = totalWrites * perObject;
    std::size_t issued = 0;
    timer.restart();
    figures.ok &= waitFor(
        [&] {
            for (auto &writer : writers) {
                if (writer->poll() && issued < totalWrites) {
                    const int object = int(issued % std::size_t(config.objects));
                    writer->start("PATCH", "/api/v1/namespaces/default/configmaps/" + objectName(object), patch(object),
                                  mergePatch);
                    ++issued;
                }
            }
            return issued == totalWrites && sink.events - startEvents >= expectedEvents;
        },
        120000);
    figures.eventsPerSecond = double(sink.events - startEvents) / (double(timer.nsecsElapsed()) / 1e9);

    if (!figures.ok)
        std::fprintf(stderr, "%s: %zu watch responses, %zu events\n", bulkSide ? "bulk" : "regular", sink.responses,
                     sink.events);
    for (auto &socket : sockets)
        socket->abort();
    sockets.clear();
    child.closeWriteChannel();
    if (!child.waitForFinished(10000)) {
        child.kill();
        child.waitForFinished(5000);
    }
    return figures;
}

void printRow(const char *name, const Figures &f)
{
    std::printf("%-28s %12.0f %12.0f %10.0f %10.0f %10.2f %s\n", name, f.openedPerSecond, f.eventsPerSecond, f.p50Us,
                f.p99Us, f.kibPerWatch, f.ok ? "" : "(INCOMPLETE)");
}

} // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--serve") == 0)
            return serve(argc, argv);
    }
    QCoreApplication app(argc, argv);
    Config config;
    bool smoke = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0)
            smoke = true;
        else if (std::strcmp(argv[i], "--watches") == 0 && i + 1 < argc)
            config.watches = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--sockets") == 0 && i + 1 < argc)
            config.sockets = std::atoi(argv[++i]);
    }
    if (smoke) {
        config.watches = 400;
        config.sockets = 4;
        config.objects = 20;
        config.pacedWrites = 20;
        config.burstRounds = 2;
    }
    const QString program = QCoreApplication::applicationFilePath();
    std::printf("bulk watch vs regular WebSocket watches: %d watches (%d bulk sockets, %d objects, %d watches per "
                "object)\n",
                config.watches, config.sockets, config.objects, config.watches / config.objects);
    std::printf("%-28s %12s %12s %10s %10s %10s\n", "", "opened/s", "events/s", "p50 us", "p99 us", "KiB/watch");
    const Figures bulkFigures = runSide(true, config, program);
    printRow("bulk (channels)", bulkFigures);
    const Figures regularFigures = runSide(false, config, program);
    printRow("regular websocket watches", regularFigures);
    if (bulkFigures.ok && regularFigures.ok && regularFigures.eventsPerSecond > 0) {
        std::printf("ratios bulk/regular: opened/s %.2f, events/s %.2f, p99 %.2f, memory %.2f\n",
                    bulkFigures.openedPerSecond / regularFigures.openedPerSecond,
                    bulkFigures.eventsPerSecond / regularFigures.eventsPerSecond,
                    regularFigures.p99Us > 0 ? bulkFigures.p99Us / regularFigures.p99Us : 0.0,
                    regularFigures.kibPerWatch > 0 ? bulkFigures.kibPerWatch / regularFigures.kibPerWatch : 0.0);
    }
    return bulkFigures.ok && regularFigures.ok ? 0 : 1;
}
