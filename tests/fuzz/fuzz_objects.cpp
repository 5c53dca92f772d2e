// SPDX-License-Identifier: MIT
// libFuzzer target: object decoding and validation of every type the registry serves, below
// the HTTP layer. The input's first line names the type as "<apiVersion>/<resource>"
// ("v1/configmaps", "apps/v1/deployments"), with "/status" appended to update through the
// status subresource; a first line that names no served type picks one by its first byte
// (modulo the built-in types, in Registry::types() order), so every mutation still tests
// something. The rest is a JSON body, or two separated by a line "---": the object to create
// and the object to update it to (without one, the same body again).
// Each body is decoded as the API layer decodes it (api::decodeBody: JSON, kind/apiVersion
// checks), then run through Store::create with dryRun (checkDecodable, the type's
// prepareForCreate and validate, managedFields), then created for real (an object of that
// name that an earlier input stored stays and is the one updated) and updated with the
// second body, renamed to it, as a PUT with dryRun (prepareForUpdate, generation,
// validateUpdate, managedFields). Every answer must be a 4xx Status or an object
// that serializes; a crash, a sanitizer report, an exception or a 5xx (or any non-error
// code on a refusal) is a finding. The registry (over MemoryStorage) is rebuilt every few
// hundred inputs so that what the real creates leave stays bounded.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "FuzzSupport.h"
#include "api/ApiTypes.h"
#include "api/Responses.h"
#include "registry/Store.h"
#include "registry/UpdatedObjectInfo.h"

using namespace rvscope;

namespace {

constexpr int INPUTS_PER_REGISTRY = 500;
constexpr std::size_t MAX_BODY_BYTES = 3 * 1024 * 1024;

struct Fixture {
    std::shared_ptr<storage::MemoryStorage> storage;
    std::shared_ptr<registry::Registry> registry;
    int served = 0;
};

Fixture &fixture()
{
    static Fixture current;
    if (!current.registry || ++current.served >= INPUTS_PER_REGISTRY) {
        fuzz::ensureApplication();
        current.registry.reset(); // before its storage
        current.storage = std::make_shared<storage::MemoryStorage>();
        current.registry = std::make_shared<registry::Registry>(current.storage);
        if (!QCoro::waitFor(current.registry->bootstrap()))
            std::abort();
        current.served = 0;
    }
    return current;
}

// The built-in types, fixed once: the custom resources that created CRDs add later do not
// shift the input's meaning.
const std::vector<model::GroupVersionResource> &servedTypes()
{
    static const std::vector<model::GroupVersionResource> types = [] {
        std::vector<model::GroupVersionResource> gvrs;
        for (const auto &type : fixture().registry->types())
            gvrs.push_back(type->gvr);
        return gvrs;
    }();
    return types;
}

[[noreturn]] void finding(const char *what, const model::Status &status)
{
    std::fprintf(stderr, "%s: %d %s\n", what, status.code, status.message.c_str());
    std::abort();
}

// An error a client caused: 4xx, never a 5xx or a non-error code.
void expectClientError(const char *what, const model::Status &status)
{
    if (status.code < 400 || status.code > 499)
        finding(what, status);
}

model::Result<model::Object> decode(std::string_view body, const registry::ResourceType &type)
{
    api::ApiRequest request;
    request.method = "POST";
    request.headers["content-type"] = "application/json";
    request.body = std::string(body);
    // Strict: a body with unknown or repeated fields is a 400 (checked as any client error);
    // then Warn, the default, drops them and decodes what is left.
    std::vector<std::string> warnings;
    const registry::KnownFields *known = type.custom ? type.customFields.get()
                                                     : registry::KnownFields::find(type.apiVersion(), type.kind);
    auto strict = api::decodeBody(request, type.kind, type.apiVersion(), MAX_BODY_BYTES, known,
                                  registry::FieldValidation::Strict, warnings);
    if (!strict)
        expectClientError("strict decoding", strict.error());
    auto decoded = api::decodeBody(request, type.kind, type.apiVersion(), MAX_BODY_BYTES, known,
                                   registry::FieldValidation::Warn, warnings);
    if (strict && (!decoded || !warnings.empty()))
        std::abort(); // Strict took what Warn refuses or warns about
    return decoded;
}

void checkServed(const model::ObjectPtr &object)
{
    if (!object || !object->json().is_object())
        std::abort();
    (void)object->bytes();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    std::string_view input = fuzz::textOf(data, size);
    const std::size_t newline = input.find('\n');
    std::string_view line = input.substr(0, newline);
    input = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
    bool status = line.size() > 7 && line.substr(line.size() - 7) == "/status";
    if (status)
        line.remove_suffix(7);
    const std::vector<model::GroupVersionResource> &types = servedTypes();
    auto named = std::find_if(types.begin(), types.end(), [line](const model::GroupVersionResource &gvr) {
        return gvr.apiVersion() + '/' + gvr.resource == line;
    });
    if (named == types.end())
        status = false;
    Fixture &current = fixture();
    auto entry = current.registry->find(named != types.end() ? *named : types[data[0] % types.size()]);
    if (!entry)
        std::abort();
    const registry::ResourceType &type = *entry->type;
    const std::string ns = type.namespaced() ? "default" : "";

    std::string_view createBody = input;
    std::string_view updateBody = createBody;
    if (const std::size_t split = createBody.find("\n---\n"); split != std::string_view::npos) {
        updateBody = createBody.substr(split + 5);
        createBody = createBody.substr(0, split);
    }

    // POST, as the client sent it (dry run: nothing stored).
    auto object = decode(createBody, type);
    if (!object) {
        expectClientError("decode", object.error());
        return 0;
    }
    registry::WriteOptions write;
    write.manager = "fuzzer";
    registry::WriteOptions dryRun;
    dryRun.dryRun = true;
    dryRun.manager = "fuzzer";
    auto checked = QCoro::waitFor(entry->store->create(ns, *object, dryRun));
    if (!checked) {
        expectClientError("dry-run create", checked.error());
        return 0;
    }
    checkServed(*checked);

    // The same object stored (or, when an earlier input stored one of that name, that one),
    // then a PUT of the second body to it.
    const std::string bodyName = object->name();
    auto stored = QCoro::waitFor(entry->store->create(ns, std::move(object).value(), write));
    std::string name = bodyName;
    if (stored) {
        checkServed(*stored);
        name = (*stored)->name(); // generateName
    } else if (stored.error().code != 409 || bodyName.empty()) {
        expectClientError("create", stored.error());
        return 0;
    }
    auto update = decode(updateBody, type);
    if (!update) {
        expectClientError("decode update", update.error());
        return 0;
    }
    update->setName(name);
    const std::shared_ptr<registry::Store> &store = status && entry->status ? entry->status : entry->store;
    dryRun.manager = "fuzzer-update";
    auto updated = QCoro::waitFor(
        store->update(ns, name, std::make_shared<registry::PutObjectInfo>(std::move(update).value()), dryRun));
    if (!updated) {
        expectClientError("update", updated.error());
        return 0;
    }
    checkServed(updated->object);
    return 0;
}
