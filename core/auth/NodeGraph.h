// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include <nlohmann/json_fwd.hpp>

#include "auth/PodReferences.h"

namespace rvscope::auth {

// The object types a node may read through its pods.
enum class NodeObjectType { Secret, ConfigMap, PersistentVolumeClaim };

// The node authorizer's relationship graph (plugin/pkg/auth/authorizer/node/graph.go),
// reduced to what it answers: which secrets, configmaps and persistentvolumeclaims the pods
// bound to a node reference (see PodReferences). Fed with pod events from a watch on pods;
// a pod without spec.nodeName contributes nothing.
//
// An edge (node, type, namespace, name) exists while at least one pod bound to that node
// references the object, so two pods sharing a secret keep it readable until both are gone
// or have moved. generation() increases whenever the set of edges changes (and only then),
// so that open watches know when to re-authorize.
//
// Not thread-safe: owned and fed by the core thread.
class NodeGraph final {
public:
    // A created or modified pod (its full JSON, as a watch delivers it). A pod without a
    // metadata.name is ignored.
    void podUpdated(const nlohmann::json &pod);
    void podDeleted(const std::string &namespaceName, const std::string &name);
    // Forgets every pod (before a relist that podUpdated()s them again).
    void clear();

    bool hasRelationship(const std::string &nodeName, NodeObjectType type, const std::string &namespaceName,
                         const std::string &name) const;

    std::uint64_t generation() const { return m_generation; }
    std::size_t podCount() const { return m_pods.size(); }
    std::size_t edgeCount() const { return m_edges.size(); }

private:
    struct PodEntry final {
        std::string nodeName;
        PodReferences references;
    };
    using PodKey = std::pair<std::string, std::string>; // namespace, name
    using EdgeKey = std::tuple<std::string, NodeObjectType, std::string, std::string>;

    // Adds (+1) or removes (-1) the edges of one pod; true when an edge appeared or vanished.
    bool applyPod(const PodKey &pod, const PodEntry &entry, int delta);

    std::map<PodKey, PodEntry> m_pods;
    std::map<EdgeKey, std::size_t> m_edges; // -> number of pods making the edge
    std::uint64_t m_generation = 0;
};

} // namespace rvscope::auth
