// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/GroupVersion.h"
#include "model/Status.h"

// Constructors for the apiserver's error Statuses, with its exact codes, reasons and message
// texts (k8s.io/apimachinery/pkg/api/errors). Real clients match on these strings, so every
// layer builds its errors here rather than spelling them out.
namespace rvscope::model::errors {

Status notFound(const GroupResource &resource, const std::string &name);
Status alreadyExists(const GroupResource &resource, const std::string &name);
// 409 Conflict: "Operation cannot be fulfilled on <gr> "<name>": <detail>".
Status conflict(const GroupResource &resource, const std::string &name, const std::string &detail);
// The optimistic-lock detail of a stale resourceVersion.
extern const char *const OPTIMISTIC_LOCK_ERROR_MSG;
// 422 Invalid: "<kind> "<name>" is invalid: <field>: <cause message>[, ...]".
// Upstream lists every field error; a body of a few MB can hold a million bad list items (a
// finalizer or label each), so the Status lists the first MAX_LISTED_FIELD_ERRORS causes, and
// its message (each distinct text once, as ToAggregate() writes it) that many texts and then
// "and <n> more errors", to answer no more than ~150 KB.
inline constexpr std::size_t MAX_LISTED_FIELD_ERRORS = 1000;
Status invalid(const std::string &qualifiedKind, const std::string &name,
               std::vector<StatusCause> causes, const std::string &detailsKind = {},
               const std::string &detailsGroup = {});
Status badRequest(std::string message);
Status unsupportedMediaType(std::string message);
// 406 NotAcceptable: "only the following media types are accepted: <mediaTypes>".
Status notAcceptable(std::string_view mediaTypes);
Status methodNotAllowed(std::string message);
Status forbidden(std::string message, const GroupResource &resource = {}, const std::string &name = {});
// 403 as apierrors.NewForbidden words it: `<gr> "<name>" is forbidden: <reason>` (without a
// name `<gr> is forbidden: <reason>`, without a resource `forbidden: <reason>`).
Status forbiddenBecause(const GroupResource &resource, const std::string &name, const std::string &reason);
Status unauthorized(std::string message = "Unauthorized");
// 410 Expired, the reason the apiserver always uses for 410 since 1.18.
Status expired(std::string message);
// 410 Expired ending a watch whose client stopped reading: `backlogBytes` of events were
// waiting to be sent, more than `limitBytes`. Like a too-old resourceVersion, it tells
// client-go's reflector to relist and watch again.
Status watchTooSlow(std::size_t backlogBytes, std::size_t limitBytes);
// 504 Timeout for a resourceVersion the server has not reached yet.
Status tooLargeResourceVersion(std::int64_t requested, std::int64_t current);
// 504 Timeout as the apiserver's request timeout filter answers a request that ran out of
// time: "Timeout: request did not complete within requested timeout - context deadline exceeded".
Status requestTimeout();
// 500 InternalError as apierrors.NewInternalError words it: "Internal error occurred: <error>",
// with <error> as its one cause.
Status internalError(std::string error);
Status requestEntityTooLarge(std::string message);
Status tooManyRequests(std::string message, int retryAfterSeconds);
Status pathNotFound(); // "the server could not find the requested resource"

} // namespace rvscope::model::errors
