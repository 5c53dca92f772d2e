// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

// The limits on watches and their defaults, in one place: api::OpenWatches and api::Watcher
// start with them, and the command line (engine::EngineOptions) defaults to them.
namespace rvscope::api {

// At most this many watches (HTTP, WebSocket and bulk channels) are open at once; one more
// is refused with 429 TooManyRequests and Retry-After, like the apiserver's max-in-flight.
inline constexpr std::size_t DEFAULT_MAX_WATCHES = 20000;
// And at most this many of one user, so that one runaway client (a controller opening a
// watch per object and never closing them) cannot take all of them (`serve
// --max-watches-per-user`; 0: no bound of its own). High enough for the bulk-watch design's
// 10,000 channels of one client.
inline constexpr std::size_t DEFAULT_MAX_WATCHES_PER_USER = 10000;
// A watch (or bulk channel) whose client leaves more than this many bytes unread is ended
// with an ERROR event carrying 410 Expired, so that it relists (`serve --watch-backlog`).
inline constexpr std::size_t DEFAULT_MAX_WATCH_BACKLOG = 8 * 1024 * 1024;

} // namespace rvscope::api
