// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

// The embedded server's limits, in one place: server::ApiServer starts with them, and the
// command line (engine::EngineOptions) defaults to them.
namespace rvscope::server {

// At most this many watches (HTTP and WebSocket) are open at once; one more is refused with
// 429 TooManyRequests and Retry-After, like the apiserver's max-in-flight limit.
inline constexpr std::size_t DEFAULT_MAX_WATCHES = 20000;
// A keep-alive connection with no request in flight is closed after this long, like the
// apiserver's http.Server IdleTimeout (90 s).
inline constexpr int DEFAULT_IDLE_TIMEOUT_MS = 90'000;
// A watch (or bulk channel) whose client leaves more than this many bytes unread is ended
// with an ERROR event carrying 410 Expired, so that it relists (`serve --watch-backlog`).
inline constexpr std::size_t DEFAULT_MAX_WATCH_BACKLOG = 8 * 1024 * 1024;
// The request line and the header fields together, as Go's net/http bounds them
// (http.DefaultMaxHeaderBytes): past it the request is answered 431 (414 when the request
// line alone is longer) and the connection closes (server::RequestHeadGuard).
inline constexpr std::size_t MAX_REQUEST_HEAD_BYTES = 1024 * 1024;
// The header fields alone: 431 past it. Lower than Go's bound because Qt 6.4's parser drops
// every header of a request whose header section passes ~96 KiB.
inline constexpr std::size_t MAX_HEADER_FIELD_BYTES = 64 * 1024;

} // namespace rvscope::server
