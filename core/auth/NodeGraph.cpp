// SPDX-License-Identifier: MIT
#include "auth/NodeGraph.h"

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"

namespace rvscope::auth {

bool NodeGraph::applyPod(const PodKey &pod, const PodEntry &entry, int delta)
{
    bool changed = false;
    const auto apply = [&](NodeObjectType type, const std::set<std::string> &names) {
        for (const std::string &name : names) {
            EdgeKey key{entry.nodeName, type, pod.first, name};
            if (delta > 0) {
                changed |= ++m_edges[std::move(key)] == 1;
                continue;
            }
            const auto it = m_edges.find(key);
            if (it != m_edges.end() && --it->second == 0) {
                m_edges.erase(it);
                changed = true;
            }
        }
    };
    apply(NodeObjectType::Secret, entry.references.secrets);
    apply(NodeObjectType::ConfigMap, entry.references.configMaps);
    apply(NodeObjectType::PersistentVolumeClaim, entry.references.persistentVolumeClaims);
    return changed;
}

void NodeGraph::podUpdated(const nlohmann::json &pod)
{
    const nlohmann::json &metadata = model::member(pod, "metadata");
    PodKey key{model::stringOr(model::member(metadata, "namespace")), model::stringOr(model::member(metadata, "name"))};
    if (key.second.empty())
        return;

    PodEntry entry{model::stringOr(model::memberAt(pod, "spec", "nodeName")), {}};
    if (!entry.nodeName.empty())
        entry.references = PodReferences::of(pod);

    bool changed = false;
    const auto old = m_pods.find(key);
    if (old != m_pods.end()) {
        if (old->second.nodeName == entry.nodeName && old->second.references == entry.references)
            return;
        // Add before removing so that references the pod keeps never drop to zero.
        if (!entry.nodeName.empty())
            changed |= applyPod(key, entry, +1);
        changed |= applyPod(key, old->second, -1);
        if (entry.nodeName.empty())
            m_pods.erase(old);
        else
            old->second = std::move(entry);
    } else if (!entry.nodeName.empty()) {
        changed = applyPod(key, entry, +1);
        m_pods.emplace(std::move(key), std::move(entry));
    }
    if (changed)
        ++m_generation;
}

void NodeGraph::podDeleted(const std::string &namespaceName, const std::string &name)
{
    const auto it = m_pods.find({namespaceName, name});
    if (it == m_pods.end())
        return;
    const bool changed = applyPod(it->first, it->second, -1);
    m_pods.erase(it);
    if (changed)
        ++m_generation;
}

void NodeGraph::clear()
{
    const bool changed = !m_edges.empty();
    m_pods.clear();
    m_edges.clear();
    if (changed)
        ++m_generation;
}

bool NodeGraph::hasRelationship(const std::string &nodeName, NodeObjectType type, const std::string &namespaceName,
                                const std::string &name) const
{
    return m_edges.contains({nodeName, type, namespaceName, name});
}

} // namespace rvscope::auth
