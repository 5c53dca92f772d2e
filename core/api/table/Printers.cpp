// SPDX-License-Identifier: MIT
#include "api/table/Printers.h"

#include <algorithm>
#include <map>
#include <set>

#include "api/table/BuiltInPrinters.h"
#include "api/table/PodStatus.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"
#include "registry/ResourceType.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

Printer namespaces()
{
    return {{nameColumn(), column("Status", "The status of the namespace"), ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), textOr(memberAt(o, "status", "phase"), ""), objectAge(o, now)});
            }};
}

Printer configMaps()
{
    return {{nameColumn(), column("Data", "Data contains the configuration data."), ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), sizeOf(member(o, "data")) + sizeOf(member(o, "binaryData")),
                                    objectAge(o, now)});
            }};
}

Printer secrets()
{
    return {{nameColumn(), column("Type", "Used to facilitate programmatic handling of secret data."),
             column("Data", "Data contains the secret data."), ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), textOr(member(o, "type"), ""), sizeOf(member(o, "data")),
                                    objectAge(o, now)});
            }};
}

Printer leases()
{
    return {{nameColumn(), column("Holder", "The holder of the lease."), ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array(
                    {objectName(o), textOr(memberAt(o, "spec", "holderIdentity"), ""), objectAge(o, now)});
            }};
}

std::string servicePorts(const json &spec)
{
    std::vector<std::string> ports;
    for (const json &port : member(spec, "ports").is_array() ? member(spec, "ports") : json::array()) {
        std::string text = std::to_string(integerOr0(member(port, "port")));
        if (integerOr0(member(port, "nodePort")) > 0)
            text += ':' + std::to_string(integerOr0(member(port, "nodePort")));
        ports.push_back(text + '/' + textOr(member(port, "protocol"), "TCP"));
    }
    if (ports.empty())
        return "<none>";
    std::string out;
    for (const std::string &port : ports)
        out += (out.empty() ? "" : ",") + port;
    return out;
}

std::string serviceExternalIp(const json &o)
{
    const json &spec = member(o, "spec");
    const std::string type = textOr(member(spec, "type"), "ClusterIP");
    std::vector<std::string> external;
    for (const json &ip : member(spec, "externalIPs").is_array() ? member(spec, "externalIPs") : json::array())
        external.push_back(textOr(ip, ""));
    auto join = [](const std::vector<std::string> &parts) {
        std::string out;
        for (const std::string &part : parts)
            out += (out.empty() ? "" : ",") + part;
        return out;
    };
    if (type == "ClusterIP" || type == "NodePort")
        return external.empty() ? "<none>" : join(external);
    if (type == "LoadBalancer") {
        std::set<std::string> ingress;
        const json &entries = memberAt(o, "status", "loadBalancer", "ingress");
        for (const json &entry : entries.is_array() ? entries : json::array()) {
            const std::string address = textOr(member(entry, "ip"), textOr(member(entry, "hostname"), ""));
            if (!address.empty())
                ingress.insert(address);
        }
        std::vector<std::string> all(ingress.begin(), ingress.end());
        all.insert(all.end(), external.begin(), external.end());
        return all.empty() ? "<pending>" : join(all);
    }
    if (type == "ExternalName")
        return textOr(member(spec, "externalName"), "");
    return "<unknown>";
}

Printer services()
{
    return {{nameColumn(), column("Type", "Type determines how the Service is exposed."),
             column("Cluster-IP", "ClusterIP is the IP address of the service."),
             column("External-IP", "List of IP addresses for which nodes in the cluster will also accept traffic."),
             column("Port(s)", "The list of ports that are exposed by this service."), ageColumn(),
             column("Selector", "Route service traffic to pods with label keys and values matching this selector.", 1)},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const json &clusterIps = member(spec, "clusterIPs");
                const std::string clusterIp = clusterIps.is_array() && !clusterIps.empty()
                    ? textOr(clusterIps[0], "<none>")
                    : textOr(member(spec, "clusterIP"), "<none>");
                return json::array({objectName(o), textOr(member(spec, "type"), "ClusterIP"), clusterIp,
                                    serviceExternalIp(o), servicePorts(spec), objectAge(o, now),
                                    formatLabels(member(spec, "selector"))});
            }};
}

std::string nodeInfo(const json &o, const char *field)
{
    return textOr(memberAt(o, "status", "nodeInfo", field), "<unknown>");
}

std::string nodeAddress(const json &o, const char *type)
{
    const json &addresses = memberAt(o, "status", "addresses");
    for (const json &address : addresses.is_array() ? addresses : json::array()) {
        if (member(address, "type") == type)
            return textOr(member(address, "address"), "<none>");
    }
    return "<none>";
}

Printer nodes()
{
    return {{nameColumn(), column("Status", "The status of the node"), column("Roles", "The roles of the node"),
             ageColumn(), column("Version", "Kubelet Version reported by the node."),
             column("Internal-IP", "List of addresses reachable to the node.", 1),
             column("External-IP", "List of addresses reachable to the node.", 1),
             column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1),
             column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
             column("Container-Runtime", "Container runtime version reported by the node through runtime remote API "
                                         "(e.g. containerd://1.4.2).", 1)},
            [](const json &o, std::int64_t now) {
                std::string status = "Unknown";
                const json &conditions = memberAt(o, "status", "conditions");
                for (const json &condition : conditions.is_array() ? conditions : json::array()) {
                    if (member(condition, "type") == "Ready") {
                        status = member(condition, "status") == "True" ? "Ready" : "NotReady";
                        break;
                    }
                }
                if (memberAt(o, "spec", "unschedulable") == true)
                    status += ",SchedulingDisabled";
                std::set<std::string> roles;
                static const json noLabels = json::object();
                const json &labels = memberAt(o, "metadata", "labels").is_object() ? memberAt(o, "metadata", "labels")
                                                                                     : noLabels;
                for (const auto &[key, value] : labels.items()) {
                    constexpr std::string_view prefix = "node-role.kubernetes.io/";
                    if (key.starts_with(prefix) && key.size() > prefix.size())
                        roles.insert(key.substr(prefix.size()));
                    else if (key == "kubernetes.io/role" && !textOr(value, "").empty())
                        roles.insert(textOr(value, ""));
                }
                std::string roleText;
                for (const std::string &role : roles)
                    roleText += (roleText.empty() ? "" : ",") + role;
                return json::array({objectName(o), status, roleText.empty() ? "<none>" : roleText, objectAge(o, now),
                                    textOr(memberAt(o, "status", "nodeInfo", "kubeletVersion"), ""),
                                    nodeAddress(o, "InternalIP"), nodeAddress(o, "ExternalIP"),
                                    nodeInfo(o, "osImage"), nodeInfo(o, "kernelVersion"),
                                    nodeInfo(o, "containerRuntimeVersion")});
            }};
}

Printer events()
{
    return {{column("Last Seen", "Time when this Event was last observed."),
             column("Type", "Type of this event (Normal, Warning), new types could be added in the future."),
             column("Reason", "This should be a short, machine understandable string that gives the reason for the "
                              "transition into the object's current status."),
             column("Object", "The object that this event is about."),
             column("Subobject", "The subobject that this event is about.", 1),
             column("Source", "The component reporting this event.", 1),
             column("Message", "A human-readable description of the status of this operation."),
             column("First Seen", "The time at which the event was first recorded.", 1),
             column("Count", "The number of times this event has occurred.", 1),
             Column{"Name", "string", "name", NAME_DOC, 1}},
            [](const json &o, std::int64_t now) {
                const json &first = textOr(member(o, "firstTimestamp"), "").empty() ? member(o, "eventTime")
                                                                                      : member(o, "firstTimestamp");
                const std::string firstSeen = age(first, now);
                std::string lastSeen = textOr(member(o, "lastTimestamp"), "").empty() ? firstSeen
                                                                                        : age(member(o, "lastTimestamp"), now);
                std::int64_t count = integerOr0(member(o, "count"));
                if (const json &series = member(o, "series"); series.is_object()) {
                    lastSeen = age(member(series, "lastObservedTime"), now);
                    count = integerOr0(member(series, "count"));
                } else if (count == 0) {
                    count = 1;
                }
                const json &involved = member(o, "involvedObject");
                std::string kind = textOr(member(involved, "kind"), "");
                std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                const std::string involvedName = textOr(member(involved, "name"), "");
                std::string source = textOr(memberAt(o, "source", "component"), textOr(member(o, "reportingController"), ""));
                const std::string host = textOr(memberAt(o, "source", "host"), textOr(member(o, "reportingInstance"), ""));
                if (!host.empty())
                    source += ", " + host;
                std::string message = textOr(member(o, "message"), "");
                const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
                message.erase(message.begin(), std::find_if(message.begin(), message.end(), notSpace));
                message.erase(std::find_if(message.rbegin(), message.rend(), notSpace).base(), message.end());
                return json::array({lastSeen, textOr(member(o, "type"), ""), textOr(member(o, "reason"), ""),
                                    involvedName.empty() ? kind : kind + '/' + involvedName,
                                    textOr(member(involved, "fieldPath"), ""), source, message, firstSeen, count,
                                    objectName(o)});
            }};
}

Printer pods()
{
    return {{nameColumn(), column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
             column("Status", "The aggregate status of the containers in this pod."),
             column("Restarts", "The number of times the containers in this pod have been restarted and when the "
                                "last container in this pod has restarted."),
             ageColumn(), column("IP", "IP address allocated to the pod. Routable at least within the cluster. Empty if "
                                       "not yet allocated.", 1),
             column("Node", "NodeName is a request to schedule this pod onto a specific node.", 1),
             column("Nominated Node", "nominatedNodeName is set only when this pod preempts other pods on the node.", 1),
             column("Readiness Gates", "If specified, all readiness gates will be evaluated for pod readiness.", 1)},
            [](const json &o, std::int64_t now) { return podCells(o, now); }};
}

// The default convertor's: Name and the creation time itself (§4.1).
Printer defaultPrinter()
{
    return {{nameColumn(), Column{"Created At", "date", "", AGE_DOC, 0}},
            [](const json &o, std::int64_t) {
                const json &time = memberAt(o, "metadata", "creationTimestamp");
                return json::array({objectName(o), time.is_string() ? time : json("0001-01-01T00:00:00Z")});
            }};
}

} // namespace

Printer customResourcePrinter(const json &printerColumns);

Printer printerFor(const registry::ResourceType &type)
{
    if (type.custom)
        return customResourcePrinter(type.printerColumns);
    static const std::map<std::string, Printer (*)()> BUILT_IN = {
        // core/v1
        {"Namespace", namespaces},
        {"ConfigMap", configMaps},
        {"Secret", secrets},
        {"ServiceAccount", serviceAccounts},
        {"Pod", pods},
        {"PodTemplate", podTemplates},
        {"Node", nodes},
        {"Service", services},
        {"Endpoints", endpoints},
        {"Event", events},
        {"ReplicationController", replicationControllers},
        {"PersistentVolume", persistentVolumes},
        {"PersistentVolumeClaim", persistentVolumeClaims},
        {"ResourceQuota", resourceQuotas},
        // apps/v1, batch/v1, autoscaling, policy/v1
        {"Deployment", deployments},
        {"ReplicaSet", replicaSets},
        {"StatefulSet", statefulSets},
        {"DaemonSet", daemonSets},
        {"ControllerRevision", controllerRevisions},
        {"Job", jobs},
        {"CronJob", cronJobs},
        {"HorizontalPodAutoscaler", horizontalPodAutoscalers},
        {"PodDisruptionBudget", podDisruptionBudgets},
        // discovery.k8s.io, networking.k8s.io
        {"EndpointSlice", endpointSlices},
        {"Ingress", ingresses},
        {"IngressClass", ingressClasses},
        {"NetworkPolicy", networkPolicies},
        // rbac.authorization.k8s.io (Role and ClusterRole: the default convertor)
        {"RoleBinding", roleBindings},
        {"ClusterRoleBinding", clusterRoleBindings},
        // storage.k8s.io, scheduling.k8s.io, coordination.k8s.io
        {"StorageClass", storageClasses},
        {"PriorityClass", priorityClasses},
        {"Lease", leases},
        // admissionregistration.k8s.io, apiregistration.k8s.io
        {"ValidatingWebhookConfiguration", validatingWebhookConfigurations},
        {"MutatingWebhookConfiguration", mutatingWebhookConfigurations},
        {"APIService", apiServices},
    };
    auto it = BUILT_IN.find(type.kind);
    Printer printer = it == BUILT_IN.end() ? defaultPrinter() : it->second();
    // The printers read the storage version (as upstream's read the internal one): a
    // version served apart converts each object back first.
    if (const auto conversion = type.conversion) {
        printer.cells = [cells = std::move(printer.cells), conversion](const json &object, std::int64_t now) {
            json stored = object;
            conversion->toStorage(stored);
            return cells(stored, now);
        };
    }
    return printer;
}

} // namespace rvscope::api::table
