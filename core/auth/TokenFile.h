// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "auth/UserInfo.h"
#include "model/Result.h"

namespace rvscope::auth {

// Bearer-token authentication from the apiserver's static token file
// (--token-auth-file, here --token-file): one CSV record per line,
//
//     token,user,uid[,"group1,group2"]
//
// Fields follow encoding/csv, as upstream reads them: a field may be quoted ("" stands for
// a quote inside it), a quote inside an unquoted field is an error, and no whitespace is
// trimmed (" alice" is a different user from "alice"). The groups column is split on ','
// (so it must be quoted to list several groups); empty group names are dropped.
//
// Stricter than upstream, because a silently ignored line is a security surprise: these are
// 400 BadRequest errors naming the line (tokens themselves are never echoed):
//   fewer than 3 or more than 4 columns, an empty token or user name, a token containing
//   whitespace (it could never arrive in a bearer header), a token defined twice, and a
//   quoted field left open at the end of its line (fields do not span lines).
// Blank (or all-whitespace) lines and lines starting with '#' are ignored; "\r\n" line ends
// are accepted.
//
// Immutable once built; authenticate() may be called from any thread.
class TokenFile final {
public:
    // No tokens: every bearer token is rejected.
    TokenFile() = default;

    static model::Result<TokenFile> parse(std::string_view text);
    // parse() of the file at `path`; a file that cannot be read is a 400 naming it.
    static model::Result<TokenFile> load(const std::string &path);
    // Built in code (a scenario's identities): token -> user, with parse()'s rules for tokens
    // and user names (empty, whitespace in a token, duplicates); errors name the user, never
    // the token. Groups are taken as given (a group name may contain ',').
    static model::Result<TokenFile> fromUsers(const std::vector<std::pair<std::string, UserInfo>> &users);

    // Whether requests without credentials become system:anonymous (default false).
    void setAnonymousAllowed(bool allowed) { m_anonymousAllowed = allowed; }
    bool anonymousAllowed() const { return m_anonymousAllowed; }

    // Authenticates the value of a request's Authorization header ("" when it has none), the
    // way the apiserver's bearer-token authenticator followed by the anonymous one does:
    // - no credentials (an empty header, a scheme other than "Bearer" (any case), or an empty
    //   token) -> system:anonymous in group system:unauthenticated when anonymous requests
    //   are allowed, else 401;
    // - "Bearer <token>" (split on single spaces; anything after a second space is ignored,
    //   as upstream does) -> the token's user, plus group system:authenticated unless the
    //   file already lists it or system:unauthenticated;
    // - an unknown token -> 401 even when anonymous requests are allowed.
    // The 401 is the apiserver's: reason Unauthorized, message "Unauthorized".
    model::Result<UserInfo> authenticate(std::string_view authorizationHeader) const;

    std::size_t size() const { return m_users.size(); }

private:
    std::unordered_map<std::string, UserInfo> m_users;
    bool m_anonymousAllowed = false;
};

} // namespace rvscope::auth
