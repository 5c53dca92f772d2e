// SPDX-License-Identifier: MIT
#include "WatchFanout.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "HttpConnection.h"
#include "Workloads.h"

namespace rvscope::bench::http {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

std::int64_t toNs(double seconds)
{
    return static_cast<std::int64_t>(seconds * 1e9);
}

double percentile(std::vector<double> &values, double fraction)
{
    if (values.empty())
        return 0;
    const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
    return values[index];
}

// The number right after `marker` at or after `from` in `text`, or -1; `next` is set past it.
long numberAfter(std::string_view text, std::string_view marker, std::size_t from, std::size_t &next)
{
    const std::size_t at = text.find(marker, from);
    if (at == std::string_view::npos) {
        next = std::string_view::npos;
        return -1;
    }
    std::size_t i = at + marker.size();
    long value = 0;
    bool digits = false;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        value = value * 10 + (text[i] - '0');
        digits = true;
        ++i;
    }
    next = i;
    return digits ? value : -1;
}

// Per write: keyed by the value written (rvscope) or revision - base revision (etcd).
struct KeyStat {
    int received = 0;
    std::int64_t lastNs = 0;
    std::int64_t sentNs = -1;
    bool succeeded = false;
};

struct Watcher {
    HttpConnection connection;
    std::string in;
    std::string lines;
    bool headersDone = false;
    bool chunked = false;
    bool ready = false;
    bool dead = false;
};

struct Writer {
    HttpConnection connection;
    bool inFlight = false;
    long key = -1; // rvscope: known when sent
    std::int64_t sentNs = 0;
};

class Run final {
public:
    Run(WatchServer server, int port, const std::string &name, const WatchOptions &options)
        : m_server(server), m_port(port), m_name(name), m_options(options)
    {
    }

    WatchResult run()
    {
        m_result.requested = m_options.watchers;
        if (!setUp())
            return m_result;
        m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
        if (m_epoll < 0) {
            m_result.error = "epoll_create1 failed";
            return m_result;
        }
        const bool ok = openWatchers() && openWriters();
        if (ok)
            measure();
        ::close(m_epoll);
        return m_result;
    }

private:
    bool setUp()
    {
        HttpConnection connection;
        HttpResponse response;
        if (!connection.open(m_port)) {
            m_result.error = "connect failed";
            return false;
        }
        if (m_server == WatchServer::Rvscope) {
            const std::string body = nlohmann::json{{"apiVersion", "v1"},
                                                    {"kind", "ConfigMap"},
                                                    {"metadata", {{"name", m_name}, {"namespace", "default"}}},
                                                    {"data", {{"n", "0"}}}}
                                         .dump();
            if (!connection.roundTrip(makeRequest("POST", "/api/v1/namespaces/default/configmaps", body), response)
                || (response.status != 201 && response.status != 409)) {
                m_result.error = "cannot create the ConfigMap (" + std::to_string(response.status) + ")";
                return false;
            }
            // A fresh list: its resourceVersion is where every watch starts.
            if (!connection.roundTrip(makeRequest("GET", "/api/v1/namespaces/default/configmaps"), response)
                || response.status != 200) {
                m_result.error = "cannot list ConfigMaps";
                return false;
            }
            const nlohmann::json list = nlohmann::json::parse(response.body, nullptr, false);
            if (list.is_discarded() || !list.contains("metadata")) {
                m_result.error = "unparsable list";
                return false;
            }
            m_listResourceVersion = list["metadata"].value("resourceVersion", std::string());
            if (m_listResourceVersion.empty()) {
                m_result.error = "list without resourceVersion";
                return false;
            }
            return true;
        }
        m_keyBase64 = base64(m_name);
        if (!connection.roundTrip(makeRequest("POST", "/v3/kv/put",
                                              R"({"key":")" + m_keyBase64 + R"(","value":")" + base64("0") + R"("})"),
                                  response)
            || response.status != 200) {
            m_result.error = "cannot put the key";
            return false;
        }
        m_baseRevision = revisionOf(response.body);
        if (m_baseRevision <= 0) {
            m_result.error = "put without revision";
            return false;
        }
        return true;
    }

    static long revisionOf(const std::string &body)
    {
        const nlohmann::json reply = nlohmann::json::parse(body, nullptr, false);
        if (reply.is_discarded() || !reply.contains("header"))
            return -1;
        const nlohmann::json &revision = reply["header"]["revision"];
        if (revision.is_string())
            return std::strtol(revision.get<std::string>().c_str(), nullptr, 10);
        return revision.is_number() ? revision.get<long>() : -1;
    }

    std::string watchRequest() const
    {
        if (m_server == WatchServer::Rvscope)
            return makeRequest("GET", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                                          + m_listResourceVersion);
        return makeRequest("POST", "/v3/watch",
                           R"({"create_request":{"key":")" + m_keyBase64 + R"(","start_revision":")"
                               + std::to_string(m_baseRevision + 1) + R"("}})");
    }

    bool addToEpoll(int fd, std::uint64_t tag)
    {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = tag;
        return ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event) == 0;
    }

    bool openWatchers()
    {
        const std::string request = watchRequest();
        m_watchers = std::vector<Watcher>(static_cast<std::size_t>(m_options.watchers));
        int connected = 0;
        for (Watcher &watcher : m_watchers) {
            if (connected < static_cast<int>(&watcher - m_watchers.data()) || !watcher.connection.open(m_port)
                || !watcher.connection.send(request)
                || !addToEpoll(watcher.connection.fd(), static_cast<std::uint64_t>(connected))) {
                watcher.connection.close();
                watcher.dead = true; // never opened (e.g. out of descriptors): not counted
                continue;
            }
            ++connected;
        }
        if (connected == 0) {
            m_result.error = "no watch connection could be opened";
            return false;
        }
        const std::int64_t deadline = nowNs() + toNs(m_options.openTimeoutSeconds);
        while (nowNs() < deadline) {
            poll(10);
            int settled = 0;
            for (const Watcher &watcher : m_watchers)
                settled += watcher.ready || watcher.dead ? 1 : 0;
            if (settled == static_cast<int>(m_watchers.size()))
                break;
        }
        for (Watcher &watcher : m_watchers) {
            if (watcher.ready && !watcher.dead)
                ++m_result.opened;
        }
        m_opened = m_result.opened;
        if (m_opened == 0) {
            m_result.error = "no watch was confirmed (" + std::to_string(connected) + " connected)";
            return false;
        }
        return true;
    }

    bool openWriters()
    {
        m_writers = std::vector<Writer>(static_cast<std::size_t>(std::max(1, m_options.writers)));
        for (std::size_t i = 0; i < m_writers.size(); ++i) {
            if (!m_writers[i].connection.open(m_port)
                || !addToEpoll(m_writers[i].connection.fd(), WRITER_TAG + i)) {
                m_result.error = "writer connect failed";
                return false;
            }
        }
        return true;
    }

    KeyStat &stat(long key)
    {
        if (key >= static_cast<long>(m_stats.size()))
            m_stats.resize(static_cast<std::size_t>(key) + 1024);
        return m_stats[static_cast<std::size_t>(key)];
    }

    void recordEvent(long key, std::int64_t at)
    {
        if (key < 0 || key > 50'000'000)
            return;
        KeyStat &s = stat(key);
        ++s.received;
        s.lastNs = std::max(s.lastNs, at);
        if (m_measuring && at < m_windowEndNs)
            ++m_result.events;
    }

    void handleLine(Watcher &watcher, std::string_view line, std::int64_t at)
    {
        std::size_t next = 0;
        if (m_server == WatchServer::Rvscope) {
            const long value = numberAfter(line, R"("n":")", 0, next);
            if (value >= 0)
                recordEvent(value, at);
            else if (line.find(R"("type":"ERROR")") != std::string_view::npos)
                watcher.dead = true;
            return;
        }
        if (line.find(R"("created":true)") != std::string_view::npos)
            watcher.ready = true;
        if (line.find(R"("canceled":true)") != std::string_view::npos)
            watcher.dead = true;
        std::size_t from = 0;
        for (;;) {
            const long revision = numberAfter(line, R"("mod_revision":")", from, next);
            if (next == std::string_view::npos)
                break;
            if (revision > 0)
                recordEvent(revision - m_baseRevision, at);
            from = next;
        }
    }

    void readWatcher(Watcher &watcher, std::int64_t at)
    {
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::recv(watcher.connection.fd(), buffer, sizeof buffer, 0);
            if (n > 0) {
                watcher.in.append(buffer, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                markDead(watcher);
            break;
        }
        if (!watcher.headersDone) {
            const std::size_t headEnd = watcher.in.find("\r\n\r\n");
            if (headEnd == std::string::npos)
                return;
            const int status = watcher.in.size() > 12 ? std::atoi(watcher.in.c_str() + 9) : 0;
            std::string head = watcher.in.substr(0, headEnd);
            std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
            watcher.chunked = head.find("transfer-encoding: chunked") != std::string::npos;
            watcher.in.erase(0, headEnd + 4);
            watcher.headersDone = true;
            if (status != 200) {
                markDead(watcher);
                return;
            }
            if (m_server == WatchServer::Rvscope)
                watcher.ready = true; // confirmed by the 200 (the list rv covers any gap)
        }
        if (watcher.chunked) {
            std::size_t position = 0;
            for (;;) {
                const std::size_t lineEnd = watcher.in.find("\r\n", position);
                if (lineEnd == std::string::npos)
                    break;
                const std::size_t size = std::strtoul(watcher.in.c_str() + position, nullptr, 16);
                if (size == 0) { // the server ended the stream
                    markDead(watcher);
                    position = watcher.in.size();
                    break;
                }
                if (watcher.in.size() < lineEnd + 2 + size + 2)
                    break;
                watcher.lines.append(watcher.in, lineEnd + 2, size);
                position = lineEnd + 2 + size + 2;
            }
            watcher.in.erase(0, position);
        } else {
            watcher.lines.append(watcher.in);
            watcher.in.clear();
        }
        std::size_t start = 0;
        for (;;) {
            const std::size_t newline = watcher.lines.find('\n', start);
            if (newline == std::string::npos)
                break;
            if (newline > start)
                handleLine(watcher, std::string_view(watcher.lines).substr(start, newline - start), at);
            start = newline + 1;
        }
        watcher.lines.erase(0, start);
    }

    void markDead(Watcher &watcher)
    {
        if (watcher.dead)
            return;
        watcher.dead = true;
        if (watcher.ready && m_measuring)
            ++m_result.closedEarly;
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, watcher.connection.fd(), nullptr);
    }

    void readWriter(Writer &writer, std::int64_t at)
    {
        if (!writer.connection.flush() || !writer.connection.receive()) {
            // The server closed the connection: the write in flight is lost.
            ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, writer.connection.fd(), nullptr);
            writer.connection.open(m_port);
            addToEpoll(writer.connection.fd(), WRITER_TAG + static_cast<std::size_t>(&writer - m_writers.data()));
            if (writer.inFlight)
                ++m_result.writeFailures;
            writer.inFlight = false;
            return;
        }
        HttpResponse response;
        while (writer.connection.takeResponse(response)) {
            writer.inFlight = false;
            long key = writer.key;
            if (response.status == 200 && m_server == WatchServer::Etcd) {
                const long revision = revisionOf(response.body);
                key = revision > 0 ? revision - m_baseRevision : -1;
            }
            if (response.status != 200 || key < 0) {
                ++m_result.writeFailures;
                continue;
            }
            KeyStat &s = stat(key);
            s.sentNs = writer.sentNs;
            s.succeeded = true;
            if (writer.sentNs < m_windowEndNs)
                ++m_result.writes;
            m_pending.push_back(key);
            (void)at;
        }
    }

    void sendWrite(Writer &writer)
    {
        const long value = ++m_nextValue;
        std::string request;
        if (m_server == WatchServer::Rvscope) {
            const std::string body = R"({"data":{"n":")" + std::to_string(value) + R"("}})";
            request = "PATCH /api/v1/namespaces/default/configmaps/" + m_name
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/merge-patch+json\r\nContent-Length: "
                + std::to_string(body.size()) + "\r\n\r\n" + body;
            writer.key = value;
        } else {
            request = makeRequest("POST", "/v3/kv/put",
                                  R"({"key":")" + m_keyBase64 + R"(","value":")" + base64(std::to_string(value))
                                      + R"("})");
            writer.key = -1;
        }
        writer.inFlight = true;
        writer.sentNs = nowNs();
        writer.connection.send(std::move(request));
    }

    int aliveWatchers() const
    {
        int alive = 0;
        for (const Watcher &watcher : m_watchers)
            alive += watcher.ready && !watcher.dead ? 1 : 0;
        return alive;
    }

    // Drops the writes that every open watcher has received from m_pending.
    void prunePending()
    {
        const int alive = m_aliveCache;
        m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                       [&](long key) { return stat(key).received >= alive; }),
                        m_pending.end());
    }

    void poll(int timeoutMs)
    {
        epoll_event events[256];
        const int count = ::epoll_wait(m_epoll, events, 256, timeoutMs);
        if (count <= 0)
            return;
        const std::int64_t at = nowNs();
        for (int i = 0; i < count; ++i) {
            const std::uint64_t tag = events[i].data.u64;
            if (tag >= WRITER_TAG)
                readWriter(m_writers[tag - WRITER_TAG], at);
            else
                readWatcher(m_watchers[tag], at);
        }
    }

    void measure()
    {
        m_aliveCache = aliveWatchers();
        const std::int64_t start = nowNs();
        m_windowEndNs = start + toNs(m_options.seconds);
        m_measuring = true;
        const std::int64_t drainEnd = m_windowEndNs + toNs(m_options.drainSeconds);
        for (;;) {
            const std::int64_t now = nowNs();
            int inFlight = 0;
            for (const Writer &writer : m_writers)
                inFlight += writer.inFlight ? 1 : 0;
            if (now >= m_windowEndNs && (now >= drainEnd || (inFlight == 0 && m_pending.empty())))
                break;
            if (now < m_windowEndNs) {
                for (Writer &writer : m_writers) {
                    if (!writer.inFlight
                        && static_cast<int>(m_pending.size()) + inFlight < m_options.maxUndelivered) {
                        sendWrite(writer);
                        ++inFlight;
                    }
                }
            }
            poll(1);
            m_aliveCache = aliveWatchers();
            prunePending();
        }
        m_measuring = false;
        m_result.seconds = static_cast<double>(m_windowEndNs - start) / 1e9;
        const int alive = aliveWatchers();
        std::vector<double> latencies;
        for (const KeyStat &s : m_stats) {
            if (!s.succeeded || s.sentNs >= m_windowEndNs)
                continue;
            if (s.received < alive) {
                ++m_result.undelivered;
                continue;
            }
            latencies.push_back(static_cast<double>(s.lastNs - s.sentNs) / 1e6);
        }
        m_result.p50Ms = percentile(latencies, 0.50);
        m_result.p99Ms = percentile(latencies, 0.99);
    }

    static constexpr std::uint64_t WRITER_TAG = 1ULL << 40;

    WatchServer m_server;
    int m_port;
    std::string m_name;
    WatchOptions m_options;
    WatchResult m_result;
    int m_epoll = -1;
    std::string m_listResourceVersion;
    std::string m_keyBase64;
    long m_baseRevision = 0;
    std::vector<Watcher> m_watchers;
    std::vector<Writer> m_writers;
    std::vector<KeyStat> m_stats;
    std::vector<long> m_pending;
    long m_nextValue = 0;
    int m_opened = 0;
    int m_aliveCache = 0;
    bool m_measuring = false;
    std::int64_t m_windowEndNs = 0;
};

} // namespace

WatchResult runWatchFanout(WatchServer server, int port, const std::string &name, const WatchOptions &options)
{
    return Run(server, port, name, options).run();
}

std::string ensureDescriptorLimit(long descriptors)
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return "getrlimit failed";
    if (limit.rlim_cur != RLIM_INFINITY && static_cast<long>(limit.rlim_cur) >= descriptors)
        return {};
    const rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? static_cast<rlim_t>(descriptors)
                                                      : std::min<rlim_t>(limit.rlim_max, static_cast<rlim_t>(descriptors));
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0)
        return "setrlimit failed; RLIMIT_NOFILE stays " + std::to_string(before);
    return "raised RLIMIT_NOFILE soft limit " + std::to_string(before) + " -> " + std::to_string(limit.rlim_cur)
        + " (setrlimit, in-process; servers started later inherit it)";
}

} // namespace rvscope::bench::http
