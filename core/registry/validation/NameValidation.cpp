// SPDX-License-Identifier: MIT
#include "registry/validation/NameValidation.h"

#include <cstdint>

#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
// The regular expressions are quoted in the messages exactly as upstream spells them; the
// matching below implements them by hand (no std::regex: no exceptions, no backtracking).
constexpr const char *DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char *DNS1123_LABEL_ERR =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
    "start and end with an alphanumeric character";
constexpr const char *DNS1123_SUBDOMAIN_FMT =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr const char *DNS1123_SUBDOMAIN_ERR =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character";
constexpr const char *DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr const char *DNS1035_LABEL_ERR =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character";
constexpr const char *QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char *QUALIFIED_NAME_ERR =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr const char *LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr const char *LABEL_VALUE_ERR =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character";

// validation.RegexError, including its odd "',  or '" spacing between examples.
std::string regexError(const char *message, const char *format, std::initializer_list<const char *> examples)
{
    std::string text = message;
    text += " (e.g. ";
    bool first = true;
    for (const char *example : examples) {
        if (!first)
            text += " or ";
        first = false;
        text += '\'';
        text += example;
        text += "', ";
    }
    text += "regex used for validation is '";
    text += format;
    text += "')";
    return text;
}

std::string maxLenError(std::size_t length)
{
    return "must be no more than " + std::to_string(length) + " characters";
}

bool isLowerAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool isAlnum(char c)
{
    return isLowerAlnum(c) || (c >= 'A' && c <= 'Z');
}

bool matchesDns1123Label(std::string_view value)
{
    if (value.empty() || !isLowerAlnum(value.front()) || !isLowerAlnum(value.back()))
        return false;
    for (char c : value) {
        if (!isLowerAlnum(c) && c != '-')
            return false;
    }
    return true;
}

bool matchesDns1123Subdomain(std::string_view value)
{
    for (;;) {
        const std::size_t dot = value.find('.');
        if (!matchesDns1123Label(value.substr(0, dot)))
            return false;
        if (dot == std::string_view::npos)
            return true;
        value.remove_prefix(dot + 1);
    }
}

bool matchesDns1035Label(std::string_view value)
{
    return matchesDns1123Label(value) && value.front() >= 'a' && value.front() <= 'z';
}

bool matchesQualifiedNamePart(std::string_view value)
{
    if (value.empty() || !isAlnum(value.front()) || !isAlnum(value.back()))
        return false;
    for (char c : value) {
        if (!isAlnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    }
    return true;
}

// apimachinery's maskTrailingDash, quirk included: it drops the last two characters, not one,
// before appending 'a'. Only whether a trailing '-' still fails matters, and that is kept.
std::string_view maskTrailingDash(std::string_view name, std::string &storage)
{
    if (name.size() > 1 && name.back() == '-') {
        storage = std::string(name.substr(0, name.size() - 2)) + 'a';
        return storage;
    }
    return name;
}
} // namespace

std::vector<std::string> isDns1123Label(std::string_view value)
{
    std::vector<std::string> errors;
    if (value.size() > DNS1123_LABEL_MAX_LENGTH)
        errors.push_back(maxLenError(DNS1123_LABEL_MAX_LENGTH));
    if (!matchesDns1123Label(value))
        errors.push_back(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, {"my-name", "123-abc"}));
    return errors;
}

std::vector<std::string> isDns1123Subdomain(std::string_view value)
{
    std::vector<std::string> errors;
    if (value.size() > DNS1123_SUBDOMAIN_MAX_LENGTH)
        errors.push_back(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    if (!matchesDns1123Subdomain(value))
        errors.push_back(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, {"example.com"}));
    return errors;
}

std::vector<std::string> isDns1035Label(std::string_view value)
{
    std::vector<std::string> errors;
    if (value.size() > DNS1035_LABEL_MAX_LENGTH)
        errors.push_back(maxLenError(DNS1035_LABEL_MAX_LENGTH));
    if (!matchesDns1035Label(value))
        errors.push_back(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, {"my-name", "abc-123"}));
    return errors;
}

std::vector<std::string> isQualifiedName(std::string_view value)
{
    std::vector<std::string> errors;
    std::string_view name = value;
    const std::size_t slash = value.find('/');
    if (slash != std::string_view::npos) {
        if (value.find('/', slash + 1) != std::string_view::npos) {
            errors.push_back("a qualified name "
                             + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, {"MyName", "my.name", "123-abc"})
                             + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errors;
        }
        const std::string_view prefix = value.substr(0, slash);
        name = value.substr(slash + 1);
        if (prefix.empty()) {
            errors.push_back("prefix part must be non-empty");
        } else {
            for (std::string &message : isDns1123Subdomain(prefix))
                errors.push_back("prefix part " + message);
        }
    }
    if (name.empty())
        errors.push_back("name part must be non-empty");
    else if (name.size() > QUALIFIED_NAME_MAX_LENGTH)
        errors.push_back("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
    if (!matchesQualifiedNamePart(name))
        errors.push_back("name part "
                         + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, {"MyName", "my.name", "123-abc"}));
    return errors;
}

std::vector<std::string> isValidLabelValue(std::string_view value)
{
    std::vector<std::string> errors;
    if (value.size() > LABEL_VALUE_MAX_LENGTH)
        errors.push_back(maxLenError(LABEL_VALUE_MAX_LENGTH));
    if (!value.empty() && !matchesQualifiedNamePart(value))
        errors.push_back(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, {"MyValue", "my_value", "12345"}));
    return errors;
}

std::vector<std::string> nameIsDnsSubdomain(std::string_view name, bool prefix)
{
    std::string masked;
    return isDns1123Subdomain(prefix ? maskTrailingDash(name, masked) : name);
}

std::vector<std::string> nameIsDnsLabel(std::string_view name, bool prefix)
{
    std::string masked;
    return isDns1123Label(prefix ? maskTrailingDash(name, masked) : name);
}

std::vector<std::string> nameIsDns1035Label(std::string_view name, bool prefix)
{
    std::string masked;
    return isDns1035Label(prefix ? maskTrailingDash(name, masked) : name);
}

std::vector<std::string> nameIsPathSegment(std::string_view name, bool prefix)
{
    if (!prefix) {
        for (std::string_view illegal : {".", ".."}) {
            if (name == illegal)
                return {"may not be '" + std::string(illegal) + "'"};
        }
    }
    std::vector<std::string> problems;
    for (std::string_view illegal : {"/", "%"}) {
        if (name.find(illegal) != std::string_view::npos)
            problems.push_back("may not contain '" + std::string(illegal) + "'");
    }
    return problems;
}

std::vector<model::StatusCause> validateObjectName(std::string_view name, ValidateNameFunc validateName)
{
    std::vector<model::StatusCause> causes;
    if (name.empty()) {
        causes.push_back(requiredField("metadata.name", "name or generateName is required"));
        return causes;
    }
    for (const std::string &message : validateName(name, false))
        causes.push_back(invalidField("metadata.name", name, message));
    return causes;
}

std::string generateNameFrom(std::string_view base, std::mt19937 &random)
{
    static constexpr std::string_view ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    // As upstream's utilrand.String: 5 bits of a random word per character, rejecting the
    // indexes past the alphabet, so every character is equally likely.
    constexpr int BITS_PER_CHARACTER = 5;
    constexpr int CHARACTERS_PER_WORD = 32 / BITS_PER_CHARACTER;
    std::string name(base.substr(0, MAX_GENERATE_NAME_BASE_LENGTH));
    std::uint32_t word = 0;
    int remaining = 0;
    std::size_t added = 0;
    while (added < GENERATED_SUFFIX_LENGTH) {
        if (remaining == 0) {
            word = static_cast<std::uint32_t>(random());
            remaining = CHARACTERS_PER_WORD;
        }
        const std::uint32_t index = word & ((1u << BITS_PER_CHARACTER) - 1);
        word >>= BITS_PER_CHARACTER;
        --remaining;
        if (index < ALPHABET.size()) {
            name += ALPHABET[index];
            ++added;
        }
    }
    return name;
}

std::vector<std::string> isConfigMapKey(std::string_view key)
{
    std::vector<std::string> errors;
    if (key.size() > 253)
        errors.emplace_back("must be no more than 253 characters");
    bool valid = !key.empty();
    for (const char c : key) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        valid = valid && (alnum || c == '-' || c == '_' || c == '.');
    }
    if (!valid)
        errors.emplace_back("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. "
                            "'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
                            "'[-._a-zA-Z0-9]+')");
    if (key == ".")
        errors.emplace_back("must not be '.'");
    else if (key == "..")
        errors.emplace_back("must not be '..'");
    else if (key.substr(0, 2) == "..")
        errors.emplace_back("must not start with '..'");
    return errors;
}

} // namespace rvscope::registry
