// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h"

// What the libFuzzer targets share: a fresh apiserver core (a registry over MemoryStorage,
// bootstrapped, and its ApiHandler, exactly as `serve` builds them minus the sockets) that is
// rebuilt every so many inputs so that state created by earlier inputs stays bounded.
namespace rvscope::fuzz {

// The input as text.
inline std::string_view textOf(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// A QCoreApplication for the process (coroutines that wait run a nested event loop).
void ensureApplication();

class FuzzCore final {
public:
    // The core for the next input: the same one, or a fresh one every `inputsPerCore`.
    static FuzzCore &next(int inputsPerCore = 2000);

    std::shared_ptr<api::ApiHandler> handler;

private:
    FuzzCore();
    std::shared_ptr<storage::MemoryStorage> m_storage;
    std::shared_ptr<registry::Registry> m_registry;
};

} // namespace rvscope::fuzz
