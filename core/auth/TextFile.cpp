// SPDX-License-Identifier: MIT
#include "auth/TextFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "model/StatusErrors.h"

namespace rvscope::auth {

model::Result<std::string> readTextFile(const std::string &path, std::string_view what)
{
    const auto failure = [&](const std::string &reason) {
        return model::errors::badRequest("unable to read " + std::string(what) + " \"" + path + "\": " + reason);
    };
    // An ifstream opens a directory without complaint and then reads nothing, which would
    // make `--token-file /etc` an empty token file.
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return failure("is a directory");
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return failure(std::strerror(errno));
    std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    if (file.bad())
        return failure("read error");
    return text;
}

} // namespace rvscope::auth
