// SPDX-License-Identifier: MIT
#include "LoadGenerator.h"

#include <algorithm>
#include <chrono>
#include <poll.h>

namespace rvscope::bench::http {
namespace {

using Clock = std::chrono::steady_clock;

struct Client {
    HttpConnection connection;
    std::unique_ptr<ClientScript> script;
    std::string pending; // the request in flight, resent once if the server closed keep-alive
    Clock::time_point operationStart;
};

double percentile(std::vector<double> &values, double fraction)
{
    if (values.empty())
        return 0;
    const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
    return values[index];
}

} // namespace

LoadResult runLoad(int port, int clients, double seconds,
                   const std::function<std::unique_ptr<ClientScript>(int)> &makeScript)
{
    LoadResult result;
    std::vector<Client> pool(static_cast<std::size_t>(clients));
    std::vector<double> latenciesMs;
    latenciesMs.reserve(1 << 16);

    for (int i = 0; i < clients; ++i) {
        Client &client = pool[static_cast<std::size_t>(i)];
        client.script = makeScript(i);
        if (!client.connection.open(port)) {
            result.error = "connect to 127.0.0.1:" + std::to_string(port) + " failed";
            return result;
        }
    }
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    for (Client &client : pool) {
        client.pending = client.script->nextRequest();
        client.operationStart = Clock::now();
        client.connection.send(client.pending);
        ++result.requests;
    }

    std::vector<pollfd> fds(pool.size());
    HttpResponse response;
    for (;;) {
        const auto now = Clock::now();
        if (now >= deadline)
            break;
        for (std::size_t i = 0; i < pool.size(); ++i) {
            const HttpConnection &connection = pool[i].connection;
            fds[i] = pollfd{connection.fd(), static_cast<short>(POLLIN | (connection.wantsWrite() ? POLLOUT : 0)), 0};
        }
        const auto waitMs = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        if (::poll(fds.data(), fds.size(), static_cast<int>(waitMs)) <= 0)
            continue;
        for (std::size_t i = 0; i < pool.size(); ++i) {
            if (fds[i].revents == 0)
                continue;
            Client &client = pool[i];
            bool alive = client.connection.flush() && client.connection.receive();
            while (client.connection.takeResponse(response)) {
                const auto finished = Clock::now();
                const ClientScript::Step step = client.script->handleResponse(response);
                if (finished >= deadline)
                    break;
                switch (step) {
                case ClientScript::Step::Succeeded:
                    ++result.succeeded;
                    latenciesMs.push_back(std::chrono::duration<double, std::milli>(finished - client.operationStart).count());
                    client.operationStart = finished;
                    break;
                case ClientScript::Step::Conflicted:
                    ++result.conflicts;
                    break;
                case ClientScript::Step::Failed:
                    ++result.failures;
                    client.operationStart = finished;
                    break;
                case ClientScript::Step::Continue:
                    break;
                }
                client.pending = client.script->nextRequest();
                alive = client.connection.send(client.pending) && alive;
                ++result.requests;
            }
            if (!alive) {
                // The server closed the keep-alive connection (e.g. a request cap): reconnect
                // and resend the request whose response never came.
                if (!client.connection.open(port)) {
                    result.error = "reconnect failed";
                    return result;
                }
                client.connection.send(client.pending);
            }
        }
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.p50Ms = percentile(latenciesMs, 0.50);
    result.p99Ms = percentile(latenciesMs, 0.99);
    return result;
}

} // namespace rvscope::bench::http
