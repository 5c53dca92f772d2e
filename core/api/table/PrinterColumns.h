// SPDX-License-Identifier: MIT
#pragma once

#include "api/table/Printers.h"

// Column definitions the built-in printers share (private to core/api/table). Descriptions are
// upstream's: most are the Go field docs (SwaggerDoc()) the 1.32 printers cite, so they must stay
// byte-stable (kubectl compares column definitions across list and watch, table-output.md §3.3).
namespace rvscope::api::table {

// ObjectMeta's docs of name and creationTimestamp: every Name and Age column's description.
inline constexpr const char *NAME_DOC =
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated.";
inline constexpr const char *AGE_DOC =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It "
    "is represented in RFC3339 form and is in UTC.";
// The wide columns of every controller with a pod template.
inline constexpr const char *CONTAINERS_DOC = "Names of each container in the template.";
inline constexpr const char *IMAGES_DOC = "Images referenced by each container in the template.";

inline Column nameColumn() { return Column{"Name", "string", "name", NAME_DOC, 0}; }
inline Column ageColumn() { return Column{"Age", "string", "", AGE_DOC, 0}; }
inline Column column(const char *name, const char *description, int priority = 0, const char *type = "string")
{
    return Column{name, type, "", description, priority};
}

} // namespace rvscope::api::table
