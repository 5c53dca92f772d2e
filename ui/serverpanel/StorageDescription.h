// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QString>

namespace rvscope::engine {
struct EngineOptions;
}

namespace rvscope::ui {

// Which storage serves, as the status bar and the Server panel say it: "storage: memory",
// "storage: etcd <endpoints> <prefix>".
QString storageText(const engine::EngineOptions &options);
// Which storage serves which resource, one line each (the main series, every
// --separate-storage type), and where other instances' writes come from.
QString storageDetails(const engine::EngineOptions &options);
// What a scenario (or a reset) runs on instead.
QString scenarioStorageText();

} // namespace rvscope::ui
