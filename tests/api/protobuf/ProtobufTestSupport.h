// SPDX-License-Identifier: MIT
#pragma once

// Builders shared by the protobuf body tests: the envelope kubectl sends and a decode check.
#include <QtTest/QtTest>

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/protobuf/ProtobufBody.h"
#include "kubernetes/apps_v1.pb.h"
#include "kubernetes/batch_v1.pb.h"
#include "kubernetes/coordination_v1.pb.h"
#include "kubernetes/core_v1.pb.h"
#include "kubernetes/networking_v1.pb.h"
#include "kubernetes/policy_v1.pb.h"
#include "kubernetes/rbac_v1.pb.h"
#include "kubernetes/runtime.pb.h"
#include "kubernetes/scheduling_v1.pb.h"

using rvscope::api::decodeKubernetesProtobuf;
using rvscope::api::isKubernetesProtobuf;

namespace core = k8s::io::api::core::v1;
namespace apps = k8s::io::api::apps::v1;
namespace batch = k8s::io::api::batch::v1;
namespace coordination = k8s::io::api::coordination::v1;
namespace networking = k8s::io::api::networking::v1;
namespace policy = k8s::io::api::policy::v1;
namespace rbac = k8s::io::api::rbac::v1;
namespace scheduling = k8s::io::api::scheduling::v1;
namespace meta = k8s::io::apimachinery::pkg::apis::meta::v1;
namespace runtime = k8s::io::apimachinery::pkg::runtime;


namespace protobuf_test {

inline const std::string MAGIC("k8s\0", 4);

inline std::string envelope(const std::string &apiVersion, const std::string &kind, const std::string &raw)
{
    runtime::Unknown unknown;
    unknown.mutable_typemeta()->set_apiversion(apiVersion);
    unknown.mutable_typemeta()->set_kind(kind);
    unknown.set_raw(raw);
    unknown.set_contentencoding("");
    unknown.set_contenttype("");
    return MAGIC + unknown.SerializeAsString();
}

inline std::string envelope(const std::string &apiVersion, const std::string &kind, const google::protobuf::Message &object)
{
    return envelope(apiVersion, kind, object.SerializeAsString());
}

// The metadata kubectl sends for a new object: a name and the zero creationTimestamp (an
// empty Time message on the wire).
inline void newObjectMeta(meta::ObjectMeta *metadata, const std::string &name)
{
    metadata->set_name(name);
    metadata->mutable_creationtimestamp();
}

inline void compareDecoded(const std::string &body, const char *expectedJson)
{
    const auto decoded = decodeKubernetesProtobuf(body);
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
    const nlohmann::json expected = nlohmann::json::parse(expectedJson);
    QCOMPARE(QString::fromStdString(decoded->dump()), QString::fromStdString(expected.dump()));
}

} // namespace protobuf_test
