// SPDX-License-Identifier: MIT
#include "serverpanel/ServerConnectionText.h"

#include "engine/EngineTypes.h"

namespace rvscope::ui::ServerConnectionText {

QString clientUrl(const engine::ServerState &state)
{
    if (!state.running)
        return {};
    engine::ServerState reachable = state;
    if (state.address == QHostAddress::Any || state.address == QHostAddress::AnyIPv4)
        reachable.address = QHostAddress(QHostAddress::LocalHost);
    else if (state.address == QHostAddress::AnyIPv6)
        reachable.address = QHostAddress(QHostAddress::LocalHostIPv6);
    return reachable.url();
}

QString kubeconfig(const QString &url)
{
    return QStringLiteral("apiVersion: v1\n"
                          "kind: Config\n"
                          "clusters:\n"
                          "- name: rvscope\n"
                          "  cluster:\n"
                          "    server: %1\n"
                          "    insecure-skip-tls-verify: true\n"
                          "users:\n"
                          "- name: rvscope\n"
                          "  user: {}\n"
                          "contexts:\n"
                          "- name: rvscope\n"
                          "  context:\n"
                          "    cluster: rvscope\n"
                          "    user: rvscope\n"
                          "    namespace: default\n"
                          "current-context: rvscope\n")
        .arg(url);
}

QString kubectlCommand(const QString &url)
{
    return QStringLiteral("kubectl --server %1 get configmaps -w").arg(url);
}

} // namespace rvscope::ui::ServerConnectionText
