// SPDX-License-Identifier: MIT
#include "api/discovery/OpenApi.h"

#include <algorithm>
#include <cctype>

#include <QByteArray>
#include <QCryptographicHash>

#include "api/discovery/OpenApiSchemas_p.h"

namespace rvscope::api {
namespace {

using openapi::schemaRef;

nlohmann::json parameter(const char *name, const char *in, const char *description, const char *type = "string")
{
    nlohmann::json json = {{"name", name}, {"in", in}, {"description", description}, {"schema", {{"type", type}}}};
    if (std::string_view(in) == "path")
        json["required"] = true;
    return json;
}

// The query parameters of a write. kubectl's validation (cli-runtime query_param_verifier_v3)
// looks for fieldValidation on the patch operation of the object's kind: with it, kubectl
// sends ?fieldValidation=Strict and lets the server validate; without it, kubectl would need
// the OpenAPI v2 protobuf document to validate by itself.
nlohmann::json writeParameters(bool patch)
{
    nlohmann::json params = {
        parameter("dryRun", "query", "When present (All), the modification is not persisted."),
        parameter("fieldManager", "query", "The name of the actor making the change."),
        parameter("fieldValidation", "query",
                  "How to treat unknown or duplicate fields in the body: Ignore, Warn or Strict."),
    };
    if (patch)
        params.push_back(parameter("force", "query", "Forces an apply request over conflicts.", "boolean"));
    return params;
}

nlohmann::json listParameters()
{
    return {
        parameter("allowWatchBookmarks", "query", "Requests BOOKMARK watch events.", "boolean"),
        parameter("continue", "query", "The continue token of the previous page."),
        parameter("fieldSelector", "query", "Restricts the list by the objects' fields."),
        parameter("labelSelector", "query", "Restricts the list by the objects' labels."),
        parameter("limit", "query", "The maximum number of items of one page.", "integer"),
        parameter("resourceVersion", "query", "Which resourceVersion the list or watch starts from."),
        parameter("resourceVersionMatch", "query", "How resourceVersion applies to a list: Exact or NotOlderThan."),
        parameter("sendInitialEvents", "query", "Starts a watch with the current objects.", "boolean"),
        parameter("timeoutSeconds", "query", "Ends the list or watch after this many seconds.", "integer"),
        parameter("watch", "query", "Watches for changes instead of listing.", "boolean"),
    };
}

nlohmann::json deleteParameters()
{
    return {
        parameter("dryRun", "query", "When present (All), the deletion is not persisted."),
        parameter("gracePeriodSeconds", "query", "The duration before the object is deleted.", "integer"),
        parameter("propagationPolicy", "query", "Orphan, Background or Foreground garbage collection."),
    };
}

nlohmann::json jsonContent(const std::string &schema)
{
    return {{"application/json", {{"schema", schemaRef(schema)}}}};
}

nlohmann::json responses(const std::vector<std::string> &codes, const std::string &schema)
{
    nlohmann::json json = {{"401", {{"description", "Unauthorized"}}}};
    for (const std::string &code : codes)
        json[code] = {{"description", code == "201"   ? "Created"
                                      : code == "202" ? "Accepted"
                                                      : "OK"},
                      {"content", jsonContent(schema)}};
    return json;
}

// One resource path's operations are built from this: what the path serves and as whom.
struct PathContext {
    std::string idGroup;         // "CoreV1"
    std::string scope;           // "Namespaced" or ""
    std::string idKind;          // the resource's kind, also on its subresources' ids
    model::GroupVersionKind gvk; // the kind the operations answer with
    std::string schema;          // its schema name
};

nlohmann::json operation(const PathContext &context, const std::string &action, const std::string &id,
                         nlohmann::json parameters, nlohmann::json responseCodes)
{
    return {
        {"description", action + ' ' + context.gvk.kind},
        {"operationId", id},
        {"tags", {context.idGroup}},
        {"parameters", std::move(parameters)},
        {"responses", std::move(responseCodes)},
        {"x-kubernetes-action", action},
        // A single kind on operations (schemas carry a list); kubectl matches on this.
        {"x-kubernetes-group-version-kind",
         {{"group", context.gvk.group}, {"version", context.gvk.version}, {"kind", context.gvk.kind}}},
    };
}

nlohmann::json patchOperation(const PathContext &context, const std::string &id)
{
    nlohmann::json op =
        operation(context, "patch", id, writeParameters(true), responses({"200", "201"}, context.schema));
    // Deliberately no application/strategic-merge-patch+json here, although rvscope accepts
    // it for built-in kinds. When the patch operation of a kind lists it, client-side
    // `kubectl apply` (and `diff`) build the strategic merge patch from the schemas of this
    // document (cli-runtime apply/patcher.go, NewPatchMetaFromOpenAPIV3). These schemas are
    // permissive and carry no x-kubernetes-patch-merge-key/-strategy, so every list would be
    // replaced whole, and $setElementOrder/$patch:delete directives would never be produced.
    // Without it kubectl skips OpenAPI v3 for the patch, tries /openapi/v2 (a 404 is fine),
    // then uses its compiled-in Go types for built-in kinds, which carry the real merge keys,
    // and JSON merge patch for custom resources, as against a real apiserver (CRDs do not
    // support strategic merge patch). Validation does not look at requestBody.
    const nlohmann::json patchSchema = {{"schema", schemaRef(openapi::PATCH)}};
    op["requestBody"] = {{"required", true},
                         {"content",
                          {{"application/apply-patch+yaml", patchSchema},
                           {"application/json-patch+json", patchSchema},
                           {"application/merge-patch+json", patchSchema}}}};
    return op;
}

nlohmann::json bodyOf(const std::string &schema)
{
    return {{"required", true}, {"content", {{"*/*", {{"schema", schemaRef(schema)}}}}}};
}

// GET, PUT and PATCH of one object, plus DELETE on the object itself (not on /status or
// /scale).
nlohmann::json itemPath(const PathContext &context, const std::string &suffix, bool withDelete,
                        nlohmann::json pathParameters)
{
    const std::string kindPart = context.scope + context.idKind + suffix;
    nlohmann::json path = {{"parameters", std::move(pathParameters)}};
    path["get"] = operation(context, "get", "read" + context.idGroup + kindPart, nlohmann::json::array(),
                            responses({"200"}, context.schema));
    nlohmann::json put = operation(context, "put", "replace" + context.idGroup + kindPart, writeParameters(false),
                                   responses({"200", "201"}, context.schema));
    put["requestBody"] = bodyOf(context.schema);
    path["put"] = std::move(put);
    path["patch"] = patchOperation(context, "patch" + context.idGroup + kindPart);
    if (withDelete) {
        nlohmann::json del = operation(context, "delete", "delete" + context.idGroup + kindPart, deleteParameters(),
                                       responses({"200", "202"}, openapi::STATUS));
        del["requestBody"] = {{"content", {{"*/*", {{"schema", schemaRef(openapi::DELETE_OPTIONS)}}}}}};
        path["delete"] = std::move(del);
    }
    return path;
}

void addTypePaths(nlohmann::json &paths, nlohmann::json &schemas, const registry::ResourceType &type,
                  const std::string &prefix)
{
    const model::GroupVersionKind gvk = groupVersionKind(type);
    const model::GroupVersionKind listGvk = {gvk.group, gvk.version, type.listKind};
    const std::string schema = openapi::schemaName(gvk, type.custom);
    const std::string listSchema = openapi::schemaName(listGvk, type.custom);
    schemas[schema] = openapi::kindSchema(gvk);
    schemas[listSchema] = openapi::listSchema(listGvk, schema);

    const bool namespaced = type.namespaced();
    PathContext context{openapi::operationGroupVersion(gvk.group, gvk.version), namespaced ? "Namespaced" : "",
                        gvk.kind, gvk, schema};
    const std::string scoped = namespaced ? "/namespaces/{namespace}/" : "/";
    const std::string collection = prefix + scoped + type.gvr.resource;
    nlohmann::json pathParameters = nlohmann::json::array();
    if (namespaced)
        pathParameters.push_back(parameter("namespace", "path", "The object name and auth scope."));

    PathContext listContext = context;
    listContext.gvk = listGvk;
    listContext.schema = listSchema;
    nlohmann::json collectionPath = {{"parameters", pathParameters}};
    collectionPath["get"] = operation(listContext, "list", "list" + context.idGroup + context.scope + gvk.kind,
                                      listParameters(), responses({"200"}, listSchema));
    nlohmann::json post = operation(context, "post", "create" + context.idGroup + context.scope + gvk.kind,
                                    writeParameters(false), responses({"200", "201", "202"}, schema));
    post["requestBody"] = bodyOf(schema);
    collectionPath["post"] = std::move(post);
    const std::vector<std::string> verbs = resourceVerbs(type);
    if (std::find(verbs.begin(), verbs.end(), "deletecollection") != verbs.end())
        collectionPath["delete"] =
            operation(context, "deletecollection", "delete" + context.idGroup + "Collection" + context.scope + gvk.kind,
                      listParameters(), responses({"200"}, openapi::STATUS));
    paths[collection] = std::move(collectionPath);
    if (namespaced) {
        paths[prefix + '/' + type.gvr.resource] = {
            {"get", operation(listContext, "list", "list" + context.idGroup + gvk.kind + "ForAllNamespaces",
                              listParameters(), responses({"200"}, listSchema))}};
    }

    pathParameters.push_back(parameter("name", "path", "The name of the object."));
    paths[collection + "/{name}"] = itemPath(context, "", true, pathParameters);
    for (const ServedSubresource &sub : servedSubresources(type)) {
        PathContext subContext = context;
        subContext.gvk = sub.kind;
        subContext.schema = openapi::schemaName(sub.kind, type.custom && sub.kind == gvk);
        if (!schemas.contains(subContext.schema))
            schemas[subContext.schema] = openapi::kindSchema(sub.kind);
        std::string suffix = sub.name; // "Status", "Scale" in operation ids
        suffix[0] = char(std::toupper(static_cast<unsigned char>(suffix[0])));
        paths[collection + "/{name}/" + sub.name] = itemPath(subContext, suffix, false, pathParameters);
    }
}

nlohmann::json groupVersionDocument(const ServedGroup &group, const ServedVersion &version)
{
    nlohmann::json paths = nlohmann::json::object();
    nlohmann::json schemas = nlohmann::json::object();
    openapi::addMetaSchemas(schemas);
    const std::string prefix = '/' + openApiPathKey(group.name, version.version);
    for (const auto &type : version.types)
        addTypePaths(paths, schemas, *type, prefix);
    return {
        {"openapi", "3.0.0"},
        {"info", {{"title", "Kubernetes"}, {"version", "v1.32.0"}}},
        {"paths", std::move(paths)},
        {"components", {{"schemas", std::move(schemas)}}},
    };
}

} // namespace

std::string openApiPathKey(const std::string &group, const std::string &version)
{
    return group.empty() ? "api/" + version : "apis/" + group + '/' + version;
}

std::map<std::string, nlohmann::json> openApiDocuments(const ResourceTypeList &types)
{
    std::map<std::string, nlohmann::json> documents;
    for (const ServedGroup &group : servedGroups(types)) {
        for (const ServedVersion &version : group.versions)
            documents[openApiPathKey(group.name, version.version)] = groupVersionDocument(group, version);
    }
    return documents;
}

nlohmann::json openApiIndex(const std::map<std::string, nlohmann::json> &documents)
{
    nlohmann::json paths = nlohmann::json::object();
    for (const auto &[key, document] : documents)
        paths[key] = {{"serverRelativeURL", "/openapi/v3/" + key + "?hash=" + openApiDocumentHash(document)}};
    return {{"paths", std::move(paths)}};
}

nlohmann::json openApiIndex(const ResourceTypeList &types)
{
    return openApiIndex(openApiDocuments(types));
}

std::optional<nlohmann::json> openApiDocument(const ResourceTypeList &types, std::string_view pathKey)
{
    while (pathKey.starts_with('/'))
        pathKey.remove_prefix(1);
    while (pathKey.ends_with('/'))
        pathKey.remove_suffix(1);
    const std::size_t firstSlash = pathKey.find('/');
    if (firstSlash == std::string_view::npos)
        return std::nullopt;
    std::string group;
    std::string_view version;
    if (pathKey.substr(0, firstSlash) == "api") {
        version = pathKey.substr(firstSlash + 1);
    } else if (pathKey.substr(0, firstSlash) == "apis") {
        const std::string_view rest = pathKey.substr(firstSlash + 1);
        const std::size_t slash = rest.find('/');
        if (slash == std::string_view::npos || slash == 0)
            return std::nullopt;
        group = std::string(rest.substr(0, slash));
        version = rest.substr(slash + 1);
    } else {
        return std::nullopt;
    }
    if (version.empty() || version.find('/') != std::string_view::npos)
        return std::nullopt;
    for (const ServedGroup &served : servedGroups(types)) {
        if (served.name != group)
            continue;
        for (const ServedVersion &candidate : served.versions) {
            if (candidate.version == version)
                return groupVersionDocument(served, candidate);
        }
    }
    return std::nullopt;
}

std::string openApiDocumentHash(const nlohmann::json &document)
{
    // error_handler replace: a document never holds invalid UTF-8 that came from a client's
    // names, but dump() must not throw if one ever did.
    const std::string bytes = document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const QByteArray digest = QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha512);
    return digest.toHex().toUpper().toStdString();
}

} // namespace rvscope::api
