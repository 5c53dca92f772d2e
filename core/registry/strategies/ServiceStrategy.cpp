// SPDX-License-Identifier: MIT
#include "registry/strategies/ServiceStrategy.h"

#include <arpa/inet.h>

#include <set>

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
using Causes = std::vector<model::StatusCause>;
using model::member;
using model::memberAt;

std::uint32_t fnv1a(std::string_view text)
{
    std::uint32_t hash = 2166136261u;
    for (char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    return hash;
}

// A stand-in for the ClusterIP allocator: 10.96.0.0/12 minus the network address and the
// addresses by convention taken by the kubernetes (.1) and kube-dns (.10) services.
std::string clusterIPFor(const std::string &seed)
{
    constexpr std::uint32_t RANGE = 1u << 20;
    std::uint32_t offset = 11 + fnv1a(seed) % (RANGE - 12);
    const std::uint32_t address = (10u << 24) | (96u << 16) | offset;
    return std::to_string(address >> 24) + '.' + std::to_string((address >> 16) & 255) + '.'
        + std::to_string((address >> 8) & 255) + '.' + std::to_string(address & 255);
}

bool isValidIP(const std::string &text)
{
    unsigned char buffer[16];
    return inet_pton(AF_INET, text.c_str(), buffer) == 1 || inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

std::string serviceType(const nlohmann::json &spec)
{
    return model::stringOr(member(spec, "type"));
}

bool needsNodePorts(const nlohmann::json &spec)
{
    const std::string type = serviceType(spec);
    return type == "NodePort" || type == "LoadBalancer";
}

bool isHeadless(const nlohmann::json &spec)
{
    return model::stringOr(member(spec, "clusterIP")) == "None";
}

void checkPort(const nlohmann::json &value, const std::string &path, Causes &causes)
{
    const auto port = jsonedit::integer(value);
    if (!port)
        causes.push_back(typeInvalidField(path, value, "an integer"));
    else if (*port < 1 || *port > 65535)
        causes.push_back(invalidFieldInt(path, *port, "must be between 1 and 65535, inclusive"));
}

// core.ServicePort as %#v prints it in the Duplicate error of a repeated protocol/port pair.
std::string goServicePortKey(const nlohmann::json &port)
{
    return "core.ServicePort{Name:\"\", Protocol:" + goQuote(model::stringOr(member(port, "protocol")))
        + ", AppProtocol:(*string)(nil), Port:" + std::to_string(jsonedit::integer(member(port, "port")).value_or(0))
        + ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}";
}

void validatePorts(const nlohmann::json &spec, Causes &causes)
{
    const nlohmann::json &ports = member(spec, "ports");
    if (!ports.is_null() && !ports.is_array()) {
        causes.push_back(typeInvalidField("spec.ports", ports, "an array"));
        return;
    }
    if (ports.empty() && !isHeadless(spec) && serviceType(spec) != "ExternalName")
        causes.push_back(requiredField("spec.ports"));
    std::set<std::string> names;
    std::set<std::pair<std::string, std::int64_t>> keys;
    for (std::size_t i = 0; i < ports.size(); ++i) {
        const nlohmann::json &port = ports[i];
        const std::string path = "spec.ports[" + std::to_string(i) + ']';
        const std::string name = model::stringOr(member(port, "name"));
        if (ports.size() > 1 && name.empty()) {
            causes.push_back(requiredField(path + ".name"));
        } else if (!name.empty()) {
            for (const std::string &error : isDns1123Label(name))
                causes.push_back(invalidField(path + ".name", name, error));
            if (!names.insert(name).second)
                causes.push_back(duplicateField(path + ".name", goQuote(name)));
        }
        checkPort(member(port, "port"), path + ".port", causes);
        const std::string protocol = model::stringOr(member(port, "protocol"));
        if (protocol.empty())
            causes.push_back(requiredField(path + ".protocol"));
        else if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP")
            causes.push_back(notSupportedField(path + ".protocol", goQuote(protocol), {"SCTP", "TCP", "UDP"}));
        const nlohmann::json &targetPort = member(port, "targetPort");
        if (targetPort.is_number())
            checkPort(targetPort, path + ".targetPort", causes);
        const nlohmann::json &nodePort = member(port, "nodePort");
        if (!nodePort.is_null() && nodePort != 0) {
            if (serviceType(spec) == "ClusterIP")
                causes.push_back(forbiddenField(path + ".nodePort", "may not be used when `type` is 'ClusterIP'"));
            else
                checkPort(nodePort, path + ".nodePort", causes);
        }
        if (!keys.emplace(protocol, jsonedit::integer(member(port, "port")).value_or(0)).second)
            causes.push_back(duplicateField(path, goServicePortKey(port)));
    }
}
} // namespace

void ServiceStrategy::applyDefaults(model::Object &object)
{
    nlohmann::json *spec = jsonedit::childObject(object.mutableJson(), "spec");
    if (!spec)
        return;
    jsonedit::setDefaultString(*spec, "sessionAffinity", "None");
    if (member(*spec, "sessionAffinity") == "None")
        spec->erase("sessionAffinityConfig");
    else if (member(*spec, "sessionAffinity") == "ClientIP"
             && memberAt(*spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds").is_null())
        (*spec)["sessionAffinityConfig"] = {{"clientIP", {{"timeoutSeconds", 10800}}}};
    jsonedit::setDefaultString(*spec, "type", "ClusterIP");
    if (nlohmann::json *ports = jsonedit::childArray(*spec, "ports")) {
        for (nlohmann::json &port : *ports) {
            if (!port.is_object())
                continue;
            jsonedit::setDefaultString(port, "protocol", "TCP");
            const nlohmann::json &target = member(port, "targetPort");
            if ((target.is_null() || target == 0 || target == "") && port.contains("port"))
                port["targetPort"] = port["port"];
        }
    }
    const std::string type = serviceType(*spec);
    if (needsNodePorts(*spec) || (type == "ClusterIP" && !member(*spec, "externalIPs").empty()))
        jsonedit::setDefaultString(*spec, "externalTrafficPolicy", "Cluster");
    if (type == "ClusterIP" || needsNodePorts(*spec))
        jsonedit::setDefault(*spec, "internalTrafficPolicy", "Cluster");
    if (type == "LoadBalancer")
        jsonedit::setDefault(*spec, "allocateLoadBalancerNodePorts", true);
    // The v1 conversion keeps clusterIPs[0] and clusterIP together.
    const std::string clusterIP = model::stringOr(member(*spec, "clusterIP"));
    if (!clusterIP.empty() && member(*spec, "clusterIPs").empty())
        (*spec)["clusterIPs"] = nlohmann::json::array({clusterIP});
}

void ServiceStrategy::prepareForCreate(model::Object &object) const
{
    applyDefaults(object);
    nlohmann::json &json = object.mutableJson();
    json["status"] = {{"loadBalancer", nlohmann::json::object()}};
    nlohmann::json *spec = jsonedit::childObject(json, "spec");
    if (!spec || serviceType(*spec) == "ExternalName")
        return;
    const std::string seed = object.uid().empty() ? object.namespaceName() + '/' + object.name() : object.uid();
    if (model::stringOr(member(*spec, "clusterIP")).empty()) {
        const std::string ip = clusterIPFor(seed);
        (*spec)["clusterIP"] = ip;
        (*spec)["clusterIPs"] = nlohmann::json::array({ip});
    }
    jsonedit::setDefault(*spec, "ipFamilies", nlohmann::json::array({"IPv4"}));
    jsonedit::setDefault(*spec, "ipFamilyPolicy", "SingleStack");
    nlohmann::json *ports = jsonedit::childArray(*spec, "ports");
    if (!needsNodePorts(*spec) || !ports)
        return;
    for (std::size_t i = 0; i < ports->size(); ++i) {
        nlohmann::json &port = (*ports)[i];
        const nlohmann::json &nodePort = member(port, "nodePort");
        if (port.is_object() && (nodePort.is_null() || nodePort == 0))
            port["nodePort"] = 30000 + fnv1a(seed + '#' + std::to_string(i)) % 2768;
    }
}

void ServiceStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    applyDefaults(object);
    keepField(object, old, "status");
    nlohmann::json *spec = jsonedit::childObject(object.mutableJson(), "spec");
    const nlohmann::json &oldSpec = member(old.json(), "spec");
    if (!spec)
        return;
    // patchAllocatedValues: a client that leaves allocated values out keeps them.
    const bool needsIP = serviceType(*spec) != "ExternalName" && serviceType(oldSpec) != "ExternalName";
    if (needsIP && model::stringOr(member(*spec, "clusterIP")).empty() && !member(oldSpec, "clusterIP").is_null())
        (*spec)["clusterIP"] = member(oldSpec, "clusterIP");
    if (needsIP && member(*spec, "clusterIPs").empty() && !member(oldSpec, "clusterIPs").is_null())
        (*spec)["clusterIPs"] = member(oldSpec, "clusterIPs");
    // normalizeClusterIPs: an old client changing only clusterIP changes clusterIPs with it.
    const std::string ip = model::stringOr(member(*spec, "clusterIP"));
    if (!ip.empty() && ip != model::stringOr(member(oldSpec, "clusterIP"))
        && jsonedit::semanticEqual(member(*spec, "clusterIPs"), member(oldSpec, "clusterIPs")))
        (*spec)["clusterIPs"] = nlohmann::json::array({ip});
    for (const char *field : {"ipFamilies", "ipFamilyPolicy"}) {
        if (needsIP && member(*spec, field).is_null() && !member(oldSpec, field).is_null())
            (*spec)[field] = member(oldSpec, field);
    }
    nlohmann::json *ports = jsonedit::childArray(*spec, "ports");
    const nlohmann::json &oldPorts = member(oldSpec, "ports");
    if (!ports || !oldPorts.is_array() || !needsNodePorts(*spec) || !needsNodePorts(oldSpec))
        return;
    for (nlohmann::json &port : *ports) {
        const nlohmann::json &nodePort = member(port, "nodePort");
        if (!port.is_object() || !(nodePort.is_null() || nodePort == 0))
            continue;
        for (const nlohmann::json &oldPort : oldPorts) {
            if (member(oldPort, "name") == member(port, "name") && !member(oldPort, "nodePort").is_null())
                port["nodePort"] = member(oldPort, "nodePort");
        }
    }
}

std::vector<model::StatusCause> ServiceStrategy::validate(const model::Object &object) const
{
    Causes causes = Strategy::validate(object);
    const nlohmann::json &spec = member(object.json(), "spec");
    const std::string type = serviceType(spec);
    if (type != "ClusterIP" && type != "ExternalName" && type != "LoadBalancer" && type != "NodePort")
        causes.push_back(notSupportedField("spec.type", goQuote(type), {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}));
    const std::string affinity = model::stringOr(member(spec, "sessionAffinity"));
    if (affinity != "None" && affinity != "ClientIP")
        causes.push_back(notSupportedField("spec.sessionAffinity", goQuote(affinity), {"ClientIP", "None"}));
    if (type == "ExternalName" && model::stringOr(member(spec, "externalName")).empty())
        causes.push_back(requiredField("spec.externalName"));
    const nlohmann::json &clusterIPs = member(spec, "clusterIPs");
    for (std::size_t i = 0; clusterIPs.is_array() && i < clusterIPs.size(); ++i) {
        const std::string ip = model::stringOr(clusterIPs[i]);
        if (ip != "None" && !isValidIP(ip))
            causes.push_back(invalidField("spec.clusterIPs[" + std::to_string(i) + ']', ip,
                                          "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
    }
    validatePorts(spec, causes);
    return causes;
}

std::vector<model::StatusCause> ServiceStrategy::validateUpdate(const model::Object &object,
                                                                const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &spec = member(object.json(), "spec");
    const nlohmann::json &oldSpec = member(old.json(), "spec");
    if (serviceType(spec) == "ExternalName" || serviceType(oldSpec) == "ExternalName"
        || (isHeadless(spec) && isHeadless(oldSpec)))
        return causes;
    // validateUpgradeDowngradeClusterIPs: the primary IP never changes once allocated.
    const nlohmann::json &ips = member(spec, "clusterIPs");
    const nlohmann::json &oldIPs = member(oldSpec, "clusterIPs");
    const std::size_t count = ips.is_array() ? ips.size() : 0;
    const std::size_t oldCount = oldIPs.is_array() ? oldIPs.size() : 0;
    const std::string rendered = goStringSlice(ips);
    if (count == oldCount) {
        for (std::size_t i = 0; i < count; ++i) {
            if (ips[i] != oldIPs[i])
                causes.push_back(invalidFieldGo("spec.clusterIPs[" + std::to_string(i) + ']', rendered, "may not change once set"));
        }
    } else if (count == 0) {
        causes.push_back(invalidFieldGo("spec.clusterIPs[0]", rendered, "primary clusterIP can not be unset"));
    } else if (oldCount > 0 && ips[0] != oldIPs[0]) {
        causes.push_back(invalidFieldGo("spec.clusterIPs[0]", rendered, "may not change once set"));
    }
    return causes;
}

std::map<std::string, std::string> ServiceStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    const nlohmann::json &spec = member(object.json(), "spec");
    fields["spec.clusterIP"] = model::stringOr(member(spec, "clusterIP"));
    fields["spec.type"] = serviceType(spec);
    return fields;
}

} // namespace rvscope::registry
