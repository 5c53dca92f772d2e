// SPDX-License-Identifier: MIT
// Controllers of pods (table-output.md §5.2, §5.3): their replica counts, and the wide columns
// every pod-template owner shares, Containers, Images and Selector.
#include <algorithm>
#include <cctype>

#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

// Containers and Images of `podTemplate` (layoutContainerCells), then `selector` when given.
void appendTemplateCells(json &cells, const json &podTemplate, const std::string *selector)
{
    const json &podSpec = member(podTemplate, "spec");
    cells.push_back(containerNames(podSpec));
    cells.push_back(containerImages(podSpec));
    if (selector)
        cells.push_back(*selector);
}

// ReplicationController and ReplicaSet: Desired, Current, Ready; they differ in their selector.
Printer replicaCounting(const char *desiredDoc, const char *currentDoc, const char *readyDoc, const char *selectorDoc,
                        std::string (*selector)(const json &))
{
    return {{nameColumn(), column("Desired", desiredDoc, 0, "integer"), column("Current", currentDoc, 0, "integer"),
             column("Ready", readyDoc, 0, "integer"), ageColumn(), column("Containers", CONTAINERS_DOC, 1),
             column("Images", IMAGES_DOC, 1), column("Selector", selectorDoc, 1)},
            [selector](const json &o, std::int64_t now) {
                const json &status = member(o, "status");
                json cells = json::array({objectName(o), integerOr0(memberAt(o, "spec", "replicas")),
                                          integerOr0(member(status, "replicas")),
                                          integerOr0(member(status, "readyReplicas")), objectAge(o, now)});
                const std::string text = selector(memberAt(o, "spec", "selector"));
                appendTemplateCells(cells, memberAt(o, "spec", "template"), &text);
                return cells;
            }};
}

// "apps/v1" → "apps", "v1" → "" (schema.ParseGroupVersion).
std::string groupOf(const std::string &apiVersion)
{
    const auto slash = apiVersion.find('/');
    return slash == std::string::npos ? std::string() : apiVersion.substr(0, slash);
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// metav1.GetControllerOf, shown as lower(Kind.group)/name (formatResourceName).
std::string controllerOf(const json &o)
{
    const json &owners = memberAt(o, "metadata", "ownerReferences");
    for (const json &owner : owners.is_array() ? owners : json::array()) {
        if (member(owner, "controller") != true)
            continue;
        const std::string kind = textOr(member(owner, "kind"), "");
        const std::string group = groupOf(textOr(member(owner, "apiVersion"), ""));
        const std::string name = textOr(member(owner, "name"), "");
        if (kind.empty() && group.empty())
            return name;
        return lowered(group.empty() ? kind : kind + '.' + group) + '/' + name;
    }
    return "<none>";
}

} // namespace

Printer deployments()
{
    return {{nameColumn(), column("Ready", "Number of the pod with ready state"),
             column("Up-to-date", "Total number of non-terminated pods targeted by this deployment that have the "
                                  "desired template spec."),
             column("Available", "Total number of available pods (ready for at least minReadySeconds) targeted by "
                                 "this deployment."),
             ageColumn(), column("Containers", CONTAINERS_DOC, 1), column("Images", IMAGES_DOC, 1),
             column("Selector", "Label selector for pods. Existing ReplicaSets whose pods are selected by this will "
                                "be the ones affected by this deployment.", 1)},
            [](const json &o, std::int64_t now) {
                const json &status = member(o, "status");
                json cells = json::array({objectName(o),
                                          std::to_string(integerOr0(member(status, "readyReplicas"))) + '/'
                                              + std::to_string(integerOr0(memberAt(o, "spec", "replicas"))),
                                          integerOr0(member(status, "updatedReplicas")),
                                          integerOr0(member(status, "availableReplicas")), objectAge(o, now)});
                // LabelSelectorAsSelector(...).String(): "" for an empty selector, "<invalid>" for a bad one
                std::string selector = formatLabelSelector(memberAt(o, "spec", "selector"));
                if (selector == "<none>")
                    selector.clear();
                else if (selector == "<error>")
                    selector = "<invalid>";
                appendTemplateCells(cells, memberAt(o, "spec", "template"), &selector);
                return cells;
            }};
}

Printer replicationControllers()
{
    return replicaCounting(
        "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and "
        "unspecified. Defaults to 1. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
        "Replicas is the most recently observed number of replicas. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
        "The number of ready replicas for this replication controller.",
        "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is "
        "defaulted to the labels present on the Pod template. Label keys and values that must match in order to be "
        "controlled by this replication controller, if empty defaulted to labels on Pod template. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        [](const json &selector) { return formatLabels(selector); });
}

Printer replicaSets()
{
    return replicaCounting(
        "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and "
        "unspecified. Defaults to 1. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
        "Replicas is the most recently observed number of replicas. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
        "The number of ready replicas for this replica set.",
        "Selector is a label query over pods that should match the replica count. If the selector is empty, it is "
        "defaulted to the labels present on the pod template. Label keys and values that must match in order to be "
        "controlled by this replica set. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        [](const json &selector) { return formatLabelSelector(selector); });
}

Printer statefulSets()
{
    return {{nameColumn(), column("Ready", "Number of the pod with ready state"), ageColumn(),
             column("Containers", CONTAINERS_DOC, 1), column("Images", IMAGES_DOC, 1)},
            [](const json &o, std::int64_t now) {
                json cells = json::array({objectName(o),
                                          std::to_string(integerOr0(memberAt(o, "status", "readyReplicas"))) + '/'
                                              + std::to_string(integerOr0(memberAt(o, "spec", "replicas"))),
                                          objectAge(o, now)});
                appendTemplateCells(cells, memberAt(o, "spec", "template"), nullptr);
                return cells;
            }};
}

Printer daemonSets()
{
    return {{nameColumn(),
             column("Desired", "The total number of nodes that should be running the daemon pod (including nodes "
                               "correctly running the daemon pod). More info: "
                               "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/", 0, "integer"),
             column("Current", "The number of nodes that are running at least 1 daemon pod and are supposed to run "
                               "the daemon pod. More info: "
                               "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/", 0, "integer"),
             column("Ready", "The number of nodes that should be running the daemon pod and have one or more of the "
                             "daemon pod running and ready.", 0, "integer"),
             column("Up-to-date", "The total number of nodes that are running updated daemon pod", 0, "integer"),
             column("Available", "The number of nodes that should be running the daemon pod and have one or more of "
                                 "the daemon pod running and available (ready for at least spec.minReadySeconds)",
                    0, "integer"),
             column("Node Selector", "NodeSelector is a selector which must be true for the pod to fit on a node. "
                                     "Selector which must match a node's labels for the pod to be scheduled on that "
                                     "node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
             ageColumn(), column("Containers", CONTAINERS_DOC, 1), column("Images", IMAGES_DOC, 1),
             column("Selector", "A label query over pods that are managed by the daemon set. Must match in order to "
                                "be controlled. If empty, defaulted to labels on Pod template. More info: "
                                "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/"
                                "#label-selectors", 1)},
            [](const json &o, std::int64_t now) {
                const json &status = member(o, "status");
                const json &podTemplate = memberAt(o, "spec", "template");
                json cells = json::array({objectName(o), integerOr0(member(status, "desiredNumberScheduled")),
                                          integerOr0(member(status, "currentNumberScheduled")),
                                          integerOr0(member(status, "numberReady")),
                                          integerOr0(member(status, "updatedNumberScheduled")),
                                          integerOr0(member(status, "numberAvailable")),
                                          formatLabels(memberAt(podTemplate, "spec", "nodeSelector")),
                                          objectAge(o, now)});
                const std::string selector = formatLabelSelector(memberAt(o, "spec", "selector"));
                appendTemplateCells(cells, podTemplate, &selector);
                return cells;
            }};
}

Printer controllerRevisions()
{
    return {{nameColumn(), column("Controller", "Controller of the object"),
             column("Revision", "revision indicates the revision of the state represented by Data."), ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), controllerOf(o), integerOr0(member(o, "revision")),
                                    objectAge(o, now)});
            }};
}

// No Age column: upstream's PodTemplate printer has none.
Printer podTemplates()
{
    return {{nameColumn(), column("Containers", CONTAINERS_DOC), column("Images", IMAGES_DOC),
             column("Pod Labels", "The labels for the pod template.")},
            [](const json &o, std::int64_t) {
                const json &podTemplate = member(o, "template");
                json cells = json::array({objectName(o)});
                appendTemplateCells(cells, podTemplate, nullptr);
                cells.push_back(formatLabels(memberAt(podTemplate, "metadata", "labels")));
                return cells;
            }};
}

} // namespace rvscope::api::table
