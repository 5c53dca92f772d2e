// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/Result.h"

namespace rvscope::model {

// A Kubernetes object: its JSON tree plus, cached beside it, its compact serialization.
// JSON parsing and serialization dominate every request, so storage publishes objects with
// their bytes already computed and readers serve those bytes instead of re-encoding. An
// object may also hold only bytes (fromTrustedBytes): its tree is parsed on first use, which
// lets old versions kept for history cost their bytes and nothing more. The metadata
// accessors of a bytes-only object parse only what they read and keep nothing. The tree
// holds each metadata.managedFields[*].fieldsV1 as a raw node (model/JsonWrite.h).
//
// Accessors read `metadata.*` and return empty values when a field is absent. Any mutation
// (a setter or mutableJson()) drops the cached bytes. A copy takes the tree and not the
// bytes (copies are made to be changed). An Object shared through ObjectPtr is immutable;
// its bytes() may be read from any thread once computed, its json() only on the core thread.
class Object final {
public:
    Object();
    explicit Object(nlohmann::json json);
    Object(const Object &other);
    Object &operator=(const Object &other);
    Object(Object &&) noexcept = default;
    Object &operator=(Object &&) noexcept = default;
    ~Object() = default;

    // An object known only by its encoding, which rvscope itself produced (so it parses).
    static Object fromTrustedBytes(std::string bytes);

    // Parses one JSON object; a syntax error or a non-object is a 400 BadRequest Status.
    static Result<Object> parse(std::string_view bytes);

    const nlohmann::json &json() const;
    // False for a bytes-only object whose tree was not needed yet.
    bool holdsTree() const { return m_jsonValid; }
    nlohmann::json &mutableJson();
    // Compact JSON, computed on first use and kept until the next mutation.
    const std::string &bytes() const;

    std::string kind() const;
    std::string apiVersion() const;

    std::string name() const;
    std::string generateName() const;
    std::string namespaceName() const;
    std::string uid() const;
    std::string resourceVersion() const;
    std::optional<std::int64_t> generation() const;
    std::string creationTimestamp() const;
    std::string deletionTimestamp() const;
    std::map<std::string, std::string> labels() const;
    std::map<std::string, std::string> annotations() const;
    std::vector<std::string> finalizers() const;

    void setName(const std::string &name);
    void setNamespace(const std::string &ns);
    void setUid(const std::string &uid);
    void setResourceVersion(const std::string &resourceVersion);
    void setGeneration(std::optional<std::int64_t> generation);
    void setCreationTimestamp(const std::string &timestamp);
    void setDeletionTimestamp(const std::string &timestamp);
    void setLabels(const std::map<std::string, std::string> &labels);
    void setAnnotations(const std::map<std::string, std::string> &annotations);
    void setFinalizers(const std::vector<std::string> &finalizers);

private:
    // Read without parsing a bytes-only object's whole tree (see topLevelMembers).
    std::string topLevelString(const char *field) const;
    const nlohmann::json *metadataField(const char *field, nlohmann::json &scratch) const;
    std::string metadataString(const char *field) const;
    std::map<std::string, std::string> metadataMap(const char *field) const;
    nlohmann::json &metadata();
    void setMetadataString(const char *field, const std::string &value);

    mutable nlohmann::json m_json;
    mutable std::string m_bytes;
    mutable bool m_jsonValid = true;
    mutable bool m_bytesValid = false;
};

using ObjectPtr = std::shared_ptr<const Object>;

// A resourceVersion is an opaque string to clients; inside rvscope it is a storage revision
// in decimal. Returns nullopt for anything that is not a non-negative decimal integer.
std::optional<std::int64_t> parseResourceVersion(std::string_view resourceVersion);

} // namespace rvscope::model
