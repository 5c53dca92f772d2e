// SPDX-License-Identifier: MIT
// Identities and what binds them to roles: ServiceAccount, RoleBinding and ClusterRoleBinding
// (table-output.md §5.2). Role and ClusterRole have no printer upstream: the default convertor.
#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::stringOr;

// Role, Age, then the subjects by kind (rbac.SubjectsStrings), each list joined with ", ".
Printer binding(const char *roleDoc, const char *bindingName)
{
    std::vector<Column> columns = {nameColumn(), column("Role", roleDoc), ageColumn()};
    for (const char *what : {"Users", "Groups", "ServiceAccounts"}) // "Users in the roleBinding"
        columns.push_back(Column{what, "string", "", std::string(what) + " in the " + bindingName, 1});
    return {std::move(columns), [](const json &o, std::int64_t now) {
                const json &roleRef = member(o, "roleRef");
                std::vector<std::string> users, groups, serviceAccounts;
                const json &subjects = member(o, "subjects");
                for (const json &subject : subjects.is_array() ? subjects : json::array()) {
                    const std::string kind = stringOr(member(subject, "kind"));
                    const std::string name = stringOr(member(subject, "name"));
                    if (kind == "ServiceAccount")
                        serviceAccounts.push_back(stringOr(member(subject, "namespace")) + '/' + name);
                    else if (kind == "User")
                        users.push_back(name);
                    else if (kind == "Group")
                        groups.push_back(name);
                }
                return json::array({objectName(o),
                                    stringOr(member(roleRef, "kind")) + '/' + stringOr(member(roleRef, "name")),
                                    objectAge(o, now), joined(users, ", "), joined(groups, ", "),
                                    joined(serviceAccounts, ", ")});
            }};
}

} // namespace

Printer serviceAccounts()
{
    return {{nameColumn(),
             column("Secrets",
                    "Secrets is a list of the secrets in the same namespace that pods running using this "
                    "ServiceAccount are allowed to use. Pods are only limited to this list if this service account "
                    "has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". The "
                    "\"kubernetes.io/enforce-mountable-secrets\" annotation is deprecated since v1.32. Prefer separate "
                    "namespaces to isolate access to mounted secrets. This field should not be used to find "
                    "auto-generated service account token secrets for use outside of pods. Instead, tokens can be "
                    "requested directly using the TokenRequest API, or service account token secrets can be manually "
                    "created. More info: https://kubernetes.io/docs/concepts/configuration/secret"),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), sizeOf(member(o, "secrets")), objectAge(o, now)});
            }};
}

Printer roleBindings()
{
    return binding("RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. "
                   "If the RoleRef cannot be resolved, the Authorizer must return an error.",
                   "roleBinding");
}

Printer clusterRoleBindings()
{
    return binding("RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be "
                   "resolved, the Authorizer must return an error.",
                   "clusterRoleBinding");
}

} // namespace rvscope::api::table
