// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QString>

namespace rvscope::engine {
struct ServerState;
}

namespace rvscope::ui {

// How a client reaches the embedded server: the texts the Server panel offers to copy.
// Pure functions.
namespace ServerConnectionText {

// The URL a client on this machine uses: the server's, with a wildcard listen address
// (0.0.0.0, ::) replaced by loopback. Empty when the server is not running.
QString clientUrl(const engine::ServerState &state);
// A minimal kubeconfig: cluster, user and context "rvscope", server `url`, TLS not verified
// (the server speaks plain HTTP), namespace default.
QString kubeconfig(const QString &url);
// "kubectl --server <url> get configmaps -w": a command line that needs no kubeconfig.
QString kubectlCommand(const QString &url);

} // namespace ServerConnectionText
} // namespace rvscope::ui
