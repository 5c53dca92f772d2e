// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// Objects of a CustomResourceDefinition's type. Unlike built-ins they refuse updates
// without a resourceVersion (422) and strategic merge patches (415); generation counts
// every change outside metadata and status. With a /status subresource the main resource
// keeps status and /status changes nothing but status.
class CustomResourceStrategy final : public Strategy {
public:
    enum class Endpoint { Main, Status };

    CustomResourceStrategy(bool namespaced, bool statusSubresource, Endpoint endpoint = Endpoint::Main);

    bool kubeFinalizerNames() const override { return false; }
    bool namespaced() const override { return m_namespaced; }
    bool allowUnconditionalUpdate() const override { return false; }
    bool supportsStrategicMerge() const override { return false; }
    bool hasGeneration() const override { return true; }
    bool generationChanged(const model::Object &object, const model::Object &old) const override;
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;

private:
    bool m_namespaced;
    bool m_statusSubresource;
    Endpoint m_endpoint;
};

} // namespace rvscope::registry
