// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QtGlobal>

#include "server/HttpResponse.h"

class QObject;
class QTcpSocket;

namespace rvscope::server {

// An answer whose body is at least this large is written without a copy of its body, and
// hands the memory it held back to the system once it is sent.
inline constexpr std::size_t LARGE_ANSWER_BYTES = 8 * 1024 * 1024;
// Writes `http` to `socket` (into Qt's buffer, which the server flushes). A large answer's
// body is not copied into a serialized answer: a plain socket writes from the body itself,
// held until the socket has taken all of it or is gone, and then the memory is released
// (releaseFreeMemoryOnceSent). So a list of 100,000 objects is held once while it is
// written, not twice. (Over TLS three times: the serialized answer, OpenSSL's encrypted
// copy and the encrypted bytes queued to the socket.)
void writeAnswer(QTcpSocket *socket, HttpResponse &&http, Persistence persistence, QObject *context);

// Returns the allocator's free memory to the system: tcmalloc's page heap when the process
// runs on tcmalloc (its executables link it), glibc's free top and arenas otherwise. Both
// keep what a large answer freed (a list of 100,000 ConfigMaps is about 160 MB) for reuse, so without this one large list raised the
// server's resident memory for good, as Go's runtime does not: its scavenger hands freed
// memory back in the background. A few milliseconds for hundreds of megabytes.
void releaseFreeMemory();

// Calls releaseFreeMemory() from `context`'s event loop once `socket` has handed everything
// written to it to the kernel, or is gone (only then is a large answer's buffer freed), and
// once more a second later; for a TLS socket, also once it is gone (see the .cpp). `held`, a
// child of the socket holding what it writes from, is deleted first (or goes with the socket).
void releaseFreeMemoryOnceSent(QTcpSocket *socket, QObject *context, QObject *held = nullptr);

} // namespace rvscope::server
