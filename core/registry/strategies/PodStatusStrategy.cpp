// SPDX-License-Identifier: MIT
#include "registry/strategies/PodStatusStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {

void PodStatusStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    keepField(object, old, "spec");
    // Old kubelets corrupt owner references through this endpoint; upstream ignores them here.
    nlohmann::json *meta = jsonedit::childObject(object.mutableJson(), "metadata");
    if (meta) {
        meta->erase("ownerReferences");
        if (const nlohmann::json &owners = model::memberAt(old.json(), "metadata", "ownerReferences"); !owners.is_null())
            (*meta)["ownerReferences"] = owners;
    }
    const std::string oldQos = model::stringOr(model::memberAt(old.json(), "status", "qosClass"));
    nlohmann::json *status = jsonedit::childObject(object.mutableJson(), "status");
    if (status && !oldQos.empty() && model::stringOr(model::member(*status, "qosClass")).empty())
        (*status)["qosClass"] = oldQos;
}

std::vector<model::StatusCause> PodStatusStrategy::validateUpdate(const model::Object &object,
                                                                  const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &status = model::member(object.json(), "status");
    const nlohmann::json &oldStatus = model::member(old.json(), "status");
    const std::string nominated = model::stringOr(model::member(status, "nominatedNodeName"));
    if (!nominated.empty() && nominated != model::stringOr(model::member(oldStatus, "nominatedNodeName"))) {
        for (const std::string &error : isDns1123Subdomain(nominated))
            causes.push_back(invalidField("status.nominatedNodeName", nominated, error));
    }
    const std::string qos = model::stringOr(model::member(status, "qosClass"));
    if (qos != model::stringOr(model::member(oldStatus, "qosClass")))
        causes.push_back(invalidField("status.qosClass", qos, "field is immutable"));
    return causes;
}

std::map<std::string, std::string> PodStatusStrategy::selectableFields(const model::Object &object) const
{
    return m_pod.selectableFields(object);
}

} // namespace rvscope::registry
