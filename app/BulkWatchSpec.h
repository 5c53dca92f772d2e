// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <QtCore/QString>

namespace rvscope::app {

// One --watch of `rvscope client bulk-watch`:
//   RESOURCE[.GROUP][/NAMESPACE[/NAME]][?labelSelector=...&fieldSelector=...&resourceVersion=...]
// RESOURCE is the plural (`secrets`). GROUP may start with a version (`deployments.v1.apps`,
// `pods.v1` for the core group); else the version is the core group's `v1` or, for another
// group, the server's preferred version (resolved by the client through discovery). An
// empty NAMESPACE (`nodes//n1`) means every namespace, or a cluster-scoped type. NAME
// becomes a `metadata.name=NAME` field selector term. Option values may be
// percent-encoded (`%26` for `&`).
struct BulkWatchSpec final {
    QString text;          // as the user typed it, for messages
    QString resource;      // plural
    QString group;         // "" for the core group
    QString version;       // "" until resolved
    QString namespaceName; // "" = every namespace
    QString name;          // "" = every object of the selection
    QString labelSelector;
    QString fieldSelector; // as given, without the term NAME adds
    QString resourceVersion;

    // "secrets", "deployments.apps": how output lines name the channel's type.
    QString resourceLabel() const;
    // The field selector sent: NAME's metadata.name term, then the given one.
    QString effectiveFieldSelector() const;
    // {"id":<id>,"watch":{"selector":{"resource":{...},"options":{...}}}}; needs `version`.
    std::string watchRequestFrame(std::int64_t id) const;
};

// Parses a SPEC; nullopt with `error` set (one line naming the SPEC) when it is malformed.
std::optional<BulkWatchSpec> parseBulkWatchSpec(const QString &text, QString &error);

} // namespace rvscope::app
