// SPDX-License-Identifier: MIT
#include "api/Responses.h"

#include <nlohmann/json.hpp>

#include "api/protobuf/ProtobufBody.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"

namespace rvscope::api {

ApiResponse statusResponse(const model::Status &status)
{
    ApiResponse response;
    response.status = status.code > 0 ? status.code : 200;
    response.body = status.dump();
    response.outcome.reason = status.reason;
    if (status.details.retryAfterSeconds > 0)
        response.headers.emplace_back("Retry-After", std::to_string(status.details.retryAfterSeconds));
    return response;
}

ApiResponse jsonResponse(int status, std::string body)
{
    ApiResponse response;
    response.status = status;
    response.body = std::move(body);
    return response;
}

ApiResponse objectResponse(const model::ObjectPtr &object, int status)
{
    ApiResponse response = jsonResponse(status, object->bytes());
    response.outcome.object = object;
    response.outcome.resourceVersionProduced = object->resourceVersion();
    return response;
}

ApiResponse listResponse(const registry::ResourceType &type, const registry::ListResponse &list)
{
    nlohmann::json metadata = {{"resourceVersion", std::to_string(list.revision)}};
    if (!list.continueToken.empty())
        metadata["continue"] = list.continueToken;
    if (list.remainingItemCount)
        metadata["remainingItemCount"] = *list.remainingItemCount;
    std::string body = R"({"kind":")" + type.listKind + R"(","apiVersion":")" + type.apiVersion()
        + R"(","metadata":)" + metadata.dump() + R"(,"items":[)";
    std::size_t size = body.size() + 2;
    for (const auto &item : list.items)
        size += item->bytes().size() + 1;
    body.reserve(size);
    for (std::size_t i = 0; i < list.items.size(); ++i) {
        if (i > 0)
            body += ',';
        body += list.items[i]->bytes();
    }
    body += "]}";
    ApiResponse response = jsonResponse(200, std::move(body));
    response.outcome.resourceVersionProduced = std::to_string(list.revision);
    return response;
}

ApiResponse deleteResponse(const registry::ResourceType &type, const registry::DeleteResponse &deleted)
{
    const bool returnsObject = type.strategy->returnDeletedObject() || type.gvr.resource == "namespaces";
    auto produced = [&deleted](ApiResponse response) {
        if (deleted.revision > 0)
            response.outcome.resourceVersionProduced = std::to_string(deleted.revision);
        return response;
    };
    if (!deleted.deleted || returnsObject)
        return produced(objectResponse(deleted.object, 200));
    model::Status success;
    success.details.name = deleted.object->name();
    success.details.group = type.gvr.group;
    success.details.kind = type.gvr.resource;
    success.details.uid = deleted.object->uid();
    ApiResponse response = jsonResponse(200, success.toJson().dump());
    response.outcome.object = deleted.object;
    response.outcome.resourceVersionProduced = deleted.object->resourceVersion();
    return produced(std::move(response));
}

namespace {
std::string mediaType(const std::string &contentType)
{
    std::string media = contentType.substr(0, contentType.find(';'));
    while (!media.empty() && media.back() == ' ')
        media.pop_back();
    return media;
}
} // namespace

model::Result<model::Object> decodeBody(const ApiRequest &request, const std::string &kind,
                                        const std::string &apiVersion, std::size_t maxBytes)
{
    if (request.body.size() > maxBytes)
        return model::errors::requestEntityTooLarge("Request entity too large: limit is " + std::to_string(maxBytes));
    const std::string media = mediaType(request.header("content-type"));
    nlohmann::json json;
    if (isKubernetesProtobuf(media)) {
        auto decoded = decodeKubernetesProtobuf(request.body);
        if (!decoded)
            return std::move(decoded).error();
        json = std::move(decoded).value();
    } else if (media.empty() || media == "application/json" || media == "*/*") {
        json = model::parseJson(request.body).value_or(nlohmann::json());
        if (!json.is_object())
            return model::errors::badRequest(kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind
                                             + ": the request body is not a JSON object");
    } else {
        return model::errors::unsupportedMediaType(
            "the body of the request was in an unknown format - accepted media types include: application/json, "
            "application/vnd.kubernetes.protobuf");
    }
    auto declared = [&json](const char *field) {
        auto it = json.find(field);
        return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string bodyKind = declared("kind");
    const std::string bodyVersion = declared("apiVersion");
    if ((!bodyKind.empty() && bodyKind != kind) || (!bodyVersion.empty() && bodyVersion != apiVersion)) {
        return model::errors::badRequest("the object provided is unrecognized (must be of type " + kind
                                         + " in version " + apiVersion + "): got " + bodyVersion + ", Kind="
                                         + bodyKind);
    }
    return model::Object(std::move(json));
}

} // namespace rvscope::api
