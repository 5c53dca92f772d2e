// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QtGlobal>

class QByteArray;
class QObject;
class QTcpSocket;

namespace rvscope::server {

// An answer at least this large hands the memory it held back to the system once it is sent.
inline constexpr std::size_t LARGE_ANSWER_BYTES = 8 * 1024 * 1024;
// Writes an answer to `socket`; returns the bytes taken (as QIODevice::write). A large one
// is then released: releaseFreeMemoryOnceSent(socket, context).
qint64 writeAnswer(QTcpSocket *socket, const QByteArray &answer, QObject *context);

// Returns the allocator's free memory to the system: tcmalloc's page heap when the process
// runs on tcmalloc (its executables link it), glibc's free top and arenas otherwise. Both
// keep what a large answer freed (a list of 100,000 ConfigMaps is about 160 MB, held
// twice while it is written) for reuse, so without this one large list raised the
// server's resident memory for good, as Go's runtime does not: its scavenger hands freed
// memory back in the background. A few milliseconds for hundreds of megabytes.
void releaseFreeMemory();

// Calls releaseFreeMemory() from `context`'s event loop once `socket` has handed everything
// written to it to the kernel, or is gone (only then is a large answer's buffer freed), and
// once more a second later; for a TLS socket, also once it is gone (see the .cpp).
void releaseFreeMemoryOnceSent(QTcpSocket *socket, QObject *context);

} // namespace rvscope::server
