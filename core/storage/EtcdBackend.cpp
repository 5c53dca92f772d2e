// SPDX-License-Identifier: MIT
#include "storage/EtcdBackend.h"

#include <atomic>

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QLibrary>

namespace rvscope::storage {
namespace {
std::atomic<const EtcdBackend *> handedOver{nullptr};

// The module's file, as core/storage/etcd/CMakeLists.txt names it, and its one entry point
// (versioned: a module of another build layout is refused, not misread).
constexpr char MODULE_FILE[] = "librvscope_etcd.so";
constexpr char ENTRY_POINT[] = "rvscope_etcd_backend_v1";

struct Loaded {
    const EtcdBackend *backend = nullptr;
    QString error;
};

Loaded loadModule()
{
    // Beside the executable that runs (build/app/ holds rvscope, rvscope-gui and the module),
    // by the link's text: a binary replaced while it runs reads "<path> (deleted)".
    const QString path = QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/self/exe"))).absolutePath()
        + QLatin1Char('/') + QLatin1String(MODULE_FILE);
    QLibrary module(path);
    // A symbol missing fails here, named. Never unloaded, not even by Qt's cleanup at exit
    // (RTLD_NODELETE): gRPC's threads may still be finishing then.
    module.setLoadHints(QLibrary::ResolveAllSymbolsHint | QLibrary::PreventUnloadHint);
    if (!module.load())
        return {nullptr, QStringLiteral("cannot load the etcd module %1: %2").arg(path, module.errorString())};
    const auto entry = reinterpret_cast<const EtcdBackend *(*)()>(module.resolve(ENTRY_POINT));
    if (!entry)
        return {nullptr, QStringLiteral("%1 has no %2: %3").arg(path, QLatin1String(ENTRY_POINT), module.errorString())};
    return {entry(), QString()};
}
} // namespace

model::Result<const EtcdBackend *> etcdBackend()
{
    if (const EtcdBackend *backend = handedOver.load())
        return backend;
    static const Loaded loaded = loadModule();
    if (!loaded.backend)
        return model::Status::internalError(loaded.error.toStdString());
    return loaded.backend;
}

void setEtcdBackend(const EtcdBackend *backend)
{
    handedOver.store(backend);
}

} // namespace rvscope::storage
