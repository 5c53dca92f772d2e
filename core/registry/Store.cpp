// SPDX-License-Identifier: MIT
// Store: create, get, update (the 409 decision). List/watch and delete are in StoreList.cpp
// and StoreDelete.cpp.
#include "registry/Store.h"

#include "model/StatusErrors.h"
#include "registry/ErrorTranslation.h"
#include "registry/validation/NameValidation.h"
#include "registry/validation/ObjectDecoding.h"
#include "storage/Storage.h"

namespace rvscope::registry {
namespace {
constexpr int GENERATE_NAME_ATTEMPTS = 8;

bool containsAll(const std::vector<std::string> &haystack, const std::vector<std::string> &needles)
{
    for (const std::string &needle : needles) {
        if (std::find(haystack.begin(), haystack.end(), needle) == haystack.end())
            return false;
    }
    return true;
}

// A client usually sends these back as it read them: a value equal to the stored one (same
// JSON type too, so that 30 stays 30 and not 30.0) is kept rather than copied again.
void copyMetadataField(nlohmann::json &to, const model::Object &from, const char *field)
{
    nlohmann::json &meta = to["metadata"];
    const nlohmann::json &source = from.json()["metadata"];
    if (source.is_object() && source.contains(field)) {
        const nlohmann::json &value = source[field];
        const auto current = meta.is_object() ? meta.find(field) : meta.end();
        if (!meta.is_object() || current == meta.end() || current->type() != value.type() || *current != value)
            meta[field] = value;
    } else if (meta.is_object()) {
        meta.erase(field);
    }
}

void setString(nlohmann::json &object, const char *key, const std::string &value)
{
    nlohmann::json &member = object[key];
    if (!member.is_string() || member.get_ref<const std::string &>() != value)
        member = value;
}
} // namespace

const char *watchEventTypeName(WatchEventType type)
{
    switch (type) {
    case WatchEventType::Added: return "ADDED";
    case WatchEventType::Modified: return "MODIFIED";
    case WatchEventType::Deleted: return "DELETED";
    case WatchEventType::Bookmark: return "BOOKMARK";
    case WatchEventType::Error: return "ERROR";
    }
    return "ERROR";
}

std::string watchEventJson(const WatchEvent &event)
{
    std::string line = R"({"type":")";
    line += watchEventTypeName(event.type);
    line += R"(","object":)";
    if (event.type == WatchEventType::Error && event.error)
        line += event.error->dump(); // as the apiserver writes it, in Go field order
    else if (event.object)
        line += event.object->bytes();
    else
        line += "null";
    line += '}';
    return line;
}

std::shared_ptr<const std::string> watchEventLine(const WatchEvent &event)
{
    return event.wire ? event.wire : std::make_shared<const std::string>(watchEventJson(event));
}

WatchEvent bookmarkEvent(const std::string &kind, const std::string &apiVersion, std::int64_t revision,
                         bool initialEventsEnd)
{
    nlohmann::json metadata = {{"resourceVersion", std::to_string(revision)}, {"creationTimestamp", nullptr}};
    if (initialEventsEnd)
        metadata["annotations"] = {{"k8s.io/initial-events-end", "true"}};
    WatchEvent event;
    event.type = WatchEventType::Bookmark;
    event.object = std::make_shared<const model::Object>(
        model::Object(nlohmann::json{{"kind", kind}, {"apiVersion", apiVersion}, {"metadata", std::move(metadata)}}));
    return event;
}

Store::Store(std::shared_ptr<const ResourceType> type, std::shared_ptr<const Strategy> strategy,
             std::shared_ptr<StoreEnvironment> environment, std::string subresource)
    : m_type(std::move(type))
    , m_strategy(std::move(strategy))
    , m_environment(std::move(environment))
    , m_fields(*m_type, std::move(subresource))
{
}

std::optional<model::Status> Store::prepareCreate(const std::string &ns, model::Object &object)
{
    const ResourceType &type = *m_type;
    if (auto undecodable = checkDecodable(object, type.kind, type.storageApiVersion()))
        return undecodable;
    nlohmann::json &json = object.mutableJson();
    json["kind"] = type.kind;
    json["apiVersion"] = type.storageApiVersion();
    if (!json["metadata"].is_object())
        json["metadata"] = nlohmann::json::object();
    if (type.namespaced()) {
        const std::string bodyNamespace = object.namespaceName();
        if (!bodyNamespace.empty() && bodyNamespace != ns)
            return model::errors::badRequest(
                "the namespace of the provided object does not match the namespace sent on the request");
        object.setNamespace(ns);
    } else {
        object.setNamespace("");
    }
    if (object.name().empty()) {
        if (object.generateName().empty()) {
            return model::errors::invalid(
                type.qualifiedKind(), "",
                {{"FieldValueRequired", "Required value: name or generateName is required", "metadata.name"}},
                type.kind, type.gvr.group);
        }
        object.setName(generateNameFrom(object.generateName(), m_environment->random));
    }
    object.setUid(m_environment->newUid());
    object.setCreationTimestamp(m_environment->now());
    object.setResourceVersion("");
    object.setGeneration(m_strategy->hasGeneration() ? std::optional<std::int64_t>(1) : std::nullopt);
    object.setDeletionTimestamp("");
    nlohmann::json &meta = object.mutableJson()["metadata"];
    meta.erase("deletionGracePeriodSeconds");
    meta.erase("selfLink");
    m_strategy->prepareForCreate(object);
    if (auto causes = m_strategy->validate(object); !causes.empty())
        return model::errors::invalid(type.qualifiedKind(), object.name(), std::move(causes), type.kind,
                                      type.gvr.group);
    return std::nullopt;
}

QCoro::Task<model::Result<ObjectPtr>> Store::create(std::string ns, model::Object object, WriteOptions options)
{
    auto self = shared_from_this();
    const ResourceType &type = *m_type;
    const bool generated = object.name().empty() && !object.generateName().empty();
    if (type.conversion) {
        if (auto undecodable = checkDecodable(object, type.kind, type.apiVersion()))
            co_return *undecodable;
        type.toStorage(object);
    }
    if (auto invalid = prepareCreate(ns, object))
        co_return *invalid;
    m_fields.recordUpdate(nullptr, object, options.manager, m_environment->now());
    if (type.namespaced() && m_environment->admitNamespace) {
        const model::GroupResource resource = type.groupResource();
        const std::string name = object.name();
        if (auto refused = co_await m_environment->admitNamespace(ns, resource, name))
            co_return *refused;
    }
    if (options.dryRun)
        co_return type.served(std::make_shared<const model::Object>(std::move(object)));

    for (int attempt = 1;; ++attempt) {
        const std::string name = object.name();
        auto created = co_await type.storage->create(type.key(ns, name), object);
        if (created) {
            if (m_environment->afterCreate)
                m_environment->afterCreate(type.gvr.resource, **created);
            co_return type.served(created.value());
        }
        // Like upstream, a generated name that collides is generated again a few times.
        if (generated && created.error().storageCode == model::StorageCode::KeyExists
            && attempt < GENERATE_NAME_ATTEMPTS) {
            object.setName(generateNameFrom(object.generateName(), m_environment->random));
            continue;
        }
        co_return interpretCreateError(std::move(created).error(), type.groupResource(), name);
    }
}

QCoro::Task<model::Result<ObjectPtr>> Store::get(std::string ns, std::string name)
{
    auto self = shared_from_this();
    if (auto invalid = invalidKeyName(name))
        co_return *invalid;
    auto got = co_await m_type->storage->get(m_type->key(ns, name));
    if (!got)
        co_return interpretGetError(std::move(got).error(), m_type->groupResource(), name);
    co_return m_type->served(got.value());
}

std::optional<model::Status> Store::checkUpdate(const std::string &ns, const std::string &name,
                                                const model::Object &object, const ObjectPtr &existing) const
{
    const ResourceType &type = *m_type;
    if (auto undecodable = checkDecodable(object, type.kind, type.storageApiVersion()))
        return *undecodable;
    if (object.name() != name) {
        return model::errors::badRequest("the name of the object (" + object.name()
                                         + ") does not match the name on the URL (" + name + ")");
    }
    if (type.namespaced()) {
        const std::string bodyNamespace = object.namespaceName();
        if (!bodyNamespace.empty() && bodyNamespace != ns)
            return model::errors::badRequest(
                "the namespace of the provided object does not match the namespace sent on the request");
    }

    // The optimistic-concurrency decision: only a resourceVersion the client sent can
    // produce a 409.
    const std::string sent = object.resourceVersion();
    if (sent.empty()) {
        if (!m_strategy->allowUnconditionalUpdate()) {
            return model::errors::invalid(
                type.groupResource().toString(), name,
                {{"FieldValueInvalid", "Invalid value: 0x0: must be specified for an update",
                  "metadata.resourceVersion"}},
                type.gvr.resource, type.gvr.group);
        }
    } else if (sent != existing->resourceVersion()) {
        return model::errors::conflict(type.groupResource(), name, model::errors::OPTIMISTIC_LOCK_ERROR_MSG);
    }
    return std::nullopt;
}

model::Result<model::Object> Store::prepareUpdate(const std::string &ns, const std::string &name, model::Object object,
                                                  const ObjectPtr &existing, bool checked) const
{
    const ResourceType &type = *m_type;
    const std::string apiVersion = type.storageApiVersion();
    if (!checked) {
        if (auto refused = checkUpdate(ns, name, object, existing))
            return *refused;
    }
    if (type.namespaced())
        object.setNamespace(ns);
    if (object.resourceVersion().empty())
        object.setResourceVersion(existing->resourceVersion());

    nlohmann::json &json = object.mutableJson();
    setString(json, "kind", type.kind);
    setString(json, "apiVersion", apiVersion);
    if (object.uid().empty())
        object.setUid(existing->uid());
    for (const char *field : {"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"})
        copyMetadataField(object.mutableJson(), *existing, field);

    if (!existing->deletionTimestamp().empty() && !containsAll(existing->finalizers(), object.finalizers())) {
        return model::errors::invalid(
            type.qualifiedKind(), name,
            {{"FieldValueForbidden", "Forbidden: no new finalizers can be added if the object is being deleted",
              "metadata.finalizers"}},
            type.kind, type.gvr.group);
    }

    m_strategy->prepareForUpdate(object, *existing);
    if (m_strategy->hasGeneration()) {
        const std::int64_t generation = existing->generation().value_or(1);
        object.setGeneration(m_strategy->generationChanged(object, *existing) ? generation + 1 : generation);
    } else {
        object.setGeneration(std::nullopt);
    }
    if (auto causes = m_strategy->validateUpdate(object, *existing); !causes.empty())
        return model::errors::invalid(type.qualifiedKind(), name, std::move(causes), type.kind, type.gvr.group);
    return object;
}

QCoro::Task<model::Result<UpdateResponse>> Store::update(std::string ns, std::string name,
                                                         std::shared_ptr<const UpdatedObjectInfo> info,
                                                         WriteOptions options)
{
    auto self = shared_from_this();
    if (auto invalid = invalidKeyName(name))
        co_return *invalid;
    const ResourceType &type = *m_type;
    const std::string key = type.key(ns, name);
    const bool createOnUpdate = m_strategy->allowCreateOnUpdate() || options.forceAllowCreate;
    if (createOnUpdate && type.namespaced() && m_environment->admitNamespace) {
        const model::GroupResource resource = type.groupResource();
        if (auto refused = co_await m_environment->admitNamespace(ns, resource, name))
            co_return *refused;
    }

    // Everything that decides the outcome runs here, inside the compare-and-swap loop.
    const std::string manager = options.manager;
    const bool force = options.force;
    storage::TryUpdate tryUpdate = [self, ns, name, info, manager,
                                    force](ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
        // A PUT that lost the race (most of them on a hot key) is refused before its object
        // is copied; its copy then skips those checks in prepareUpdate (once per attempt).
        const ResourceType &type = *self->m_type;
        const model::Object *unchanged = existing && !type.conversion ? info->unchangedObject() : nullptr;
        const bool checked = unchanged != nullptr;
        if (checked) {
            if (auto refused = self->checkUpdate(ns, name, *unchanged, existing))
                co_return *refused;
        }
        // Server-side apply merges by ownership (FieldManager::apply); every other write
        // computes its object and then records what it changed.
        const std::string now = self->m_environment->now();
        const nlohmann::json *config = info->applyConfiguration();
        // A served version apart from storage: the client's object (or applied
        // configuration) is in the served version, the rules below see the stored one.
        model::Object convertedConfig;
        if (config && type.conversion) {
            convertedConfig = model::Object(*config);
            type.toStorage(convertedConfig);
            config = &convertedConfig.json();
        }
        model::Result<model::Object> desired = config ? self->m_fields.apply(existing.get(), *config, manager, force, now)
                                                      : model::Result<model::Object>(model::Object());
        if (!config)
            desired = co_await info->updatedObject(type.served(existing));
        if (!desired)
            co_return std::move(desired).error();
        if (!config && type.conversion) {
            if (auto undecodable = checkDecodable(*desired, type.kind, type.apiVersion()))
                co_return *undecodable;
            type.toStorage(*desired);
        }
        if (!existing) {
            if (!desired->resourceVersion().empty())
                co_return model::errors::notFound(self->m_type->groupResource(), name);
            model::Object created = std::move(desired).value();
            if (created.name() != name)
                co_return model::errors::badRequest("the name of the object (" + created.name()
                                                    + ") does not match the name on the URL (" + name + ")");
            if (auto invalid = self->prepareCreate(ns, created))
                co_return *invalid;
            if (!config)
                self->m_fields.recordUpdate(nullptr, created, manager, now);
            co_return created;
        }
        auto prepared = self->prepareUpdate(ns, name, std::move(desired).value(), existing, checked);
        if (prepared && !config)
            self->m_fields.recordUpdate(existing.get(), *prepared, manager, now);
        co_return prepared;
    };

    UpdateResponse response;
    if (options.dryRun) {
        // Same checks on the current object; nothing is written and no revision is used.
        auto current = co_await type.storage->get(key);
        ObjectPtr existing;
        if (current)
            existing = current.value();
        else if (!createOnUpdate || current.error().storageCode != model::StorageCode::KeyNotFound)
            co_return interpretUpdateError(std::move(current).error(), type.groupResource(), name);
        if (existing) {
            if (auto failed = info->preconditions().check(key, *existing))
                co_return interpretUpdateError(std::move(*failed), type.groupResource(), name);
        }
        auto desired = co_await tryUpdate(existing);
        if (!desired)
            co_return std::move(desired).error();
        response.created = !existing;
        response.noop = existing && desired->json() == existing->json();
        response.object = type.served(std::make_shared<const model::Object>(std::move(desired).value()));
        co_return response;
    }

    auto updated = co_await type.storage->guaranteedUpdate(key, info->preconditions(), tryUpdate, nullptr,
                                                           createOnUpdate);
    if (!updated)
        co_return interpretUpdateError(std::move(updated).error(), type.groupResource(), name);
    response.object = updated->object;
    response.created = updated->created;
    response.noop = updated->noop;
    response.retries = updated->retries;
    if (response.created && m_environment->afterCreate)
        m_environment->afterCreate(type.gvr.resource, *response.object);

    // An update that removes the last finalizer of an object being deleted deletes it.
    const model::Object &result = *response.object;
    if (!result.deletionTimestamp().empty() && result.finalizers().empty()) {
        storage::Preconditions current;
        current.resourceVersion = result.resourceVersion();
        auto removed = co_await type.storage->remove(key, current);
        if (removed && m_environment->afterDelete)
            m_environment->afterDelete(type.gvr.resource, *removed->object);
    }
    response.object = type.served(std::move(response.object));
    co_return response;
}

} // namespace rvscope::registry
