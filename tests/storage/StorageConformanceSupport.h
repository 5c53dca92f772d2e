// SPDX-License-Identifier: MIT
#pragma once

// Helpers shared by the StorageConformance*.cpp files (one test class, split by concern).
#include <QtTest/QtTest>

#include "TestSupport.h"
#include "storage/Storage.h"

namespace conformance {

using namespace rvscope;
using model::Object;
using model::ObjectPtr;
using storage::Preconditions;
using storage::Revision;
using storage::Storage;
using storage::WatchEvent;
using storage::WatchEventType;
using testing::configMap;
using testing::configMapKey;
using testing::run;

// Records watch events (copies: sinks receive references valid only during the call).
struct Recorder {
    std::vector<WatchEvent> events;
    storage::WatchSink sink()
    {
        return [this](const WatchEvent &event) { events.push_back(event); };
    }
    std::vector<Revision> revisions() const
    {
        std::vector<Revision> result;
        for (const auto &e : events)
            result.push_back(e.revision);
        return result;
    }
};

inline storage::TryUpdate setData(std::string field, std::string value)
{
    return [field, value](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
        Object next = existing ? *existing : configMap("created");
        next.mutableJson()["data"][field] = value;
        co_return next;
    };
}

inline std::string dataOf(const ObjectPtr &object, const std::string &field)
{
    const auto &data = object->json()["data"];
    return data.contains(field) ? data[field].get<std::string>() : std::string();
}

inline Revision rvOf(const ObjectPtr &object)
{
    return model::parseResourceVersion(object->resourceVersion()).value_or(-1);
}

inline ObjectPtr mustCreate(Storage &storage, const std::string &name, std::map<std::string, std::string> data = {})
{
    auto created = run(storage.create(configMapKey(name), configMap(name, "default", data)));
    if (!created)
        qFatal("create %s failed: %s", name.c_str(), created.error().message.c_str());
    return created.value();
}

inline Revision current(Storage &storage)
{
    return run(storage.currentRevision()).value();
}


} // namespace conformance
