// SPDX-License-Identifier: MIT
// LabelSelector::parse: a port of labels.Parse's lexer and recursive-descent parser. Clients
// read its error messages, and some inputs are accepted or refused only because of how that
// lexer works (a NUL byte ends the input, "(a,,)" is an error while "(a,,b)" is not), so the
// structure follows upstream's closely instead of being a fresh grammar.
#include "registry/selection/LabelSelector.h"

#include <algorithm>
#include <optional>
#include <set>
#include <variant>

#include "model/StatusErrors.h"
#include "registry/selection/LabelRequirementCheck_p.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
enum class Token {
    Error,
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
};

struct ScannedItem final {
    Token token = Token::Error;
    std::string literal;
};

std::optional<Token> literalToken(std::string_view text)
{
    static const std::pair<std::string_view, Token> TOKENS[] = {
        {")", Token::ClosedPar}, {",", Token::Comma},       {"!", Token::DoesNotExist}, {"==", Token::DoubleEquals},
        {"=", Token::Equals},    {">", Token::GreaterThan}, {"in", Token::In},          {"<", Token::LessThan},
        {"!=", Token::NotEquals}, {"notin", Token::NotIn},  {"(", Token::OpenPar},
    };
    for (const auto &[spelling, token] : TOKENS) {
        if (spelling == text)
            return token;
    }
    return std::nullopt;
}

bool isWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isSpecialSymbol(char c)
{
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

class Lexer final {
public:
    explicit Lexer(std::string_view input)
        : m_input(input)
    {
    }

    ScannedItem lex()
    {
        const char c = skipWhitespace(read());
        if (c == '\0')
            return {Token::EndOfString, {}};
        unread();
        return isSpecialSymbol(c) ? scanSpecialSymbol() : scanIdentifierOrKeyword();
    }

private:
    // Like upstream, '\0' stands for the end of input, so a NUL byte ends it too.
    char read() { return m_position < m_input.size() ? m_input[m_position++] : '\0'; }
    void unread() { --m_position; }

    char skipWhitespace(char c)
    {
        while (isWhitespace(c))
            c = read();
        return c;
    }

    ScannedItem scanIdentifierOrKeyword()
    {
        std::string buffer;
        for (;;) {
            const char c = read();
            if (c == '\0')
                break;
            if (isSpecialSymbol(c) || isWhitespace(c)) {
                unread();
                break;
            }
            buffer += c;
        }
        if (const auto token = literalToken(buffer))
            return {*token, buffer};
        return {Token::Identifier, buffer};
    }

    // The longest run of special characters that is still a token ("!=" rather than "!").
    ScannedItem scanSpecialSymbol()
    {
        ScannedItem last;
        std::string buffer;
        for (;;) {
            const char c = read();
            if (c == '\0')
                break;
            if (!isSpecialSymbol(c)) {
                unread();
                break;
            }
            buffer += c;
            if (const auto token = literalToken(buffer)) {
                last = {*token, buffer};
            } else if (last.token != Token::Error) {
                unread();
                break;
            }
        }
        if (last.token == Token::Error)
            return {Token::Error, "error expected: keyword found '" + buffer + "'"};
        return last;
    }

    std::string_view m_input;
    std::size_t m_position = 0;
};

// Where "in" and "notin" are keywords (after a key) and where they are plain identifiers
// (keys and values: `in in (in)` is a valid selector).
enum class Context { KeyAndOperator, Values };

struct ParseError final {
    std::string message;
};

class Parser final {
public:
    explicit Parser(std::string_view input)
    {
        Lexer lexer(input);
        do
            m_items.push_back(lexer.lex());
        while (m_items.back().token != Token::EndOfString);
    }

    // The requirements in input order, or the error message.
    std::variant<std::vector<LabelRequirement>, ParseError> parse()
    {
        std::vector<LabelRequirement> requirements;
        for (;;) {
            const auto [token, literal] = lookahead(Context::Values);
            if (token == Token::EndOfString)
                return requirements;
            if (token != Token::Identifier && token != Token::DoesNotExist)
                return ParseError{"found '" + literal + "', expected: !, identifier, or 'end of string'"};
            auto requirement = parseRequirement();
            if (auto *error = std::get_if<ParseError>(&requirement))
                return ParseError{"unable to parse requirement: " + error->message};
            requirements.push_back(std::move(std::get<LabelRequirement>(requirement)));
            const auto [next, nextLiteral] = consume(Context::Values);
            if (next == Token::EndOfString)
                return requirements;
            if (next != Token::Comma)
                return ParseError{"found '" + nextLiteral + "', expected: ',' or 'end of string'"};
            const auto [after, afterLiteral] = lookahead(Context::Values);
            if (after != Token::Identifier && after != Token::DoesNotExist)
                return ParseError{"found '" + afterLiteral + "', expected: identifier after ','"};
        }
    }

private:
    ScannedItem at(std::size_t index, Context context) const
    {
        ScannedItem item = m_items[std::min(index, m_items.size() - 1)];
        if (context == Context::Values && (item.token == Token::In || item.token == Token::NotIn))
            item.token = Token::Identifier;
        return item;
    }
    ScannedItem lookahead(Context context) const { return at(m_position, context); }
    ScannedItem consume(Context context) { return at(m_position++, context); }

    std::variant<LabelRequirement, ParseError> parseRequirement()
    {
        LabelRequirement requirement;
        std::optional<SelectorOperator> op;
        ScannedItem item = consume(Context::Values);
        if (item.token == Token::DoesNotExist) {
            op = SelectorOperator::DoesNotExist;
            item = consume(Context::Values);
        }
        if (item.token != Token::Identifier)
            return ParseError{"found '" + item.literal + "', expected: identifier"};
        const std::string &literal = item.literal;
        if (const auto keyErrors = isQualifiedName(literal); !keyErrors.empty()) {
            std::string joined;
            for (const std::string &message : keyErrors)
                joined += (joined.empty() ? "" : "; ") + message;
            // Upstream validates the key with a nil field path here, which prints as "<nil>".
            model::StatusCause cause = invalidField("<nil>", literal, joined);
            return ParseError{fieldErrorText(cause)};
        }
        requirement.key = literal;
        const Token next = lookahead(Context::Values).token;
        if (!op && (next == Token::EndOfString || next == Token::Comma))
            op = SelectorOperator::Exists;
        if (op) {
            // "!key" ends the requirement whatever follows; parse() then refuses the rest.
            requirement.op = *op;
            return checked(std::move(requirement));
        }
        const auto [opToken, opLiteral] = consume(Context::KeyAndOperator);
        switch (opToken) {
        case Token::In: requirement.op = SelectorOperator::In; break;
        case Token::Equals: requirement.op = SelectorOperator::Equals; break;
        case Token::DoubleEquals: requirement.op = SelectorOperator::DoubleEquals; break;
        case Token::GreaterThan: requirement.op = SelectorOperator::GreaterThan; break;
        case Token::LessThan: requirement.op = SelectorOperator::LessThan; break;
        case Token::NotIn: requirement.op = SelectorOperator::NotIn; break;
        case Token::NotEquals: requirement.op = SelectorOperator::NotEquals; break;
        default: return ParseError{"found '" + opLiteral + "', expected: in, notin, =, ==, !=, gt, lt"};
        }
        std::optional<ParseError> error = requirement.op == SelectorOperator::In || requirement.op == SelectorOperator::NotIn
            ? parseValues(requirement.values)
            : parseExactValue(requirement.values);
        if (error)
            return *error;
        return checked(std::move(requirement));
    }

    static std::variant<LabelRequirement, ParseError> checked(LabelRequirement requirement)
    {
        if (auto error = checkLabelRequirement(requirement))
            return ParseError{std::move(*error)};
        return requirement;
    }

    // "(" values ")": a set, so duplicates collapse and the values come out sorted.
    std::optional<ParseError> parseValues(std::vector<std::string> &values)
    {
        const auto [open, openLiteral] = consume(Context::Values);
        if (open != Token::OpenPar)
            return ParseError{"found '" + openLiteral + "' expected: '('"};
        const auto [token, literal] = lookahead(Context::Values);
        std::set<std::string> set;
        if (token == Token::Identifier || token == Token::Comma) {
            if (auto error = parseIdentifiersList(set))
                return error;
            if (consume(Context::Values).token != Token::ClosedPar)
                return ParseError{"found '" + literal + "', expected: ')'"};
        } else if (token == Token::ClosedPar) {
            consume(Context::Values);
            set.insert(std::string()); // "()" is the empty value
        } else {
            return ParseError{"found '" + literal + "', expected: ',', ')' or identifier"};
        }
        values.assign(set.begin(), set.end());
        return std::nullopt;
    }

    // Comma-separated identifiers, where a missing one between commas is the empty value.
    std::optional<ParseError> parseIdentifiersList(std::set<std::string> &set)
    {
        for (;;) {
            const auto [token, literal] = consume(Context::Values);
            if (token == Token::Identifier) {
                set.insert(literal);
                const auto [next, nextLiteral] = lookahead(Context::Values);
                if (next == Token::Comma)
                    continue;
                if (next == Token::ClosedPar)
                    return std::nullopt;
                return ParseError{"found '" + nextLiteral + "', expected: ',' or ')'"};
            }
            if (token != Token::Comma)
                return ParseError{"found '" + literal + "', expected: ',', or identifier"};
            if (set.empty())
                set.insert(std::string());
            const Token next = lookahead(Context::Values).token;
            if (next == Token::ClosedPar) {
                set.insert(std::string());
                return std::nullopt;
            }
            if (next == Token::Comma) {
                consume(Context::Values);
                set.insert(std::string());
            }
        }
    }

    // The single value after =, ==, !=, > or <; nothing before ',' or the end is "".
    std::optional<ParseError> parseExactValue(std::vector<std::string> &values)
    {
        const Token next = lookahead(Context::Values).token;
        if (next == Token::EndOfString || next == Token::Comma) {
            values.push_back(std::string());
            return std::nullopt;
        }
        const auto [token, literal] = consume(Context::Values);
        if (token != Token::Identifier)
            return ParseError{"found '" + literal + "', expected: identifier"};
        values.push_back(literal);
        return std::nullopt;
    }

    std::vector<ScannedItem> m_items;
    std::size_t m_position = 0;
};
} // namespace

model::Result<LabelSelector> LabelSelector::parse(std::string_view selector)
{
    auto parsed = Parser(selector).parse();
    if (auto *error = std::get_if<ParseError>(&parsed))
        return model::errors::badRequest(std::move(error->message));
    return LabelSelector(std::move(std::get<std::vector<LabelRequirement>>(parsed)));
}

} // namespace rvscope::registry
