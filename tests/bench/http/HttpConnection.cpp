// SPDX-License-Identifier: MIT
#include "HttpConnection.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rvscope::bench::http {
namespace {

// Case-insensitive search for a header value inside the header block.
bool headerValue(const std::string &head, const char *name, std::string &value)
{
    const std::size_t nameLength = std::strlen(name);
    std::size_t lineStart = head.find("\r\n");
    while (lineStart != std::string::npos && lineStart + 2 < head.size()) {
        lineStart += 2;
        const std::size_t lineEnd = head.find("\r\n", lineStart);
        const std::size_t end = lineEnd == std::string::npos ? head.size() : lineEnd;
        if (end - lineStart > nameLength && head[lineStart + nameLength] == ':'
            && strncasecmp(head.data() + lineStart, name, nameLength) == 0) {
            std::size_t valueStart = lineStart + nameLength + 1;
            while (valueStart < end && head[valueStart] == ' ')
                ++valueStart;
            value.assign(head, valueStart, end - valueStart);
            return true;
        }
        lineStart = lineEnd;
    }
    return false;
}

} // namespace

std::string makeRequest(const char *method, const std::string &path, const std::string &body)
{
    std::string request;
    request.reserve(path.size() + body.size() + 128);
    request.append(method).append(" ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    if (!body.empty()) {
        request.append("Content-Type: application/json\r\nContent-Length: ");
        request.append(std::to_string(body.size())).append("\r\n");
    }
    request.append("\r\n").append(body);
    return request;
}

HttpConnection::~HttpConnection()
{
    close();
}

bool HttpConnection::open(int port)
{
    close();
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        close();
        return false;
    }
    // Requests are small and latency is what we measure: no Nagle delay.
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    return true;
}

void HttpConnection::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_out.clear();
    m_written = 0;
    m_in.clear();
}

bool HttpConnection::send(std::string request)
{
    m_out = std::move(request);
    m_written = 0;
    return flush();
}

bool HttpConnection::flush()
{
    while (m_written < m_out.size()) {
        const ssize_t n = ::send(m_fd, m_out.data() + m_written, m_out.size() - m_written, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK;
        m_written += static_cast<std::size_t>(n);
    }
    return true;
}

bool HttpConnection::receive()
{
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n > 0) {
            m_in.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n == 0)
            return false;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
}

bool HttpConnection::takeResponse(HttpResponse &response)
{
    const std::size_t headEnd = m_in.find("\r\n\r\n");
    if (headEnd == std::string::npos)
        return false;
    const std::string head = m_in.substr(0, headEnd);
    if (head.size() < 12 || head.compare(0, 5, "HTTP/") != 0)
        return false;
    const int status = std::atoi(head.c_str() + 9);
    const std::size_t bodyStart = headEnd + 4;
    std::string value;
    if (headerValue(head, "Transfer-Encoding", value) && value.find("chunked") != std::string::npos) {
        std::string body;
        std::size_t position = bodyStart;
        for (;;) {
            const std::size_t lineEnd = m_in.find("\r\n", position);
            if (lineEnd == std::string::npos)
                return false;
            const std::size_t size = std::strtoul(m_in.c_str() + position, nullptr, 16);
            const std::size_t dataStart = lineEnd + 2;
            if (size == 0) {
                // Trailers are not used by these servers: just the final CRLF.
                if (m_in.size() < dataStart + 2)
                    return false;
                m_in.erase(0, dataStart + 2);
                response.status = status;
                response.body = std::move(body);
                return true;
            }
            if (m_in.size() < dataStart + size + 2)
                return false;
            body.append(m_in, dataStart, size);
            position = dataStart + size + 2;
        }
    }
    std::size_t length = 0;
    if (headerValue(head, "Content-Length", value))
        length = std::strtoul(value.c_str(), nullptr, 10);
    if (m_in.size() < bodyStart + length)
        return false;
    response.status = status;
    response.body.assign(m_in, bodyStart, length);
    m_in.erase(0, bodyStart + length);
    return true;
}

bool HttpConnection::roundTrip(const std::string &request, HttpResponse &response, int timeoutMs)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    if (!send(request))
        return false;
    while (!takeResponse(response)) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return false;
        pollfd entry{m_fd, static_cast<short>(POLLIN | (wantsWrite() ? POLLOUT : 0)), 0};
        if (::poll(&entry, 1, static_cast<int>(left)) < 0 && errno != EINTR)
            return false;
        if (!flush() || !receive()) {
            if (takeResponse(response))
                return true;
            return false;
        }
    }
    return true;
}

} // namespace rvscope::bench::http
