// SPDX-License-Identifier: MIT
#include "serverpanel/StorageDescription.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QStringList>

#include "engine/EngineOptions.h"

namespace rvscope::ui {
namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("StorageDescription", text);
}

QString where(const engine::EngineOptions &options)
{
    if (options.storageKind == engine::EngineOptions::StorageKind::Etcd)
        return tr("etcd %1 %2").arg(options.etcdEndpoints.join(QLatin1Char(',')), options.etcdPrefix);
    return tr("memory");
}
} // namespace

QString storageText(const engine::EngineOptions &options)
{
    return tr("storage: %1").arg(where(options));
}

QString storageDetails(const engine::EngineOptions &options)
{
    QStringList lines;
    lines << tr("every resource: %1 (revision series \"main\")").arg(where(options));
    for (const QString &type : options.separateStorage) {
        const QStringList own = options.etcdServersOverrides.value(type);
        const QString storage = own.isEmpty() || options.storageKind != engine::EngineOptions::StorageKind::Etcd
            ? where(options)
            : tr("etcd %1 %2").arg(own.join(QLatin1Char(',')), options.etcdPrefix);
        lines << tr("%1: %2, a revision series of its own").arg(type, storage);
    }
    if (options.storageKind == engine::EngineOptions::StorageKind::Etcd)
        lines << tr("writes by other instances on this etcd arrive by watch (ringed on the object lanes)");
    return lines.join(QLatin1Char('\n'));
}

QString scenarioStorageText()
{
    return tr("storage: fresh in-memory store (scenario)");
}

} // namespace rvscope::ui
