// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rvscope::auth {

// The names the apiserver gives to users and groups it creates itself
// (k8s.io/apiserver/pkg/authentication/user).
inline constexpr std::string_view ANONYMOUS_USER = "system:anonymous";
inline constexpr std::string_view ALL_AUTHENTICATED_GROUP = "system:authenticated";
inline constexpr std::string_view ALL_UNAUTHENTICATED_GROUP = "system:unauthenticated";
inline constexpr std::string_view NODES_GROUP = "system:nodes";
inline constexpr std::string_view NODE_USER_PREFIX = "system:node:";

// Who made a request (user.Info without the extra map). A plain value; any thread.
struct UserInfo final {
    std::string name;
    std::string uid;
    std::vector<std::string> groups;

    bool inGroup(std::string_view group) const
    {
        for (const std::string &member : groups)
            if (member == group)
                return true;
        return false;
    }

    // The user the apiserver assigns to a request without credentials when anonymous
    // requests are enabled.
    static UserInfo anonymous()
    {
        return {std::string(ANONYMOUS_USER), {}, {std::string(ALL_UNAUTHENTICATED_GROUP)}};
    }

    bool operator==(const UserInfo &) const = default;
};

} // namespace rvscope::auth
