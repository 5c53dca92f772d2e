// SPDX-License-Identifier: MIT
#include "api/protobuf/ProtobufJson.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "kubernetes/go_json.pb.h"
#include "model/StatusErrors.h"
#include "model/Utf8.h"

namespace rvscope::api {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using nlohmann::json;

constexpr std::string_view TIME_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
constexpr std::string_view MICRO_TIME_TYPE = "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime";
constexpr std::string_view INT_OR_STRING_TYPE = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
constexpr std::string_view QUANTITY_TYPE = "k8s.io.apimachinery.pkg.api.resource.Quantity";

// Go's time.Time{} (0001-01-01T00:00:00Z) in Unix seconds: a zero metav1.Time marshals to
// nothing on the wire, but a client may also send the zero instant itself.
constexpr std::int64_t ZERO_TIME_UNIX_SECONDS = -62135596800;
constexpr std::int64_t SECONDS_PER_DAY = 86400;
constexpr std::int64_t NANOS_PER_SECOND = 1000000000;

std::string base64(std::string_view bytes)
{
    static constexpr char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    const auto at = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k])); };
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t n = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
        out += ALPHABET[n >> 18 & 63];
        out += ALPHABET[n >> 12 & 63];
        out += ALPHABET[n >> 6 & 63];
        out += ALPHABET[n & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        const std::uint32_t n = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0);
        out += ALPHABET[n >> 18 & 63];
        out += ALPHABET[n >> 12 & 63];
        out += rest == 2 ? ALPHABET[n >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

std::int64_t floorDiv(std::int64_t value, std::int64_t divisor)
{
    const std::int64_t quotient = value / divisor;
    return value % divisor < 0 ? quotient - 1 : quotient;
}

struct CivilDate final {
    std::int64_t year;
    unsigned month;
    unsigned day;
};

// Days since 1970-01-01 → proleptic Gregorian date (H. Hinnant's civil_from_days); valid for
// every day a Unix-seconds int64 can reach.
CivilDate civilFromDays(std::int64_t days)
{
    days += 719468;
    const std::int64_t era = floorDiv(days, 146097);
    const auto dayOfEra = static_cast<unsigned>(days - era * 146097);
    const unsigned yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const unsigned dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const unsigned shiftedMonth = (5 * dayOfYear + 2) / 153;
    const unsigned day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1;
    const unsigned month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
    return {static_cast<std::int64_t>(yearOfEra) + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

bool isZero(const json &value)
{
    switch (value.type()) {
    case json::value_t::null:
        return true;
    case json::value_t::string:
        return value.get_ref<const std::string &>().empty();
    case json::value_t::boolean:
        return !value.get<bool>();
    case json::value_t::number_integer:
        return value.get<std::int64_t>() == 0;
    case json::value_t::number_unsigned:
        return value.get<std::uint64_t>() == 0;
    case json::value_t::number_float:
        return value.get<double>() == 0.0;
    default:
        return false;
    }
}

// Walks a message by reflection. The first value Go could not write either is kept in
// m_error; the walk goes on (it is cheap) and the caller discards its result.
class KubernetesJsonWriter final {
public:
    json object(const Message &message)
    {
        json out = json::object();
        writeFields(message, out);
        return out;
    }

    const std::string &error() const { return m_error; }

private:
    json value(const Message &message)
    {
        const std::string &type = message.GetDescriptor()->full_name();
        if (type == TIME_TYPE)
            return time(message, false);
        if (type == MICRO_TIME_TYPE)
            return time(message, true);
        if (type == INT_OR_STRING_TYPE)
            return intOrString(message);
        if (type == QUANTITY_TYPE)
            return quantity(message);
        return object(message);
    }

    void writeFields(const Message &message, json &out)
    {
        const Descriptor *descriptor = message.GetDescriptor();
        for (int i = 0; i < descriptor->field_count(); ++i) {
            const FieldDescriptor *field = descriptor->field(i);
            if (field->is_map())
                writeMap(message, field, out);
            else if (field->is_repeated())
                writeRepeated(message, field, out);
            else
                writeSingular(message, field, out);
        }
    }

    void writeMap(const Message &message, const FieldDescriptor *field, json &out)
    {
        const Reflection *reflection = message.GetReflection();
        const int size = reflection->FieldSize(message, field);
        if (size == 0) {
            if (goJson(field) == rvscope::pb::REQUIRED)
                out[field->name()] = nullptr;
            return;
        }
        const Descriptor *entryType = field->message_type();
        const FieldDescriptor *keyField = entryType->map_key();
        const FieldDescriptor *valueField = entryType->map_value();
        json map = json::object();
        for (int i = 0; i < size; ++i) {
            const Message &entry = reflection->GetRepeatedMessage(message, field, i);
            json key = scalar(entry, keyField);
            std::string keyText = key.is_string() ? key.get<std::string>() : key.dump();
            if (valueField->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
                map[std::move(keyText)] = value(entry.GetReflection()->GetMessage(entry, valueField));
            else
                map[std::move(keyText)] = scalar(entry, valueField);
        }
        out[field->name()] = std::move(map);
    }

    void writeRepeated(const Message &message, const FieldDescriptor *field, json &out)
    {
        const Reflection *reflection = message.GetReflection();
        const int size = reflection->FieldSize(message, field);
        if (size == 0) {
            // A nil Go slice: omitted with omitempty, null without.
            if (goJson(field) == rvscope::pb::REQUIRED)
                out[field->name()] = nullptr;
            return;
        }
        json list = json::array();
        for (int i = 0; i < size; ++i) {
            if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
                list.push_back(value(reflection->GetRepeatedMessage(message, field, i)));
            else
                list.push_back(repeatedScalar(message, field, i));
        }
        out[field->name()] = std::move(list);
    }

    void writeSingular(const Message &message, const FieldDescriptor *field, json &out)
    {
        const Reflection *reflection = message.GetReflection();
        const bool present = reflection->HasField(message, field);
        const bool isMessage = field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
        // GetMessage of an absent field is the default instance: the Go zero value.
        const auto render = [&] {
            return isMessage ? value(reflection->GetMessage(message, field)) : scalar(message, field);
        };
        switch (goJson(field)) {
        case rvscope::pb::POINTER:
            if (present)
                out[field->name()] = render();
            return;
        case rvscope::pb::NULLABLE_POINTER:
            out[field->name()] = present ? render() : json(nullptr);
            return;
        case rvscope::pb::INLINE:
            if (isMessage)
                writeFields(reflection->GetMessage(message, field), out);
            return;
        case rvscope::pb::REQUIRED:
            out[field->name()] = render();
            return;
        case rvscope::pb::OMITEMPTY:
            break;
        }
        json rendered = render();
        if (isMessage || !isZero(rendered))
            out[field->name()] = std::move(rendered);
    }

    static rvscope::pb::GoJson goJson(const FieldDescriptor *field)
    {
        return field->options().GetExtension(rvscope::pb::go);
    }

    static json scalar(const Message &message, const FieldDescriptor *field)
    {
        const Reflection *reflection = message.GetReflection();
        switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
            return reflection->GetInt32(message, field);
        case FieldDescriptor::CPPTYPE_INT64:
            return reflection->GetInt64(message, field);
        case FieldDescriptor::CPPTYPE_UINT32:
            return reflection->GetUInt32(message, field);
        case FieldDescriptor::CPPTYPE_UINT64:
            return reflection->GetUInt64(message, field);
        case FieldDescriptor::CPPTYPE_DOUBLE:
            return reflection->GetDouble(message, field);
        case FieldDescriptor::CPPTYPE_FLOAT:
            return reflection->GetFloat(message, field);
        case FieldDescriptor::CPPTYPE_BOOL:
            return reflection->GetBool(message, field);
        case FieldDescriptor::CPPTYPE_ENUM:
            return reflection->GetEnumValue(message, field);
        case FieldDescriptor::CPPTYPE_STRING:
            return text(reflection->GetString(message, field), field);
        case FieldDescriptor::CPPTYPE_MESSAGE:
            break;
        }
        return nullptr;
    }

    static json repeatedScalar(const Message &message, const FieldDescriptor *field, int index)
    {
        const Reflection *reflection = message.GetReflection();
        switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
            return reflection->GetRepeatedInt32(message, field, index);
        case FieldDescriptor::CPPTYPE_INT64:
            return reflection->GetRepeatedInt64(message, field, index);
        case FieldDescriptor::CPPTYPE_UINT32:
            return reflection->GetRepeatedUInt32(message, field, index);
        case FieldDescriptor::CPPTYPE_UINT64:
            return reflection->GetRepeatedUInt64(message, field, index);
        case FieldDescriptor::CPPTYPE_DOUBLE:
            return reflection->GetRepeatedDouble(message, field, index);
        case FieldDescriptor::CPPTYPE_FLOAT:
            return reflection->GetRepeatedFloat(message, field, index);
        case FieldDescriptor::CPPTYPE_BOOL:
            return reflection->GetRepeatedBool(message, field, index);
        case FieldDescriptor::CPPTYPE_ENUM:
            return reflection->GetRepeatedEnumValue(message, field, index);
        case FieldDescriptor::CPPTYPE_STRING:
            return text(reflection->GetRepeatedString(message, field, index), field);
        case FieldDescriptor::CPPTYPE_MESSAGE:
            break;
        }
        return nullptr;
    }

    // Go marshals []byte as standard base64 and strings as (repaired) UTF-8.
    static json text(const std::string &raw, const FieldDescriptor *field)
    {
        if (field->type() == FieldDescriptor::TYPE_BYTES)
            return base64(raw);
        return validUtf8(raw);
    }

    // A singular field of one of the well-known apimachinery messages, by name and type; null
    // if a (foreign) message of that name has no such field.
    static const FieldDescriptor *knownField(const Message &message, const char *name, FieldDescriptor::CppType type)
    {
        const FieldDescriptor *field = message.GetDescriptor()->FindFieldByName(name);
        return field != nullptr && !field->is_repeated() && field->cpp_type() == type ? field : nullptr;
    }

    json time(const Message &message, bool micro)
    {
        const Reflection *reflection = message.GetReflection();
        const FieldDescriptor *secondsField = knownField(message, "seconds", FieldDescriptor::CPPTYPE_INT64);
        const FieldDescriptor *nanosField = knownField(message, "nanos", FieldDescriptor::CPPTYPE_INT32);
        if (secondsField == nullptr || nanosField == nullptr)
            return nullptr;
        // metav1.Time.Unmarshal: no data is the zero time; nanos are dropped (JSON only ever
        // carried seconds). MicroTime keeps them, normalised the way time.Unix does.
        if (!reflection->HasField(message, secondsField) && !reflection->HasField(message, nanosField))
            return nullptr;
        std::int64_t seconds = reflection->GetInt64(message, secondsField);
        std::int64_t nanos = micro ? reflection->GetInt32(message, nanosField) : 0;
        seconds += floorDiv(nanos, NANOS_PER_SECOND);
        nanos -= floorDiv(nanos, NANOS_PER_SECOND) * NANOS_PER_SECOND;
        if (seconds == ZERO_TIME_UNIX_SECONDS && nanos == 0)
            return nullptr;

        const std::int64_t days = floorDiv(seconds, SECONDS_PER_DAY);
        const std::int64_t secondOfDay = seconds - days * SECONDS_PER_DAY;
        const CivilDate date = civilFromDays(days);
        if (date.year < 0 || date.year > 9999) {
            fail("time out of range: " + std::to_string(seconds)
                 + " seconds since the Unix epoch is not within the years 0000-9999");
            return nullptr;
        }
        char buffer[40];
        const int hour = static_cast<int>(secondOfDay / 3600);
        const int minute = static_cast<int>(secondOfDay / 60 % 60);
        const int second = static_cast<int>(secondOfDay % 60);
        if (micro) {
            std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02d.%06dZ", static_cast<int>(date.year),
                          date.month, date.day, hour, minute, second, static_cast<int>(nanos / 1000));
        } else {
            std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year),
                          date.month, date.day, hour, minute, second);
        }
        return std::string(buffer);
    }

    json intOrString(const Message &message)
    {
        const Reflection *reflection = message.GetReflection();
        const FieldDescriptor *typeField = knownField(message, "type", FieldDescriptor::CPPTYPE_INT64);
        const FieldDescriptor *intField = knownField(message, "intVal", FieldDescriptor::CPPTYPE_INT32);
        const FieldDescriptor *stringField = knownField(message, "strVal", FieldDescriptor::CPPTYPE_STRING);
        if (typeField == nullptr || intField == nullptr || stringField == nullptr)
            return nullptr;
        switch (reflection->GetInt64(message, typeField)) {
        case 0:
            return reflection->GetInt32(message, intField);
        case 1:
            return validUtf8(reflection->GetString(message, stringField));
        default:
            fail("impossible IntOrString.Type: " + std::to_string(reflection->GetInt64(message, typeField)));
            return nullptr;
        }
    }

    static json quantity(const Message &message)
    {
        const FieldDescriptor *stringField = knownField(message, "string", FieldDescriptor::CPPTYPE_STRING);
        if (stringField == nullptr)
            return "0";
        std::string text = validUtf8(message.GetReflection()->GetString(message, stringField));
        // The zero Quantity, which Go marshals as "0".
        return text.empty() ? std::string("0") : text;
    }

    void fail(std::string message)
    {
        if (m_error.empty())
            m_error = std::move(message);
    }

    std::string m_error;
};

} // namespace

std::string validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (const std::size_t length = model::utf8SequenceLength(text, i); length > 0) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out.append("\xEF\xBF\xBD");
            ++i;
        }
    }
    return out;
}

model::Result<nlohmann::json> kubernetesJsonFromProtobuf(const google::protobuf::Message &message)
{
    KubernetesJsonWriter writer;
    json object = writer.object(message);
    if (!writer.error().empty())
        return model::errors::badRequest(writer.error());
    return object;
}

} // namespace rvscope::api
