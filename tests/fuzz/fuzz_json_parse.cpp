// SPDX-License-Identifier: MIT
// libFuzzer target: model::parseJson, differential against nlohmann::json::parse, as
// tests/model/TestJsonParse.cpp checks it: both accept and reject the same texts and build the
// same values (numbers bit for bit), but where they differ on purpose: parseJson rejects
// anything after a NUL byte (Go does; nlohmann stops reading there) and nesting past Go's
// 10,000 levels. model::dumpJson must then write what nlohmann's dump writes.
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "FuzzSupport.h"
#include "JsonIdentical.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"

using nlohmann::json;

namespace {
bool nestsDeep(std::string_view text)
{
    std::size_t open = 0;
    for (char c : text)
        open += c == '[' || c == '{';
    return open > 10'000;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = rvscope::fuzz::textOf(data, size);
    const std::optional<json> ours = rvscope::model::parseJson(text);
    if (text.find('\0') != std::string_view::npos || nestsDeep(text))
        return 0; // the intended differences: only that nothing crashes
    const json theirs = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (theirs.is_discarded() != !ours.has_value())
        std::abort(); // one accepts what the other rejects
    if (!ours)
        return 0;
    if (!rvscope::testing::identicalJson(*ours, theirs))
        std::abort();
    if (rvscope::model::dumpJson(*ours) != theirs.dump(-1, ' ', false, json::error_handler_t::replace))
        std::abort();
    return 0;
}
