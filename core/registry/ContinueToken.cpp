// SPDX-License-Identifier: MIT
#include "registry/ContinueToken.h"

#include <QtCore/QByteArray>
#include <nlohmann/json.hpp>

#include "model/JsonParse.h"
#include "model/StatusErrors.h"

namespace rvscope::registry {
namespace {
constexpr auto BASE64_OPTIONS = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;
}

std::string ContinueToken::encode() const
{
    const nlohmann::json json = {{"v", "meta.k8s.io/v1"}, {"rv", revision}, {"start", start}};
    return QByteArray::fromStdString(json.dump()).toBase64(BASE64_OPTIONS).toStdString();
}

model::Result<ContinueToken> ContinueToken::decode(const std::string &token)
{
    auto invalid = [](const std::string &why) {
        return model::errors::badRequest("invalid continue token: " + why);
    };
    const auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(token),
                                                        BASE64_OPTIONS | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return invalid("not base64");
    const nlohmann::json json = model::parseJson((*decoded).toStdString()).value_or(nlohmann::json());
    if (!json.is_object() || json.value("v", "") != "meta.k8s.io/v1")
        return invalid("unknown format");
    auto rv = json.find("rv");
    auto start = json.find("start");
    if (rv == json.end() || !rv->is_number_integer() || rv->get<std::int64_t>() <= 0 || start == json.end()
        || !start->is_string())
        return invalid("missing fields");
    ContinueToken result;
    result.revision = rv->get<std::int64_t>();
    result.start = start->get<std::string>();
    // A start key may not climb out of the listed prefix.
    if (result.start.find("..") != std::string::npos || (!result.start.empty() && result.start[0] == '/'))
        return invalid("invalid start key");
    return result;
}

} // namespace rvscope::registry
