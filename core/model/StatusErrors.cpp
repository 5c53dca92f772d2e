// SPDX-License-Identifier: MIT
#include "model/StatusErrors.h"

#include <unordered_set>

namespace rvscope::model::errors {
namespace {
Status make(int code, std::string reason, std::string message)
{
    Status status;
    status.code = code;
    status.reason = std::move(reason);
    status.message = std::move(message);
    return status;
}

std::string quoted(const std::string &name)
{
    return '"' + name + '"';
}
} // namespace

const char *const OPTIMISTIC_LOCK_ERROR_MSG =
    "the object has been modified; please apply your changes to the latest version and try again";

Status notFound(const GroupResource &resource, const std::string &name)
{
    Status status = make(404, "NotFound", resource.toString() + ' ' + quoted(name) + " not found");
    status.details.name = name;
    status.details.group = resource.group;
    status.details.kind = resource.resource;
    return status;
}

Status alreadyExists(const GroupResource &resource, const std::string &name)
{
    Status status =
        make(409, "AlreadyExists", resource.toString() + ' ' + quoted(name) + " already exists");
    status.details.name = name;
    status.details.group = resource.group;
    status.details.kind = resource.resource;
    return status;
}

Status conflict(const GroupResource &resource, const std::string &name, const std::string &detail)
{
    Status status = make(409, "Conflict",
                         "Operation cannot be fulfilled on " + resource.toString() + ' '
                             + quoted(name) + ": " + detail);
    status.details.name = name;
    status.details.group = resource.group;
    status.details.kind = resource.resource;
    return status;
}

Status invalid(const std::string &qualifiedKind, const std::string &name,
               std::vector<StatusCause> causes, const std::string &detailsKind,
               const std::string &detailsGroup)
{
    std::string message = qualifiedKind + ' ' + quoted(name) + " is invalid";
    // The message is field.ErrorList.ToAggregate()'s: each distinct text once, bracketed when
    // more than one remains.
    std::vector<std::string> texts;
    std::unordered_set<std::string> seen;
    std::size_t unlisted = 0;
    for (const StatusCause &cause : causes) {
        std::string text = cause.field.empty() ? cause.message : cause.field + ": " + cause.message;
        if (!seen.insert(text).second)
            continue;
        if (texts.size() < MAX_LISTED_FIELD_ERRORS)
            texts.push_back(std::move(text));
        else
            ++unlisted;
    }
    if (causes.size() > MAX_LISTED_FIELD_ERRORS)
        causes.resize(MAX_LISTED_FIELD_ERRORS);
    if (!texts.empty()) {
        message += ": ";
        const bool list = texts.size() > 1 || unlisted > 0;
        if (list)
            message += '[';
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (i > 0)
                message += ", ";
            message += texts[i];
        }
        if (unlisted > 0)
            message += ", and " + std::to_string(unlisted) + " more errors";
        if (list)
            message += ']';
    }
    Status status = make(422, "Invalid", std::move(message));
    status.details.name = name;
    status.details.group = detailsGroup;
    status.details.kind = detailsKind.empty() ? qualifiedKind : detailsKind;
    status.details.causes = std::move(causes);
    return status;
}

Status badRequest(std::string message)
{
    return make(400, "BadRequest", std::move(message));
}

Status unsupportedMediaType(std::string message)
{
    return make(415, "UnsupportedMediaType", std::move(message));
}

Status notAcceptable(std::string_view mediaTypes)
{
    return make(406, "NotAcceptable", "only the following media types are accepted: " + std::string(mediaTypes));
}

Status methodNotAllowed(std::string message)
{
    return make(405, "MethodNotAllowed", std::move(message));
}

Status forbidden(std::string message, const GroupResource &resource, const std::string &name)
{
    Status status = make(403, "Forbidden", std::move(message));
    status.details.name = name;
    status.details.group = resource.group;
    status.details.kind = resource.resource;
    return status;
}

Status forbiddenBecause(const GroupResource &resource, const std::string &name, const std::string &reason)
{
    if (resource.resource.empty())
        return forbidden("forbidden: " + reason);
    const std::string subject = name.empty() ? resource.toString() : resource.toString() + " \"" + name + '"';
    return forbidden(subject + " is forbidden: " + reason, resource, name);
}

Status unauthorized(std::string message)
{
    return make(401, "Unauthorized", std::move(message));
}

Status expired(std::string message)
{
    return make(410, "Expired", std::move(message));
}

Status watchTooSlow(std::size_t backlogBytes, std::size_t limitBytes)
{
    return make(410, "Expired",
                "watch closed: the client fell behind, " + std::to_string(backlogBytes)
                    + " bytes of events were not read yet (limit " + std::to_string(limitBytes)
                    + "); list again and watch from the list's resourceVersion");
}

Status tooLargeResourceVersion(std::int64_t requested, std::int64_t current)
{
    Status status = make(504, "Timeout",
                         "Too large resource version: " + std::to_string(requested)
                             + ", current: " + std::to_string(current));
    status.details.causes.push_back(
        {"ResourceVersionTooLarge", "Too large resource version", std::string()});
    status.details.retryAfterSeconds = 1;
    return status;
}

Status requestEntityTooLarge(std::string message)
{
    return make(413, "RequestEntityTooLarge", std::move(message));
}

Status requestTimeout()
{
    Status status = make(504, "Timeout",
                         "Timeout: request did not complete within requested timeout - context deadline exceeded");
    status.details.present = true; // apierrors.NewTimeoutError's empty details
    return status;
}

Status internalError(std::string error)
{
    // apierrors.NewInternalError: the error as the message's tail and as the one cause.
    Status status = make(500, "InternalError", "Internal error occurred: " + error);
    status.details.causes.push_back(StatusCause{"", std::move(error), ""});
    return status;
}

Status tooManyRequests(std::string message, int retryAfterSeconds)
{
    Status status = make(429, "TooManyRequests", std::move(message));
    status.details.retryAfterSeconds = retryAfterSeconds;
    return status;
}

Status pathNotFound()
{
    return make(404, "NotFound", "the server could not find the requested resource");
}

} // namespace rvscope::model::errors
