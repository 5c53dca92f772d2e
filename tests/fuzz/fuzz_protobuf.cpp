// SPDX-License-Identifier: MIT
// libFuzzer target: Kubernetes protobuf request bodies (application/vnd.kubernetes.protobuf,
// what kubectl's imperative `create` commands send), decoded by api::decodeKubernetesProtobuf.
// Two input forms, so that mutations reach both the envelope and the objects inside it:
// - an input starting with 'k' is the body exactly as sent ("k8s\0" magic, a runtime.Unknown
//   envelope with typeMeta and raw);
// - any other first byte picks one of the served kinds and the rest is the object's raw
//   protobuf message, which the target wraps in the envelope kubectl would send.
// A decode must give either a 400 Status with the decoder's message prefix or a JSON object
// that carries the kind and apiVersion of the envelope and serializes (model::dumpJson, as
// the response path writes it); the object then passes the checks decodeBody and the Store
// run first (registry::checkDecodable). A crash, a sanitizer report, an exception, an
// allocation beyond libFuzzer's limit or a result breaking these rules is a finding.
#include <cstdlib>
#include <string>

#include "FuzzSupport.h"
#include "api/protobuf/ProtobufBody.h"
#include "model/Object.h"
#include "model/JsonWrite.h"
#include "registry/validation/ObjectDecoding.h"

using namespace rvscope;

namespace {

struct Kind {
    const char *apiVersion;
    const char *kind;
};

// The kinds ProtobufBody.h serves, plus one it does not (the 400 "no kind registered" path).
constexpr Kind KINDS[] = {
    {"v1", "ConfigMap"},
    {"v1", "Secret"},
    {"v1", "Namespace"},
    {"v1", "Pod"},
    {"v1", "Service"},
    {"v1", "ServiceAccount"},
    {"v1", "ResourceQuota"},
    {"apps/v1", "Deployment"},
    {"autoscaling/v1", "HorizontalPodAutoscaler"},
    {"batch/v1", "Job"},
    {"batch/v1", "CronJob"},
    {"coordination.k8s.io/v1", "Lease"},
    {"networking.k8s.io/v1", "Ingress"},
    {"policy/v1", "PodDisruptionBudget"},
    {"rbac.authorization.k8s.io/v1", "Role"},
    {"rbac.authorization.k8s.io/v1", "ClusterRole"},
    {"rbac.authorization.k8s.io/v1", "RoleBinding"},
    {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding"},
    {"scheduling.k8s.io/v1", "PriorityClass"},
    {"v1", "Node"},
};
constexpr std::size_t KIND_COUNT = sizeof(KINDS) / sizeof(KINDS[0]);

void appendVarint(std::string &out, std::uint64_t value)
{
    while (value >= 0x80) {
        out += char((value & 0x7f) | 0x80);
        value >>= 7;
    }
    out += char(value);
}

// A length-delimited field (wire type 2).
void appendField(std::string &out, int number, std::string_view bytes)
{
    appendVarint(out, std::uint64_t(number) << 3 | 2);
    appendVarint(out, bytes.size());
    out += bytes;
}

// "k8s\0" + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""},
// field by field as Go's generated marshaller writes it.
std::string envelope(const Kind &kind, std::string_view raw)
{
    std::string typeMeta;
    appendField(typeMeta, 1, kind.apiVersion);
    appendField(typeMeta, 2, kind.kind);
    std::string body("k8s\0", 4);
    appendField(body, 1, typeMeta);
    appendField(body, 2, raw);
    appendField(body, 3, "");
    appendField(body, 4, "");
    return body;
}

std::string stringMember(const nlohmann::json &object, const char *name)
{
    auto it = object.find(name);
    if (it == object.end() || !it->is_string())
        std::abort(); // a decoded object without its typeMeta
    return it->get<std::string>();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    std::string body;
    if (data[0] == 'k')
        body.assign(reinterpret_cast<const char *>(data), size);
    else
        body = envelope(KINDS[data[0] % KIND_COUNT], fuzz::textOf(data + 1, size - 1));

    if (!api::isKubernetesProtobuf("application/vnd.kubernetes.protobuf"))
        std::abort();
    model::Result<nlohmann::json> decoded = api::decodeKubernetesProtobuf(body);
    if (!decoded) {
        const model::Status &status = decoded.error();
        if (status.code != 400 || status.message.rfind("unable to decode protobuf body: ", 0) != 0)
            std::abort();
        return 0;
    }
    const nlohmann::json &json = *decoded;
    if (!json.is_object())
        std::abort();
    const std::string kind = stringMember(json, "kind");
    const std::string apiVersion = stringMember(json, "apiVersion");
    if (data[0] != 'k') {
        const Kind &sent = KINDS[data[0] % KIND_COUNT];
        if (kind != sent.kind || apiVersion != sent.apiVersion)
            std::abort(); // the object decoded as another kind than its envelope names
    }
    (void)model::dumpJson(json); // throws (a finding) on text nlohmann cannot write
    model::Object object(json);
    if (auto undecodable = registry::checkDecodable(object, kind, apiVersion); undecodable && undecodable->code != 400)
        std::abort();
    (void)object.bytes();
    return 0;
}
