// SPDX-License-Identifier: MIT
#include "api/table/TableCells.h"

#include <algorithm>
#include <vector>

#include "model/JsonAccess.h"
#include "model/JsonWrite.h"

namespace rvscope::api::table {
namespace {

bool digits(std::string_view text, std::size_t at, std::size_t count, int &out)
{
    if (at + count > text.size())
        return false;
    out = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        out = out * 10 + (text[i] - '0');
    }
    return true;
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(int year, int month, int day)
{
    year -= month <= 2;
    const int era = (year >= 0 ? year : year - 399) / 400;
    const int yearOfEra = year - era * 400;
    const int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return std::int64_t(era) * 146097 + dayOfEra - 719468;
}

std::string scalarText(const nlohmann::json &value)
{
    return value.is_string() ? value.get<std::string>() : model::dumpJson(value);
}

} // namespace

std::optional<std::int64_t> parseTime(std::string_view text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (text.size() < 20 || !digits(text, 0, 4, year) || text[4] != '-' || !digits(text, 5, 2, month)
        || text[7] != '-' || !digits(text, 8, 2, day) || (text[10] != 'T' && text[10] != 't')
        || !digits(text, 11, 2, hour) || text[13] != ':' || !digits(text, 14, 2, minute) || text[16] != ':'
        || !digits(text, 17, 2, second))
        return std::nullopt;
    std::size_t at = 19;
    if (at < text.size() && text[at] == '.') {
        ++at;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9')
            ++at;
    }
    if (at + 1 != text.size() || (text[at] != 'Z' && text[at] != 'z') || month < 1 || month > 12 || day < 1
        || day > 31 || hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    return daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
}

std::string humanDuration(std::int64_t s)
{
    if (s < -1)
        return "<invalid>";
    if (s < 0)
        return "0s";
    if (s < 120)
        return std::to_string(s) + 's';
    const std::int64_t minutes = s / 60;
    if (minutes < 10) {
        const std::int64_t rest = s % 60;
        return std::to_string(minutes) + 'm' + (rest == 0 ? std::string() : std::to_string(rest) + 's');
    }
    if (minutes < 180)
        return std::to_string(minutes) + 'm';
    const std::int64_t hours = s / 3600;
    if (hours < 8) {
        const std::int64_t rest = minutes % 60;
        return std::to_string(hours) + 'h' + (rest == 0 ? std::string() : std::to_string(rest) + 'm');
    }
    if (hours < 48)
        return std::to_string(hours) + 'h';
    const std::int64_t days = hours / 24;
    if (hours < 192) {
        const std::int64_t rest = hours % 24;
        return std::to_string(days) + 'd' + (rest == 0 ? std::string() : std::to_string(rest) + 'h');
    }
    if (hours < 17520)
        return std::to_string(days) + 'd';
    const std::int64_t years = days / 365;
    if (hours < 70080) {
        const std::int64_t rest = days % 365;
        return std::to_string(years) + 'y' + (rest == 0 ? std::string() : std::to_string(rest) + 'd');
    }
    return std::to_string(years) + 'y';
}

std::string age(const nlohmann::json &timestamp, std::int64_t now)
{
    const auto at = timestamp.is_string() ? parseTime(timestamp.get_ref<const std::string &>()) : std::nullopt;
    return at ? humanDuration(now - *at) : "<unknown>";
}

std::string formatLabels(const nlohmann::json &labels)
{
    std::vector<std::string> pairs;
    if (labels.is_object()) {
        for (auto it = labels.begin(); it != labels.end(); ++it)
            pairs.push_back(it.key() + '=' + scalarText(it.value()));
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs.empty() ? "<none>" : joined(pairs, ",");
}

std::string formatLabelSelector(const nlohmann::json &selector)
{
    if (!selector.is_object())
        return "<none>";
    std::vector<std::pair<std::string, std::string>> requirements; // key, text
    if (auto labels = selector.find("matchLabels"); labels != selector.end() && labels->is_object()) {
        for (auto it = labels->begin(); it != labels->end(); ++it)
            requirements.emplace_back(it.key(), it.key() + '=' + scalarText(it.value()));
    }
    if (auto expressions = selector.find("matchExpressions"); expressions != selector.end() && expressions->is_array()) {
        for (const nlohmann::json &expression : *expressions) {
            const std::string key = textOr(expression.value("key", nlohmann::json()), "");
            const std::string op = textOr(expression.value("operator", nlohmann::json()), "");
            std::vector<std::string> values;
            for (const nlohmann::json &value : expression.value("values", nlohmann::json::array()))
                values.push_back(scalarText(value));
            std::sort(values.begin(), values.end());
            const std::string list = '(' + joined(values, ",") + ')';
            if (op == "In")
                requirements.emplace_back(key, key + " in " + list);
            else if (op == "NotIn")
                requirements.emplace_back(key, key + " notin " + list);
            else if (op == "Exists")
                requirements.emplace_back(key, key);
            else if (op == "DoesNotExist")
                requirements.emplace_back(key, '!' + key);
            else
                return "<error>";
        }
    }
    if (requirements.empty())
        return "<none>";
    std::stable_sort(requirements.begin(), requirements.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<std::string> texts;
    for (auto &[key, text] : requirements)
        texts.push_back(std::move(text));
    return joined(texts, ",");
}

std::string containerNames(const nlohmann::json &podSpec)
{
    std::vector<std::string> names;
    if (podSpec.is_object())
        for (const nlohmann::json &container : podSpec.value("containers", nlohmann::json::array()))
            names.push_back(textOr(container.value("name", nlohmann::json()), ""));
    return joined(names, ",");
}

std::string containerImages(const nlohmann::json &podSpec)
{
    std::vector<std::string> images;
    if (podSpec.is_object())
        for (const nlohmann::json &container : podSpec.value("containers", nlohmann::json::array()))
            images.push_back(textOr(container.value("image", nlohmann::json()), ""));
    return joined(images, ",");
}

std::string textOr(const nlohmann::json &value, std::string otherwise)
{
    if (value.is_string() && !value.get_ref<const std::string &>().empty())
        return value.get<std::string>();
    return otherwise;
}

std::int64_t integerOr0(const nlohmann::json &value)
{
    return value.is_number_integer() ? value.get<std::int64_t>() : 0;
}

std::size_t sizeOf(const nlohmann::json &value)
{
    return value.is_structured() ? value.size() : 0;
}

const nlohmann::json &arrayOrEmpty(const nlohmann::json &value)
{
    static const nlohmann::json empty = nlohmann::json::array();
    return value.is_array() ? value : empty;
}

std::string joined(const std::vector<std::string> &parts, const char *separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += separator;
        out += parts[i];
    }
    return out;
}

std::string listWithMore(const std::vector<std::string> &list, bool more, std::size_t count, std::size_t max)
{
    const std::string text = joined(list, ",");
    if (more)
        return text + " + " + std::to_string(count - max) + " more...";
    return text.empty() ? "<unset>" : text;
}

std::string intOrString(const nlohmann::json &value)
{
    if (value.is_number_integer())
        return std::to_string(value.get<std::int64_t>());
    return value.is_string() ? value.get<std::string>() : std::string();
}

std::string objectName(const nlohmann::json &object)
{
    return textOr(model::memberAt(object, "metadata", "name"), "");
}

std::string objectAge(const nlohmann::json &object, std::int64_t now)
{
    return age(model::memberAt(object, "metadata", "creationTimestamp"), now);
}

} // namespace rvscope::api::table
