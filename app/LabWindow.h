// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "CommandLine.h"

namespace rvscope::engine {
class Engine;
}
namespace rvscope::ui {
class MainWindow;
}

namespace rvscope::app {

// The desktop lab as `rvscope [gui] [options]` opens it: an Engine built from the command
// line's options, its server started on --listen (a taken port shows in the status bar
// instead of failing), and the main window shown on the first-run scenario. main() makes
// one and runs the event loop; the tests make it the same way. Needs a QApplication.
class LabWindow final {
public:
    explicit LabWindow(const ServeOptions &options);
    ~LabWindow();
    LabWindow(const LabWindow &) = delete;
    LabWindow &operator=(const LabWindow &) = delete;

    engine::Engine &engine() const { return *m_engine; }
    ui::MainWindow &window() const { return *m_window; }

private:
    std::unique_ptr<engine::Engine> m_engine;
    std::unique_ptr<ui::MainWindow> m_window;
};

} // namespace rvscope::app
