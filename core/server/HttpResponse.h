// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <QtCore/QByteArray>

namespace rvscope::model {
struct Status;
}

namespace rvscope::server {

// A complete HTTP response, serialized into one buffer so that it leaves in one write.
struct HttpResponse final {
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
    std::vector<std::pair<QByteArray, QByteArray>> headers;

    static HttpResponse fromStatus(const model::Status &status);
    QByteArray serialize(bool keepAlive) const;
};

const char *reasonPhrase(int status);

} // namespace rvscope::server
