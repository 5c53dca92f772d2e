// SPDX-License-Identifier: MIT
#include "engine/CoreThread.h"

#include <dlfcn.h>

namespace rvscope::engine {
namespace {
// OpenSSL (which Qt Network's TLS backend loads) keeps per-thread state that a pthread key
// destructor frees when the thread exits. That is after QThread::wait() has returned, so
// it could run after main() returned and OpenSSL's atexit cleanup had freed the locks it
// takes: a SIGSEGV at exit, seen under load in CI. Freeing it while the thread is still
// ours closes the race. Nothing to do when libcrypto is not loaded.
void releaseOpenSslThreadState()
{
    for (const char *library : {"libcrypto.so.3", "libcrypto.so.1.1"}) {
        void *handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
        if (!handle)
            continue;
        using ThreadStop = void (*)();
        if (auto stop = reinterpret_cast<ThreadStop>(dlsym(handle, "OPENSSL_thread_stop")))
            stop();
        dlclose(handle);
        return;
    }
}
} // namespace

void CoreThread::run()
{
    exec();
    delete m_worker; // its sockets and storages go while the thread is alive
    m_worker = nullptr;
    releaseOpenSslThreadState();
}

} // namespace rvscope::engine
