// SPDX-License-Identifier: MIT
#include "api/ApiTypes.h"

namespace rvscope::api {

std::string ApiRequest::header(const std::string &lowerName) const
{
    auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

const std::string *ApiRequest::queryValue(const std::string &name) const
{
    auto it = query.find(name);
    return it == query.end() ? nullptr : &it->second;
}

} // namespace rvscope::api
