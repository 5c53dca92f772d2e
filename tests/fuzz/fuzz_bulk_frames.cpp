// SPDX-License-Identifier: MIT
// libFuzzer target: a bulk watch session's frames (README "Bulk watch protocol"). Each input
// line is one text frame a client sends on one session: watch requests with any selectors
// and resourceVersions, stops, garbage. The session must answer with frames and keep going;
// a crash, a sanitizer report or an exception is a finding.
#include <string>

#include "FuzzSupport.h"
#include <QtCore/QCoreApplication>

#include "api/BulkWatchSession.h"

using namespace rvscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string_view input = fuzz::textOf(data, size);
    fuzz::FuzzCore &core = fuzz::FuzzCore::next();
    std::size_t sent = 0;
    auto session = std::make_shared<api::BulkWatchSession>(core.handler, api::BulkWatchSession::Options{},
                                                           [&sent](const std::string &frame) { sent += frame.size(); });
    while (!input.empty()) {
        const std::size_t end = input.find('\n');
        session->handleFrame(std::string(input.substr(0, end)));
        input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
    }
    QCoreApplication::processEvents(); // what a watch opened late would do next
    session->close();
    return sent == std::size_t(-1); // (keeps `sent` observable)
}
