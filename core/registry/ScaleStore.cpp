// SPDX-License-Identifier: MIT
#include "registry/ScaleStore.h"

#include "registry/strategies/WorkloadScale.h"
#include "registry/validation/ObjectDecoding.h"

namespace rvscope::registry {
namespace {

// Turns "a new Scale from the current Scale" into "a new workload from the current
// workload" (upstream scaleUpdatedObjectInfo), so that the workload's Store decides.
class ScaleUpdatedObjectInfo final : public UpdatedObjectInfo {
public:
    explicit ScaleUpdatedObjectInfo(std::shared_ptr<const UpdatedObjectInfo> scaleInfo)
        : m_scaleInfo(std::move(scaleInfo))
    {
    }

    QCoro::Task<model::Result<model::Object>> updatedObject(model::ObjectPtr existing) const override
    {
        std::shared_ptr<const UpdatedObjectInfo> scaleInfo = m_scaleInfo;
        auto oldScale = scaleOf(*existing);
        if (!oldScale)
            co_return std::move(oldScale).error();
        auto newScale = co_await scaleInfo->updatedObject(std::make_shared<const model::Object>(*oldScale));
        if (!newScale)
            co_return std::move(newScale).error();
        if (auto undecodable = checkDecodable(*newScale, "Scale", "autoscaling/v1"))
            co_return *undecodable;
        co_return applyScale(*newScale, *existing);
    }

private:
    std::shared_ptr<const UpdatedObjectInfo> m_scaleInfo;
};

} // namespace

ScaleStore::ScaleStore(std::shared_ptr<Store> parent)
    : m_parent(std::move(parent))
{
}

QCoro::Task<model::Result<ObjectPtr>> ScaleStore::get(std::string ns, std::string name)
{
    std::shared_ptr<Store> parent = m_parent;
    auto workload = co_await parent->get(std::move(ns), std::move(name));
    if (!workload)
        co_return std::move(workload).error();
    auto scale = scaleOf(**workload);
    if (!scale)
        co_return std::move(scale).error();
    co_return std::make_shared<const model::Object>(std::move(scale).value());
}

QCoro::Task<model::Result<UpdateResponse>> ScaleStore::update(std::string ns, std::string name,
                                                              std::shared_ptr<const UpdatedObjectInfo> info,
                                                              WriteOptions options)
{
    std::shared_ptr<Store> parent = m_parent;
    auto wrapped = std::make_shared<ScaleUpdatedObjectInfo>(std::move(info));
    auto updated = co_await parent->update(std::move(ns), std::move(name), wrapped, options);
    if (!updated)
        co_return std::move(updated).error();
    auto scale = scaleOf(*updated->object);
    if (!scale)
        co_return std::move(scale).error();
    updated->object = std::make_shared<const model::Object>(std::move(scale).value());
    co_return std::move(updated).value();
}

} // namespace rvscope::registry
