// SPDX-License-Identifier: MIT
#include "WindowProcess.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace rvscope::app {
namespace {

std::string siblingPath(const char *name)
{
    char self[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0)
        return {};
    std::string path(self, std::size_t(length));
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1) + name;
}

} // namespace

int execWindowProcess(int argc, char **argv)
{
    const std::string window = siblingPath("rvscope-gui");
    if (window.empty() || ::access(window.c_str(), X_OK) != 0) {
        std::fputs("rvscope: this build has no window (configured with -DRVSCOPE_GUI=OFF); serving headless "
                   "instead\n",
                   stderr);
        return 0;
    }
    std::vector<char *> arguments(argv, argv + argc);
    arguments[0] = const_cast<char *>(window.c_str());
    arguments.push_back(nullptr);
    ::execv(window.c_str(), arguments.data());
    std::fprintf(stderr, "rvscope: cannot start %s: %s\n", window.c_str(), std::strerror(errno));
    return 1;
}

} // namespace rvscope::app
