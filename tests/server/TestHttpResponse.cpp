// SPDX-License-Identifier: MIT
// The bytes of a serialized response: status line, the fixed headers, extra headers in
// order, Connection: close or keep-alive only when asked, then the body, nothing more.
#include <QtTest/QtTest>

#include "api/Responses.h"
#include "model/Status.h"
#include "server/HttpResponse.h"

using rvscope::server::HttpResponse;
using rvscope::server::Persistence;

class TestHttpResponse final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testKeepAliveResponse();
    void testHttp10KeepAliveSaysSo();
    void testClosingResponseWithHeaders();
    void testEmptyBodyAndUnknownStatus();
    void testFromStatusCarriesRetryAfter();
};

void TestHttpResponse::testKeepAliveResponse()
{
    HttpResponse response;
    response.body = R"({"kind":"ConfigMap"})";
    QCOMPARE(response.serialize(Persistence::KeepAlive),
             QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n"
                        R"({"kind":"ConfigMap"})"));
}

void TestHttpResponse::testHttp10KeepAliveSaysSo()
{
    // An HTTP/1.0 client that asked to keep the connection is told it stays (as Go's server
    // answers, for a response with a length), in HTTP/1.0's status line; one that did not is
    // told nothing, as Go says "Connection: close" only to HTTP/1.1.
    HttpResponse response;
    response.body = "{}";
    QCOMPARE(response.serialize(Persistence::KeepAliveHttp10),
             QByteArray("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                        "Connection: keep-alive\r\n\r\n{}"));
    QCOMPARE(response.serialize(Persistence::CloseHttp10),
             QByteArray("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"));
}

void TestHttpResponse::testClosingResponseWithHeaders()
{
    HttpResponse response;
    response.status = 429;
    response.contentType = "text/plain";
    response.body = std::string(1000, 'x');
    response.headers = {{"Retry-After", "1"}, {"Warning", "299 - \"deprecated\""}};
    const QByteArray bytes = response.serialize(Persistence::Close);
    const QByteArray head = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n"
                            "Retry-After: 1\r\nWarning: 299 - \"deprecated\"\r\nConnection: close\r\n\r\n";
    QCOMPARE(bytes.left(head.size()), head);
    QCOMPARE(bytes.size(), head.size() + 1000);
    QCOMPARE(bytes.mid(head.size()), QByteArray(1000, 'x'));
}

void TestHttpResponse::testEmptyBodyAndUnknownStatus()
{
    HttpResponse response;
    response.status = 299;
    QCOMPARE(response.serialize(Persistence::KeepAlive),
             QByteArray("HTTP/1.1 299 Unknown\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n"));
}

void TestHttpResponse::testFromStatusCarriesRetryAfter()
{
    rvscope::model::Status status;
    status.code = 429;
    status.reason = "TooManyRequests";
    status.message = "slow down";
    status.details.retryAfterSeconds = 3;
    const HttpResponse response = HttpResponse::from(rvscope::api::statusResponse(status));
    QCOMPARE(response.status, 429);
    QCOMPARE(response.headers.size(), std::size_t(1));
    QCOMPARE(response.headers.front().second, std::string("3"));
    const QByteArray bytes = response.serialize(Persistence::KeepAlive);
    QVERIFY(bytes.startsWith("HTTP/1.1 429 Too Many Requests\r\n"));
    QVERIFY(bytes.contains("\r\nRetry-After: 3\r\n\r\n{"));
    QVERIFY(bytes.endsWith(QByteArray::fromStdString(status.dump() + "\n")));
}

QTEST_GUILESS_MAIN(TestHttpResponse)
#include "TestHttpResponse.moc"
