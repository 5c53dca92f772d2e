// SPDX-License-Identifier: MIT
#pragma once

#include <string>

// One HTTP/1.1 keep-alive client connection to 127.0.0.1 over a plain POSIX socket. The load
// generator polls many of these from one thread; setup code uses the blocking `roundTrip`.
// Only what the benchmark servers send is understood: Content-Length or chunked bodies.
namespace rvscope::bench::http {

struct HttpResponse {
    int status = 0;
    std::string body;
};

// Builds a request with a Host header and, when `body` is not empty, a JSON body.
std::string makeRequest(const char *method, const std::string &path, const std::string &body = {});

class HttpConnection final {
public:
    HttpConnection() = default;
    ~HttpConnection();
    HttpConnection(const HttpConnection &) = delete;
    HttpConnection &operator=(const HttpConnection &) = delete;

    // Connects (blocking) to 127.0.0.1:port and makes the socket non-blocking. False on error.
    bool open(int port);
    void close();
    int fd() const { return m_fd; }

    // Queues a request and writes as much as the socket takes.
    bool send(std::string request);
    // Writes queued bytes; false when the connection broke.
    bool flush();
    bool wantsWrite() const { return m_written < m_out.size(); }
    // Reads what is available; false when the peer closed or the connection broke.
    bool receive();
    // Takes one complete response out of the read buffer; false when none is complete yet.
    bool takeResponse(HttpResponse &response);

    // Blocking send + wait for the response (setup and readiness checks). False on error.
    bool roundTrip(const std::string &request, HttpResponse &response, int timeoutMs = 5000);

private:
    int m_fd = -1;
    std::string m_out;
    std::size_t m_written = 0;
    std::string m_in;
};

} // namespace rvscope::bench::http
