// SPDX-License-Identifier: MIT
#pragma once

namespace rvscope::app {

// Leaves OpenSSL's state to the end of the process instead of OpenSSL's own atexit cleanup.
// That cleanup deletes the thread-local keys under which each thread keeps its random
// generators, and a thread of Qt's (QNetworkAccessManager's, the core thread) can still be
// on its way out when main() returns: QThread::wait() returns before the thread's exit runs
// the keys' destructors, so a thread that ends after the cleanup leaks its generators
// (LeakSanitizer saw EVP_RAND_CTX_new, from SSL_CTX_new_ex on QNetworkAccessManager's thread,
// when `rvscope client bulk-watch` exited after a failed TLS handshake on a busy machine).
// Call first thing in main(), before Qt loads its TLS backend.
void leaveOpenSslStateToProcessExit();

} // namespace rvscope::app
