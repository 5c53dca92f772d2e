// SPDX-License-Identifier: MIT
#pragma once

#include <cstring>

#include <nlohmann/json.hpp>

// Header-only, for the QtTest suite and the fuzz targets alike (tests/model/TestJsonParse,
// tests/fuzz/fuzz_json_parse): the differential checks of model::parseJson.
namespace rvscope::testing {

// Same value, same types all the way down (5 as unsigned is not 5 as integer), and doubles
// equal bit for bit (-0.0 is not 0.0).
inline bool identicalJson(const nlohmann::json &a, const nlohmann::json &b)
{
    using json = nlohmann::json;
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case json::value_t::object: {
        if (a.size() != b.size())
            return false;
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
            if (ia.key() != ib.key() || !identicalJson(*ia, *ib))
                return false;
        }
        return true;
    }
    case json::value_t::array: {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!identicalJson(a[i], b[i]))
                return false;
        }
        return true;
    }
    case json::value_t::number_float: {
        const double x = a.get<double>();
        const double y = b.get<double>();
        return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
        return a == b;
    }
}

} // namespace rvscope::testing
