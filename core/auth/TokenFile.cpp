// SPDX-License-Identifier: MIT
#include "auth/TokenFile.h"

#include <map>
#include <variant>
#include <vector>

#include "auth/TextFile.h"
#include "model/StatusErrors.h"

namespace rvscope::auth {
namespace {
constexpr std::string_view WHITESPACE = " \t\n\v\f\r";

struct FieldError final {
    std::size_t column = 0; // 1-based, in bytes like encoding/csv
    std::string message;
};

// One line of the file as encoding/csv splits a record (LazyQuotes off), except that a
// quoted field must close on its own line.
std::variant<std::vector<std::string>, FieldError> splitRecord(std::string_view line)
{
    std::vector<std::string> fields;
    std::size_t pos = 0;
    for (;;) {
        if (pos < line.size() && line[pos] == '"') {
            std::string field;
            std::size_t i = pos + 1;
            for (;;) {
                if (i >= line.size())
                    return FieldError{pos + 1, "quoted field is not closed on its line"};
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            fields.push_back(std::move(field));
            if (i == line.size())
                break;
            if (line[i] != ',')
                return FieldError{i + 1, "extraneous or missing \" in quoted field"};
            pos = i + 1;
            continue;
        }
        const std::size_t end = line.find(',', pos);
        const std::string_view field = line.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        if (const std::size_t quote = field.find('"'); quote != std::string_view::npos)
            return FieldError{pos + quote + 1, "bare \" in non-quoted field"};
        fields.emplace_back(field);
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
    return fields;
}

std::vector<std::string> splitGroups(const std::string &column)
{
    std::vector<std::string> groups;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = column.find(',', start);
        std::string group = column.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!group.empty())
            groups.push_back(std::move(group));
        if (comma == std::string::npos)
            return groups;
        start = comma + 1;
    }
}

model::Status lineError(std::string_view source, std::size_t line, const std::string &message)
{
    return model::errors::badRequest(std::string(source) + " line " + std::to_string(line) + ": " + message);
}

using UsersByToken = std::unordered_map<std::string, UserInfo>;

model::Result<UsersByToken> parseUsers(std::string_view text, std::string_view source)
{
    UsersByToken users;
    std::map<std::string, std::size_t> definedOn; // token -> line, for duplicate errors
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        ++lineNumber;
        const std::size_t newline = text.find('\n', start);
        std::string_view line = text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
        start = newline == std::string_view::npos ? text.size() : newline + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(WHITESPACE) == std::string_view::npos || line.front() == '#')
            continue;

        auto split = splitRecord(line);
        if (const auto *error = std::get_if<FieldError>(&split))
            return model::errors::badRequest(std::string(source) + " line " + std::to_string(lineNumber) + ", column "
                                             + std::to_string(error->column) + ": " + error->message);
        auto &fields = std::get<std::vector<std::string>>(split);
        if (fields.size() < 3)
            return lineError(source, lineNumber,
                             "must have at least 3 columns (token, user name, user uid), found "
                                 + std::to_string(fields.size()));
        if (fields.size() > 4)
            return lineError(source, lineNumber,
                             "found " + std::to_string(fields.size())
                                 + " columns, at most 4 are allowed (token, user name, user uid, groups); "
                                   "quote a groups column that lists several groups: \"group1,group2\"");
        const std::string &token = fields[0];
        if (token.empty())
            return lineError(source, lineNumber, "empty token");
        if (token.find_first_of(WHITESPACE) != std::string::npos)
            return lineError(source, lineNumber, "the token contains whitespace, so no bearer header could carry it");
        if (fields[1].empty())
            return lineError(source, lineNumber, "empty user name");
        if (const auto previous = definedOn.find(token); previous != definedOn.end())
            return lineError(source, lineNumber,
                             "duplicate token (first defined on line " + std::to_string(previous->second) + ')');
        definedOn.emplace(token, lineNumber);

        UserInfo user{fields[1], fields[2], {}};
        if (fields.size() == 4)
            user.groups = splitGroups(fields[3]);
        users.emplace(token, std::move(user));
    }
    return users;
}
} // namespace

model::Result<TokenFile> TokenFile::parse(std::string_view text)
{
    auto users = parseUsers(text, "token file");
    if (!users)
        return std::move(users).error();
    TokenFile tokenFile;
    tokenFile.m_users = std::move(users).value();
    return tokenFile;
}

model::Result<TokenFile> TokenFile::load(const std::string &path)
{
    const auto text = readTextFile(path, "token file");
    if (!text)
        return text.error();
    auto users = parseUsers(*text, "token file \"" + path + '"');
    if (!users)
        return std::move(users).error();
    TokenFile tokenFile;
    tokenFile.m_users = std::move(users).value();
    return tokenFile;
}

model::Result<TokenFile> TokenFile::fromUsers(const std::vector<std::pair<std::string, UserInfo>> &users)
{
    TokenFile tokenFile;
    for (const auto &[token, user] : users) {
        const std::string who = "token of user \"" + user.name + '"';
        if (user.name.empty())
            return model::errors::badRequest("tokens: empty user name");
        if (token.empty())
            return model::errors::badRequest(who + ": empty token");
        if (token.find_first_of(WHITESPACE) != std::string::npos)
            return model::errors::badRequest(who + ": the token contains whitespace, so no bearer header could carry it");
        if (!tokenFile.m_users.emplace(token, user).second)
            return model::errors::badRequest(who + ": duplicate token");
    }
    return tokenFile;
}

model::Result<UserInfo> TokenFile::authenticate(std::string_view authorizationHeader) const
{
    const auto noCredentials = [this]() -> model::Result<UserInfo> {
        if (m_anonymousAllowed)
            return UserInfo::anonymous();
        return model::errors::unauthorized();
    };

    // bearertoken.Authenticator: TrimSpace, then SplitN(header, " ", 3).
    const std::size_t first = authorizationHeader.find_first_not_of(WHITESPACE);
    if (first == std::string_view::npos)
        return noCredentials();
    const std::size_t last = authorizationHeader.find_last_not_of(WHITESPACE);
    const std::string_view header = authorizationHeader.substr(first, last - first + 1);

    const std::size_t space = header.find(' ');
    if (space == std::string_view::npos)
        return noCredentials();
    std::string scheme(header.substr(0, space));
    for (char &c : scheme)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (scheme != "bearer")
        return noCredentials();
    std::string_view token = header.substr(space + 1);
    token = token.substr(0, token.find(' '));
    if (token.empty())
        return noCredentials();

    const auto it = m_users.find(std::string(token));
    if (it == m_users.end())
        return model::errors::unauthorized();
    UserInfo user = it->second;
    if (!user.inGroup(ALL_AUTHENTICATED_GROUP) && !user.inGroup(ALL_UNAUTHENTICATED_GROUP))
        user.groups.emplace_back(ALL_AUTHENTICATED_GROUP);
    return user;
}

} // namespace rvscope::auth
