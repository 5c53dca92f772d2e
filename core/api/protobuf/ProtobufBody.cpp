// SPDX-License-Identifier: MIT
#include "api/protobuf/ProtobufBody.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <exception>
#include <memory>
#include <string>

#include <google/protobuf/message.h>

#include "api/protobuf/ProtobufJson.h"
#include "kubernetes/apps_v1.pb.h"
#include "kubernetes/autoscaling_v1.pb.h"
#include "kubernetes/batch_v1.pb.h"
#include "kubernetes/coordination_v1.pb.h"
#include "kubernetes/core_v1.pb.h"
#include "kubernetes/networking_v1.pb.h"
#include "kubernetes/policy_v1.pb.h"
#include "kubernetes/rbac_v1.pb.h"
#include "kubernetes/runtime.pb.h"
#include "kubernetes/scheduling_v1.pb.h"
#include "model/StatusErrors.h"

namespace rvscope::api {
namespace {

// k8s.io/apimachinery/pkg/runtime/serializer/protobuf: every body starts with these 4 bytes.
constexpr std::string_view PROTOBUF_MAGIC{"k8s\0", 4};
constexpr std::string_view DECODE_ERROR_PREFIX = "unable to decode protobuf body: ";

struct ProtobufKind final {
    std::string_view apiVersion;
    std::string_view kind;
    const google::protobuf::Message *prototype;
};

// The object kinds of kubectl 1.32's imperative `create` commands, plus Pod and Lease, which
// client-go programs send. (`create token` posts a TokenRequest to a subresource rvscope lacks.)
const auto &servedKinds()
{
    namespace apps = k8s::io::api::apps::v1;
    namespace batch = k8s::io::api::batch::v1;
    namespace coordination = k8s::io::api::coordination::v1;
    namespace core = k8s::io::api::core::v1;
    namespace networking = k8s::io::api::networking::v1;
    namespace policy = k8s::io::api::policy::v1;
    namespace rbac = k8s::io::api::rbac::v1;
    namespace scheduling = k8s::io::api::scheduling::v1;
    namespace autoscaling = k8s::io::api::autoscaling::v1;
    constexpr std::string_view RBAC = "rbac.authorization.k8s.io/v1";
    static const auto kinds = std::to_array<ProtobufKind>({
        {"v1", "ConfigMap", &core::ConfigMap::default_instance()},
        {"v1", "Secret", &core::Secret::default_instance()},
        {"v1", "Namespace", &core::Namespace::default_instance()},
        {"v1", "Pod", &core::Pod::default_instance()},
        {"v1", "Service", &core::Service::default_instance()},
        {"v1", "ServiceAccount", &core::ServiceAccount::default_instance()},
        {"v1", "ResourceQuota", &core::ResourceQuota::default_instance()},
        {"apps/v1", "Deployment", &apps::Deployment::default_instance()},
        {"autoscaling/v1", "HorizontalPodAutoscaler", &autoscaling::HorizontalPodAutoscaler::default_instance()},
        {"batch/v1", "Job", &batch::Job::default_instance()},
        {"batch/v1", "CronJob", &batch::CronJob::default_instance()},
        {"coordination.k8s.io/v1", "Lease", &coordination::Lease::default_instance()},
        {"networking.k8s.io/v1", "Ingress", &networking::Ingress::default_instance()},
        {"policy/v1", "PodDisruptionBudget", &policy::PodDisruptionBudget::default_instance()},
        {RBAC, "Role", &rbac::Role::default_instance()},
        {RBAC, "ClusterRole", &rbac::ClusterRole::default_instance()},
        {RBAC, "RoleBinding", &rbac::RoleBinding::default_instance()},
        {RBAC, "ClusterRoleBinding", &rbac::ClusterRoleBinding::default_instance()},
        {"scheduling.k8s.io/v1", "PriorityClass", &scheduling::PriorityClass::default_instance()},
    });
    return kinds;
}

model::Status decodeError(std::string_view detail)
{
    std::string message(DECODE_ERROR_PREFIX);
    message += detail;
    return model::errors::badRequest(std::move(message));
}

bool parse(google::protobuf::Message &message, std::string_view bytes)
{
    return bytes.size() <= static_cast<std::size_t>(INT_MAX)
        && message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

model::Result<nlohmann::json> decode(std::string_view body)
{
    if (body.empty())
        return decodeError("empty data");
    // The texts of the apiserver's protobuf serializer.
    if (body.substr(0, PROTOBUF_MAGIC.size()) != PROTOBUF_MAGIC)
        return decodeError("provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    if (body.size() == PROTOBUF_MAGIC.size())
        return decodeError("empty body");

    k8s::io::apimachinery::pkg::runtime::Unknown envelope;
    if (!parse(envelope, body.substr(PROTOBUF_MAGIC.size())))
        return decodeError("malformed runtime.Unknown envelope");
    // Wire text is not necessarily UTF-8; the Status message must be.
    const std::string apiVersion = validUtf8(envelope.typemeta().apiversion());
    const std::string kind = validUtf8(envelope.typemeta().kind());
    if (kind.empty())
        return decodeError("Object 'Kind' is missing in the envelope's typeMeta");
    if (apiVersion.empty())
        return decodeError("Object 'apiVersion' is missing in the envelope's typeMeta");

    const auto &kinds = servedKinds();
    const auto served = std::find_if(kinds.begin(), kinds.end(), [&](const ProtobufKind &candidate) {
        return candidate.apiVersion == apiVersion && candidate.kind == kind;
    });
    if (served == kinds.end())
        return decodeError("no kind \"" + kind + "\" is registered for version \"" + apiVersion + '"');

    const std::unique_ptr<google::protobuf::Message> object(served->prototype->New());
    if (!parse(*object, envelope.raw()))
        return decodeError("malformed " + kind + " (" + apiVersion + ") in the envelope");
    model::Result<nlohmann::json> fields = kubernetesJsonFromProtobuf(*object);
    if (!fields)
        return decodeError(fields.error().message);

    nlohmann::json json = std::move(fields).value();
    json["kind"] = kind;
    json["apiVersion"] = apiVersion;
    return json;
}

} // namespace

bool isKubernetesProtobuf(std::string_view contentType)
{
    std::string_view mediaType = contentType.substr(0, contentType.find(';'));
    const auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
    while (!mediaType.empty() && isSpace(mediaType.front()))
        mediaType.remove_prefix(1);
    while (!mediaType.empty() && isSpace(mediaType.back()))
        mediaType.remove_suffix(1);
    const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
    return std::equal(mediaType.begin(), mediaType.end(), KUBERNETES_PROTOBUF_CONTENT_TYPE.begin(),
                      KUBERNETES_PROTOBUF_CONTENT_TYPE.end(), [&](char a, char b) { return lower(a) == lower(b); });
}

model::Result<nlohmann::json> decodeKubernetesProtobuf(std::string_view body)
{
    // Protobuf and nlohmann::json report errors by return value here; only allocation can
    // throw, and no exception may leave the core.
    try {
        return decode(body);
    } catch (const std::exception &error) {
        return model::Status::internalError(std::string("decoding a protobuf body failed: ") + error.what());
    }
}

} // namespace rvscope::api
