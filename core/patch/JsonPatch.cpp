// SPDX-License-Identifier: MIT
#include "patch/JsonPatch.h"

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "model/StatusErrors.h"
#include "patch/JsonPointer.h"
#include "patch/PatchErrors.h"

namespace rvscope::patch {
namespace {

using nlohmann::json;

enum class OpKind { Add, Remove, Replace, Move, Copy, Test };

struct Operation final {
    OpKind kind = OpKind::Add;
    std::vector<std::string> path;
    std::vector<std::string> from;
    const json *value = nullptr; // points into the patch document, which outlives the apply
};

std::optional<OpKind> opKindFromName(const std::string &name)
{
    if (name == "add")
        return OpKind::Add;
    if (name == "remove")
        return OpKind::Remove;
    if (name == "replace")
        return OpKind::Replace;
    if (name == "move")
        return OpKind::Move;
    if (name == "copy")
        return OpKind::Copy;
    if (name == "test")
        return OpKind::Test;
    return std::nullopt;
}

std::string invalidOperation(std::size_t index, const std::string &what)
{
    return "invalid JSON patch operation at index " + std::to_string(index) + ": " + what;
}

// Reads a pointer member; an error message when it is missing or malformed.
std::optional<std::string> readPointer(const json &op, const char *member, std::size_t index,
                                       std::vector<std::string> &tokens)
{
    auto it = op.find(member);
    if (it == op.end() || !it->is_string())
        return invalidOperation(index, std::string("missing \"") + member + "\" string");
    std::optional<std::vector<std::string>> parsed = parseJsonPointer(it->get_ref<const std::string &>());
    if (!parsed)
        return invalidOperation(index, std::string("\"") + member
                                           + "\" is not a valid JSON pointer: " + describeJson(*it));
    tokens = std::move(*parsed);
    return std::nullopt;
}

model::Result<std::vector<Operation>> decodePatch(const json &patch)
{
    if (!patch.is_array())
        return model::errors::badRequest(std::string("json: cannot unmarshal ")
                                         + goJsonTypeName(patch)
                                         + " into Go value of type jsonpatch.Patch");
    for (const json &op : patch) {
        if (!op.is_object())
            return model::errors::badRequest(std::string("json: cannot unmarshal ")
                                             + goJsonTypeName(op)
                                             + " into Go value of type jsonpatch.Operation");
    }
    if (patch.size() > MAX_JSON_PATCH_OPERATIONS)
        // errors.NewRequestEntityTooLargeError prefixes its message; StatusErrors does not.
        return model::errors::requestEntityTooLarge(
            "Request entity too large: The allowed maximum operations in a JSON patch is "
            + std::to_string(MAX_JSON_PATCH_OPERATIONS) + ", got " + std::to_string(patch.size()));

    std::vector<Operation> operations;
    operations.reserve(patch.size());
    for (std::size_t i = 0; i < patch.size(); ++i) {
        const json &op = patch[i];
        Operation operation;
        auto name = op.find("op");
        if (name == op.end() || !name->is_string())
            return model::errors::badRequest(invalidOperation(i, "missing \"op\" string"));
        std::optional<OpKind> kind = opKindFromName(name->get_ref<const std::string &>());
        if (!kind)
            return model::errors::badRequest(invalidOperation(i, "unknown op " + describeJson(*name)));
        operation.kind = *kind;
        if (auto error = readPointer(op, "path", i, operation.path))
            return model::errors::badRequest(*error);
        if (operation.kind == OpKind::Move || operation.kind == OpKind::Copy) {
            if (auto error = readPointer(op, "from", i, operation.from))
                return model::errors::badRequest(*error);
        }
        if (operation.kind == OpKind::Add || operation.kind == OpKind::Replace
            || operation.kind == OpKind::Test) {
            auto value = op.find("value");
            if (value == op.end())
                return model::errors::badRequest(invalidOperation(i, "missing \"value\""));
            operation.value = &*value;
        }
        operations.push_back(std::move(operation));
    }
    return operations;
}

bool addValue(json &document, const std::vector<std::string> &path, json value)
{
    if (path.empty()) {
        document = std::move(value);
        return true;
    }
    json *parent = resolveJsonPointer(document, path, path.size() - 1);
    if (!parent)
        return false;
    const std::string &last = path.back();
    if (parent->is_object()) {
        (*parent)[last] = std::move(value);
        return true;
    }
    if (!parent->is_array())
        return false;
    if (last == "-") {
        parent->push_back(std::move(value));
        return true;
    }
    const std::optional<std::size_t> index = parseArrayIndex(last);
    if (!index || *index > parent->size())
        return false;
    parent->insert(parent->begin() + static_cast<std::ptrdiff_t>(*index), std::move(value));
    return true;
}

bool removeValue(json &document, const std::vector<std::string> &path)
{
    if (path.empty())
        return false;
    json *parent = resolveJsonPointer(document, path, path.size() - 1);
    if (!parent)
        return false;
    if (parent->is_object())
        return parent->erase(path.back()) == 1;
    if (!parent->is_array())
        return false;
    const std::optional<std::size_t> index = parseArrayIndex(path.back());
    if (!index || *index >= parent->size())
        return false;
    parent->erase(parent->begin() + static_cast<std::ptrdiff_t>(*index));
    return true;
}

bool isProperPrefix(const std::vector<std::string> &prefix, const std::vector<std::string> &path)
{
    if (prefix.size() >= path.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (prefix[i] != path[i])
            return false;
    }
    return true;
}

// What `copy` operations may add in all, as the apiserver sets json-patch's
// AccumulatedCopySizeLimit (its request size limit): a few copies of a copy would otherwise
// double the document each time.
constexpr std::size_t MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

bool applyOperation(json &document, const Operation &op, std::size_t &copiedBytes)
{
    switch (op.kind) {
    case OpKind::Add:
        return addValue(document, op.path, *op.value);
    case OpKind::Remove:
        return removeValue(document, op.path);
    case OpKind::Replace: {
        json *target = resolveJsonPointer(document, op.path, op.path.size());
        if (!target)
            return false;
        *target = *op.value;
        return true;
    }
    case OpKind::Move: {
        const json *source = resolveJsonPointer(document, op.from, op.from.size());
        if (!source || isProperPrefix(op.from, op.path))
            return false;
        if (op.from == op.path)
            return true;
        json value = *source;
        return removeValue(document, op.from) && addValue(document, op.path, std::move(value));
    }
    case OpKind::Copy: {
        const json *source = resolveJsonPointer(document, op.from, op.from.size());
        if (!source)
            return false;
        copiedBytes += describeJson(*source).size();
        return copiedBytes <= MAX_ACCUMULATED_COPY_BYTES && addValue(document, op.path, *source);
    }
    case OpKind::Test: {
        const json *target = resolveJsonPointer(document, op.path, op.path.size());
        return target && *target == *op.value;
    }
    }
    return false;
}

} // namespace

model::Result<json> applyJsonPatch(const json &document, const json &patch)
{
    try {
        model::Result<std::vector<Operation>> operations = decodePatch(patch);
        if (!operations)
            return std::move(operations).error();
        json patched = document;
        std::size_t copiedBytes = 0;
        for (const Operation &op : *operations) {
            if (!applyOperation(patched, op, copiedBytes))
                return unprocessablePatch();
        }
        return patched;
    } catch (const std::exception &e) {
        return model::Status::internalError(std::string("applying a JSON patch failed: ") + e.what());
    }
}

} // namespace rvscope::patch
