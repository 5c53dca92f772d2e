// SPDX-License-Identifier: MIT
// Store: list and watch, with selectors, pagination and resourceVersion semantics.
#include "registry/Store.h"

#include "model/StatusErrors.h"
#include "registry/ContinueToken.h"
#include "registry/selection/FieldSelector.h"
#include "registry/selection/LabelSelector.h"
#include "storage/Storage.h"
#include "storage/StorageErrors.h"

namespace rvscope::registry {

// The parsed selectors of one list or watch request.
struct Store::Selection {
    std::string prefix;
    LabelSelector labels;
    FieldSelector fields;
    std::shared_ptr<const Strategy> strategy;

    bool selectsEverything() const { return labels.empty() && fields.empty(); }
    bool matches(const model::Object &object) const
    {
        if (!labels.empty() && !labels.matches(object.labels()))
            return false;
        return fields.empty() || fields.matches(strategy->selectableFields(object));
    }
};

model::Result<std::shared_ptr<const Store::Selection>> Store::selection(const std::string &ns,
                                                                        const ListOptions &options) const
{
    auto selection = std::make_shared<Selection>();
    selection->prefix = m_type->prefix(ns);
    selection->strategy = m_strategy;
    auto labels = LabelSelector::parse(options.labelSelector);
    if (!labels)
        return std::move(labels).error();
    selection->labels = std::move(labels).value();
    auto fields = FieldSelector::parse(options.fieldSelector);
    if (!fields)
        return std::move(fields).error();
    // Upstream's default field set has metadata.namespace for cluster-scoped types too.
    std::vector<std::string> supported = {"metadata.name", "metadata.namespace"};
    const auto extra = m_strategy->extraFieldLabels();
    supported.insert(supported.end(), extra.begin(), extra.end());
    if (auto unsupported = fields->validateLabels(supported, !extra.empty()))
        return *unsupported;
    selection->fields = std::move(fields).value();
    return std::shared_ptr<const Selection>(std::move(selection));
}

namespace {
model::Result<storage::Revision> parseRevision(const std::string &resourceVersion)
{
    auto revision = model::parseResourceVersion(resourceVersion);
    if (!revision)
        return model::errors::badRequest("invalid resource version: " + resourceVersion);
    return *revision;
}
} // namespace

QCoro::Task<model::Result<ListResponse>> Store::list(std::string ns, ListOptions options)
{
    auto self = shared_from_this();
    const ResourceType &type = *m_type;
    if (auto invalid = validateListOptions(options, false))
        co_return *invalid;
    auto selected = selection(ns, options);
    if (!selected)
        co_return std::move(selected).error();
    std::shared_ptr<const Selection> sel = selected.value();

    storage::ListOptions query;
    query.limit = options.limit > 0 ? options.limit : 0;
    if (!sel->selectsEverything())
        query.predicate = [sel](const model::Object &object) { return sel->matches(object); };
    bool continuing = false;
    if (!options.continueToken.empty()) {
        auto token = ContinueToken::decode(options.continueToken);
        if (!token)
            co_return std::move(token).error();
        query.revision = token->revision;
        query.startKey = sel->prefix + token->start;
        continuing = true;
    } else if (!options.resourceVersion.empty() && options.resourceVersion != "0") {
        auto revision = parseRevision(options.resourceVersion);
        if (!revision)
            co_return std::move(revision).error();
        // Exact: that revision. Not-older-than (and the legacy form): the latest, which is
        // at least as new, unless the client is ahead of us. Legacy with a limit is exact.
        const bool exact = options.resourceVersionMatch == "Exact"
            || (options.resourceVersionMatch.empty() && query.limit > 0);
        if (exact) {
            query.revision = *revision;
        } else {
            const storage::Revision current = (co_await type.storage->currentRevision()).value();
            if (*revision > current)
                co_return model::errors::tooLargeResourceVersion(*revision, current);
        }
    }

    auto listed = co_await type.storage->list(sel->prefix, query);
    if (!listed) {
        model::Status error = std::move(listed).error();
        if (continuing && error.code == 410)
            error.message = "The provided continue parameter is too old to display a consistent list result. "
                            "You can start a new list without the continue parameter.";
        co_return error;
    }
    ListResponse response;
    response.items = std::move(listed->items);
    if (type.conversion) {
        for (ObjectPtr &item : response.items)
            item = type.served(std::move(item));
    }
    response.revision = listed->revision;
    response.remainingItemCount = listed->remainingItemCount;
    if (!listed->continueKey.empty())
        response.continueToken = ContinueToken{listed->revision, listed->continueKey.substr(sel->prefix.size())}.encode();
    co_return response;
}

namespace {
ObjectPtr restamped(const ObjectPtr &object, storage::Revision revision)
{
    model::Object copy = *object;
    copy.setResourceVersion(std::to_string(revision));
    return std::make_shared<const model::Object>(std::move(copy));
}

// The storage event as the API shows it to a watcher with `selection`: a change that makes
// an object start or stop matching is an ADDED or DELETED (k8s etcd3 watcher semantics).
std::optional<WatchEvent> translate(const storage::WatchEvent &event,
                                    const std::function<bool(const model::Object &)> &matches)
{
    WatchEvent out;
    switch (event.type) {
    case storage::WatchEventType::Added:
        if (!matches(*event.object))
            return std::nullopt;
        out.type = WatchEventType::Added;
        out.object = event.object;
        return out;
    case storage::WatchEventType::Modified: {
        const bool now = matches(*event.object);
        const bool before = event.previous && matches(*event.previous);
        if (now) {
            out.type = before ? WatchEventType::Modified : WatchEventType::Added;
            out.object = event.object;
        } else if (before) {
            out.type = WatchEventType::Deleted;
            out.object = restamped(event.previous, event.revision);
        } else {
            return std::nullopt;
        }
        return out;
    }
    case storage::WatchEventType::Deleted:
        if (!matches(*event.object))
            return std::nullopt;
        out.type = WatchEventType::Deleted;
        out.object = event.object;
        return out;
    case storage::WatchEventType::Error:
        out.type = WatchEventType::Error;
        out.error = event.error;
        return out;
    }
    return std::nullopt;
}
} // namespace

QCoro::Task<model::Result<storage::WatchHandle>> Store::watch(std::string ns, ListOptions options, WatchSink sink)
{
    auto self = shared_from_this();
    const ResourceType &type = *m_type;
    if (auto invalid = validateListOptions(options, true))
        co_return *invalid;
    auto selected = selection(ns, options);
    if (!selected)
        co_return std::move(selected).error();
    std::shared_ptr<const Selection> sel = selected.value();

    const bool initialEvents = options.sendInitialEvents.value_or(false);
    storage::Revision from = 0;
    if (!options.resourceVersion.empty() && options.resourceVersion != "0") {
        auto revision = parseRevision(options.resourceVersion);
        if (!revision)
            co_return std::move(revision).error();
        from = *revision;
    }
    if (initialEvents) {
        // Watch-list: the current state (at least as new as `from`), then changes.
        const storage::Revision current = (co_await type.storage->currentRevision()).value();
        if (from > current)
            co_return model::errors::tooLargeResourceVersion(from, current);
        from = 0;
    }
    const storage::Revision snapshot = (co_await type.storage->currentRevision()).value();
    std::function<bool(const model::Object &)> matches = [sel](const model::Object &o) { return sel->matches(o); };
    std::shared_ptr<const ResourceType> served = type.conversion ? m_type : nullptr;
    storage::WatchSink translating = [matches, sink, served](const storage::WatchEvent &event) {
        auto translated = translate(event, matches);
        if (!translated)
            return;
        // A version served apart from storage converts each object, and cannot share the
        // storage version's serialized form.
        if (served) {
            translated->object = served->served(std::move(translated->object));
            sink(*translated);
            return;
        }
        // Serialized once per storage event and API event type, shared by every watcher the
        // hub fans the event out to.
        const auto slot = static_cast<std::size_t>(translated->type);
        if (event.encodings && slot < event.encodings->lines.size()) {
            auto &line = event.encodings->lines[slot];
            if (!line)
                line = std::make_shared<const std::string>(watchEventJson(*translated));
            translated->wire = line;
        }
        sink(*translated);
    };
    // The narrowest key prefix the selectors allow (as the etcd3 store watches one key for a
    // metadata.name selector): the watch hub indexes watchers by it, so a commit reaches only
    // the watchers that may select it.
    std::string watchPrefix = sel->prefix;
    const auto namespaceField = sel->fields.requiresExactMatch("metadata.namespace");
    if (ns.empty() && type.namespaced() && namespaceField && !namespaceField->empty())
        ns = *namespaceField;
    if (!ns.empty() || !type.namespaced())
        watchPrefix = type.prefix(ns);
    if (const auto name = sel->fields.requiresExactMatch("metadata.name"); name && !name->empty()
        && (!ns.empty() || !type.namespaced()))
        watchPrefix = type.key(ns, *name);
    auto handle = co_await type.storage->watch(std::move(watchPrefix), from, std::move(translating));
    if (!handle)
        co_return std::move(handle).error();
    if (initialEvents)
        sink(bookmarkEvent(type.kind, type.apiVersion(), snapshot, /*initialEventsEnd=*/true));
    co_return std::move(handle).value();
}

} // namespace rvscope::registry
