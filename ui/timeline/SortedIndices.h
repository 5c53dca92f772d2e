// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <vector>

namespace rvscope::ui {

// Inserts `index` into `indices`, kept sorted by `key(index)`, after those of an equal key.
// Operations and deliveries arrive nearly sorted (in completion order): mostly an append.
template<typename Key>
void insertSorted(std::vector<int> &indices, int index, Key key)
{
    const auto value = key(index);
    auto at = indices.end();
    if (!indices.empty() && key(indices.back()) > value)
        at = std::upper_bound(indices.begin(), indices.end(), value, [&key](auto v, int i) { return v < key(i); });
    indices.insert(at, index);
}

} // namespace rvscope::ui
