// SPDX-License-Identifier: MIT
#include "api/Responses.h"

#include <set>

#include <nlohmann/json.hpp>

#include "api/protobuf/ProtobufBody.h"
#include "model/GoJson.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "model/Utf8.h"
#include "patch/PatchErrors.h"
#include "registry/validation/ObjectDecoding.h"

namespace rvscope::api {

ApiResponse statusResponse(const model::Status &status)
{
    ApiResponse response;
    response.status = status.code > 0 ? status.code : 200;
    response.body = status.dump();
    response.body += '\n'; // Go's json.Encoder ends every body with a newline
    response.outcome.reason = status.reason;
    response.outcome.message = status.message;
    // The journal tells the two kinds of 409 apart: a field owned by another manager
    // (server-side apply) is no stale resourceVersion.
    for (const model::StatusCause &cause : status.details.causes) {
        if (cause.type == FIELD_MANAGER_CONFLICT) {
            response.outcome.reason = FIELD_MANAGER_CONFLICT;
            break;
        }
    }
    if (status.details.retryAfterSeconds > 0)
        response.headers.emplace_back("Retry-After", std::to_string(status.details.retryAfterSeconds));
    return response;
}

ApiResponse jsonResponse(int status, std::string body)
{
    ApiResponse response;
    response.status = status;
    response.body = std::move(body);
    response.body += '\n';
    return response;
}

ApiResponse objectResponse(const model::ObjectPtr &object, int status)
{
    const std::string &bytes = object->bytes();
    std::string body;
    body.reserve(bytes.size() + 1); // and the newline jsonResponse() adds, without a second allocation
    body = bytes;
    ApiResponse response = jsonResponse(status, std::move(body));
    response.outcome.object = object;
    response.outcome.resourceVersionProduced = object->resourceVersion();
    return response;
}

ApiResponse listResponse(const registry::ResourceType &type, const registry::ListResponse &list)
{
    // metav1.ListMeta's field order: resourceVersion, continue, remainingItemCount.
    std::string body = R"({"kind":")" + type.listKind + R"(","apiVersion":")" + type.apiVersion()
        + R"(","metadata":{"resourceVersion":")" + std::to_string(list.revision) + '"';
    if (!list.continueToken.empty()) {
        body += R"(,"continue":)";
        model::appendGoJsonString(body, list.continueToken);
    }
    if (list.remainingItemCount)
        body += R"(,"remainingItemCount":)" + std::to_string(*list.remainingItemCount);
    body += R"(},"items":[)";
    std::size_t size = body.size() + 3;
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
    ApiResponse response = jsonResponse(200, success.dump());
    response.outcome.object = deleted.object;
    response.outcome.resourceVersionProduced = deleted.object->resourceVersion();
    return produced(std::move(response));
}

namespace {
// The anonymous struct the apiserver's decoder reads kind and apiVersion into, as Go prints
// its type in an UnmarshalTypeError.
constexpr const char *TYPE_META_STRUCT =
    R"(struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })";

// transformDecodeError when the body's kind could not even be read.
model::Status unrecognized(const std::string &kind, const std::string &jsonError, const std::string &body)
{
    return model::errors::badRequest("the object provided is unrecognized (must be of type " + kind
                                     + "): couldn't get version/kind; json parse error: " + jsonError + " ("
                                     + model::goSummarizeData(body) + ")");
}

// The Go package of a group's internal types ("core", "apps", "coordination").
std::string internalPackage(const std::string &apiVersion)
{
    const std::string group = model::splitApiVersion(apiVersion).first;
    return group.empty() ? "core" : group.substr(0, group.find('.'));
}

std::string mediaType(const std::string &contentType)
{
    std::string media = contentType.substr(0, contentType.find(';'));
    while (!media.empty() && media.back() == ' ')
        media.pop_back();
    return media;
}
} // namespace

model::Result<model::Object> decodeBody(const ApiRequest &request, const std::string &kind,
                                        const std::string &apiVersion, std::size_t maxBytes,
                                        const registry::KnownFields *known, registry::FieldValidation validation,
                                        std::vector<std::string> &warnings)
{
    if (request.body.size() > maxBytes)
        return model::errors::requestEntityTooLarge("Request entity too large: limit is " + std::to_string(maxBytes));
    const std::string media = mediaType(request.header("content-type"));
    nlohmann::json json;
    bool found = false; // undeclared fields were dropped, or a key was repeated
    std::string_view strictText; // the JSON text they are named from
    std::string coerced;
    if (isKubernetesProtobuf(media)) {
        auto decoded = decodeKubernetesProtobuf(request.body);
        if (!decoded)
            return std::move(decoded).error();
        json = std::move(decoded).value();
    } else if (media.empty() || media == "application/json" || media == "*/*") {
        bool duplicateKeys = false;
        std::string_view text = request.body;
        std::optional<nlohmann::json> parsed = model::parseObjectJson(text, &duplicateKeys);
        // Go's decoder reads each byte of a string that is not UTF-8 as U+FFFD (encoding/json's
        // unquote) where parseJson, like nlohmann, refuses the text: a body that fails for no
        // other reason parses once those bytes are replaced. Outside strings they stay a
        // syntax error, reported on the body as sent.
        if (!parsed && !model::isUtf8(request.body)) {
            coerced = model::coerceToUtf8(request.body);
            text = coerced;
            parsed = model::parseObjectJson(text, &duplicateKeys);
        }
        if (!parsed)
            return unrecognized(kind, model::goJsonSyntaxError(request.body), request.body);
        if (parsed->is_null())
            parsed = nlohmann::json::object(); // Go decodes null into a struct as nothing at all
        if (!parsed->is_object()) {
            return unrecognized(kind, std::string("json: cannot unmarshal ") + patch::goJsonTypeName(*parsed)
                                          + " into Go value of type " + TYPE_META_STRUCT,
                                request.body);
        }
        json = std::move(*parsed);
        if (known) {
            found = !known->prune(json).empty() || duplicateKeys;
            strictText = text;
            if (!coerced.empty())
                strictText = std::move(coerced);
        }
    } else {
        return model::errors::unsupportedMediaType(
            "the body of the request was in an unknown format - accepted media types include: application/json, "
            "application/vnd.kubernetes.protobuf");
    }
    for (const char *field : {"apiVersion", "kind"}) {
        auto it = json.find(field);
        if (it != json.end() && !it->is_string() && !it->is_null()) {
            return unrecognized(kind, std::string("json: cannot unmarshal ") + patch::goJsonTypeName(*it)
                                          + " into Go struct field ." + field + " of type string",
                                request.body);
        }
    }
    auto declared = [&json](const char *field) {
        auto it = json.find(field);
        return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    // An empty kind or apiVersion defaults to the URL's, as the decoder's defaults fill them.
    const std::string bodyKind = declared("kind").empty() ? kind : declared("kind");
    const std::string bodyVersion = declared("apiVersion").empty() ? apiVersion : declared("apiVersion");
    if (bodyKind != kind || bodyVersion != apiVersion) {
        // transformDecodeError: the body's kind could not become the URL's.
        const auto [group, version] = model::splitApiVersion(bodyVersion);
        const std::string why = bodyVersion == apiVersion
            ? "converting (" + version + '.' + bodyKind + ") to (" + internalPackage(apiVersion) + '.' + kind
                + "): unknown conversion"
            : "no kind \"" + bodyKind + "\" is registered for version \"" + bodyVersion
                + "\" in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"";
        return model::errors::badRequest(bodyKind + " in version \"" + version + "\" cannot be handled as a " + kind
                                         + ": " + why);
    }
    model::Object object(std::move(json));
    if (found && validation != registry::FieldValidation::Ignore) {
        // Decoding that fails outright answers alone: no strict errors, no warnings.
        if (auto undecodable = registry::checkDecodable(object, kind, apiVersion))
            return *undecodable;
        std::vector<std::string> errors = known->strictErrors(strictText);
        if (validation == registry::FieldValidation::Strict && !errors.empty()) {
            const std::string version = model::splitApiVersion(apiVersion).second;
            return model::errors::badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind
                                             + ": " + registry::strictDecodingMessage(errors));
        }
        warnings = std::move(errors);
    }
    return object;
}

void addWarnings(ApiResponse &response, const std::vector<std::string> &warnings)
{
    // k8s.io/apiserver's warning recorder: duplicates dropped; over 4 KiB in all, each
    // text is cut to 256 characters and what still does not fit is left out.
    constexpr std::size_t TOTAL = 4 * 1024;
    constexpr std::size_t ITEM = 256;
    std::vector<std::string> unique;
    std::set<std::string_view> seen;
    std::size_t total = 0;
    for (const std::string &warning : warnings) {
        if (seen.insert(warning).second) {
            unique.push_back(warning);
            total += warning.size();
        }
    }
    if (total > TOTAL) {
        for (std::string &warning : unique) {
            if (warning.size() > ITEM) {
                std::size_t cut = ITEM;
                while (cut > 0 && (static_cast<unsigned char>(warning[cut]) & 0xC0) == 0x80)
                    --cut; // not inside a UTF-8 sequence
                warning.resize(cut);
            }
        }
    }
    total = 0;
    for (const std::string &warning : unique) {
        if (total + warning.size() > TOTAL)
            break;
        total += warning.size();
        std::string value = "299 - \"";
        for (const char c : warning) {
            if (c == '"' || c == '\\')
                value += '\\';
            // A header line ends at CR or LF: a key holding them must not end it.
            value += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
        }
        value += '"';
        response.headers.emplace_back("Warning", std::move(value));
    }
}

} // namespace rvscope::api
