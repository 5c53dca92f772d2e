// SPDX-License-Identifier: MIT
#include "patch/JsonPointer.h"

#include <nlohmann/json.hpp>

namespace rvscope::patch {

std::optional<std::vector<std::string>> parseJsonPointer(std::string_view pointer)
{
    std::vector<std::string> tokens;
    if (pointer.empty())
        return tokens;
    if (pointer.front() != '/')
        return std::nullopt;
    std::string token;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens.push_back(std::move(token));
            token.clear();
            continue;
        }
        if (pointer[i] != '~') {
            token += pointer[i];
            continue;
        }
        if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1'))
            return std::nullopt;
        token += pointer[i + 1] == '0' ? '~' : '/';
        ++i;
    }
    return tokens;
}

std::optional<std::size_t> parseArrayIndex(std::string_view token)
{
    // 18 digits always fit in size_t; no real array comes near that length anyway.
    if (token.empty() || token.size() > 18 || (token.size() > 1 && token.front() == '0'))
        return std::nullopt;
    std::size_t index = 0;
    for (char c : token) {
        if (c < '0' || c > '9')
            return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    return index;
}

nlohmann::json *resolveJsonPointer(nlohmann::json &document, const std::vector<std::string> &tokens,
                                   std::size_t depth)
{
    nlohmann::json *current = &document;
    for (std::size_t i = 0; i < depth && i < tokens.size(); ++i) {
        if (current->is_object()) {
            auto it = current->find(tokens[i]);
            if (it == current->end())
                return nullptr;
            current = &*it;
        } else if (current->is_array()) {
            const std::optional<std::size_t> index = parseArrayIndex(tokens[i]);
            if (!index || *index >= current->size())
                return nullptr;
            current = &(*current)[*index];
        } else {
            return nullptr;
        }
    }
    return current;
}

} // namespace rvscope::patch
