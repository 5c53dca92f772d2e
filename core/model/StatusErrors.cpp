// SPDX-License-Identifier: MIT
#include "model/StatusErrors.h"

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
    const std::size_t unlisted = causes.size() > MAX_LISTED_FIELD_ERRORS ? causes.size() - MAX_LISTED_FIELD_ERRORS : 0;
    causes.resize(causes.size() - unlisted);
    if (!causes.empty()) {
        message += ": ";
        if (causes.size() > 1)
            message += '[';
        for (std::size_t i = 0; i < causes.size(); ++i) {
            if (i > 0)
                message += ", ";
            message += causes[i].field.empty() ? causes[i].message
                                               : causes[i].field + ": " + causes[i].message;
        }
        if (unlisted > 0)
            message += ", and " + std::to_string(unlisted) + " more errors";
        if (causes.size() > 1)
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
