// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// What the apiserver's typed decoding does with fields a kind does not declare, and with
// repeated keys. Go decodes a body into the kind's struct: a field the struct lacks is
// dropped, at any depth, and sigs.k8s.io/json's UnmarshalStrict names it, as it names a
// key given twice (the later one wins). The request's `fieldValidation` then decides:
// Ignore says nothing, Warn (the default) sends each as a `Warning` header, Strict refuses
// the request with 400 `strict decoding error: unknown field "spec.x", duplicate field
// "data.a"`. rvscope has no Go structs; it reads the fields each built-in kind declares
// from Kubernetes 1.32's OpenAPI (resources/schemas/fields-v1.32.json, written by
// resources/schemas/generate.py); a custom resource's come from its CRD version's schema
// (fromOpenApi).
namespace rvscope::registry {

enum class FieldValidation { Ignore, Warn, Strict };

// sigs.k8s.io/json keeps at most 100 strict errors per decoding, each text once.
inline constexpr std::size_t MAX_STRICT_ERRORS = 100;

// `?fieldValidation=` as the apiserver reads it: empty means Warn; anything but the three
// names is nullopt (a 422 on the request's options).
std::optional<FieldValidation> parseFieldValidation(std::string_view value);

class KnownFields final {
public:
    // The declared fields of `kind` in `apiVersion`, or null (custom resources, kinds
    // without a table). Built once, shared by all threads.
    static const KnownFields *find(std::string_view apiVersion, std::string_view kind);
    // A custom resource's, from its version's openAPIV3Schema, as apiextensions prunes:
    // `properties` are the fields, `additionalProperties` a map, `items` a list;
    // x-kubernetes-preserve-unknown-fields keeps what a level does not declare; the root's and
    // an embedded resource's (x-kubernetes-embedded-resource) `metadata` is ObjectMeta. Null
    // for a version without a schema (nothing is pruned).
    static std::shared_ptr<const KnownFields> fromOpenApi(const nlohmann::json &openApiV3Schema);

    // Removes every field the kind does not declare, at every level, and returns their
    // paths in Go's map order, as decoding a patched object names them
    // (`spec.template.spec.containers[0].foo`; a map's keys and a list's indexes are steps):
    // the first MAX_STRICT_ERRORS of them.
    std::vector<std::string> prune(nlohmann::json &object) const;
    // What UnmarshalStrict reports for a JSON text of this kind, in document order:
    // `unknown field "<path>"` (once per field; a repeated unknown field is only unknown)
    // and `duplicate field "<path>"` for a declared field or map key given again; each text
    // once, at most MAX_STRICT_ERRORS. Inside raw values (RawExtension, JSON) nothing counts.
    // A custom resource's text is decoded as apiextensions decodes it: first every repeated
    // key (it is read into a map), then the pruned fields in Go's map order.
    std::vector<std::string> strictErrors(std::string_view text) const;

    struct Ref; // a field's type: lists and maps around a scalar, anything, or a struct
    struct Tables;

    KnownFields(const Tables *tables, int rootType, std::shared_ptr<const Tables> owned = {});

private:
    static const Tables &loadTables();
    const Tables *m_tables;
    int m_rootType;
    std::shared_ptr<const Tables> m_owned; // a custom resource's tables

};

// `duplicate field "<path>"` for each key a JSON text repeats, at any depth, in document
// order: a merge or strategic merge patch decoded strictly into a map.
std::vector<std::string> duplicateFields(std::string_view text);
// A JSON patch's operations checked as json-patch decodes them strictly: `json patch unknown
// field "[0].foo"` for a member other than op, path, from and value, `json patch duplicate
// field "[1].path"` for one given twice.
std::vector<std::string> jsonPatchFieldErrors(std::string_view text);

// The strict decoding errors of a request as one message ("strict decoding error: unknown
// field \"x\", duplicate field \"y\"").
std::string strictDecodingMessage(const std::vector<std::string> &errors);

} // namespace rvscope::registry
