// SPDX-License-Identifier: MIT
#include "registry/strategies/PodSpecDefaults.h"

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/Quantity.h"

namespace rvscope::registry::podspec {
namespace {
using jsonedit::setDefault;
using jsonedit::setDefaultString;

// parsers.ParseImageName: no tag and no digest means "latest".
const char *defaultPullPolicy(const nlohmann::json &image)
{
    const std::string name = model::stringOr(image);
    if (name.empty())
        return "IfNotPresent"; // unparseable: upstream ignores the error and gets no tag
    const std::size_t at = name.find('@');
    const std::string withoutDigest = name.substr(0, at);
    const std::size_t slash = withoutDigest.rfind('/');
    const std::size_t colon = withoutDigest.rfind(':');
    const bool tagged = colon != std::string::npos && (slash == std::string::npos || colon > slash);
    const std::string tag = tagged ? withoutDigest.substr(colon + 1) : std::string();
    if (tag == "latest" || (!tagged && at == std::string::npos))
        return "Always";
    return "IfNotPresent";
}

void defaultProbe(nlohmann::json &container, const char *name)
{
    auto it = container.find(name);
    if (it == container.end() || !it->is_object())
        return;
    nlohmann::json &probe = *it;
    for (const auto &[key, value] : {std::pair{"timeoutSeconds", 1}, {"periodSeconds", 10},
                                     {"successThreshold", 1}, {"failureThreshold", 3}}) {
        auto member = probe.find(key);
        if (member == probe.end() || member->is_null() || *member == 0)
            probe[key] = value;
    }
    auto httpGet = probe.find("httpGet");
    if (httpGet != probe.end() && httpGet->is_object()) {
        setDefaultString(*httpGet, "path", "/");
        setDefaultString(*httpGet, "scheme", "HTTP");
    }
}

void defaultContainer(nlohmann::json &container)
{
    if (!container.is_object())
        return;
    if (nlohmann::json *pullPolicy = jsonedit::unsetStringMember(container, "imagePullPolicy"))
        *pullPolicy = defaultPullPolicy(model::member(container, "image"));
    setDefaultString(container, "terminationMessagePath", "/dev/termination-log");
    setDefaultString(container, "terminationMessagePolicy", "File");
    setDefault(container, "resources", nlohmann::json::value_t::object);
    if (nlohmann::json *ports = jsonedit::childArray(container, "ports")) {
        for (nlohmann::json &port : *ports)
            setDefaultString(port, "protocol", "TCP");
    }
    if (nlohmann::json *env = jsonedit::childArray(container, "env")) {
        for (nlohmann::json &variable : *env) {
            if (!variable.is_object())
                continue;
            auto valueFrom = variable.find("valueFrom");
            if (valueFrom == variable.end() || !valueFrom->is_object())
                continue;
            auto fieldRef = valueFrom->find("fieldRef");
            if (fieldRef != valueFrom->end() && fieldRef->is_object())
                setDefaultString(*fieldRef, "apiVersion", "v1");
        }
    }
    for (const char *probe : {"livenessProbe", "readinessProbe", "startupProbe"})
        defaultProbe(container, probe);
}

void defaultVolume(nlohmann::json &volume)
{
    if (!volume.is_object())
        return;
    bool hasSource = false;
    for (const auto &[key, value] : volume.items()) {
        if (key != "name" && !value.is_null())
            hasSource = true;
    }
    if (!hasSource) {
        volume["emptyDir"] = nlohmann::json::object();
        return;
    }
    for (const char *source : {"configMap", "secret", "projected", "downwardAPI"}) {
        auto it = volume.find(source);
        if (it != volume.end() && it->is_object())
            setDefault(*it, "defaultMode", 420);
    }
    auto hostPath = volume.find("hostPath");
    if (hostPath != volume.end() && hostPath->is_object())
        setDefault(*hostPath, "type", "");
}

void forEachContainer(nlohmann::json &spec, void (*apply)(nlohmann::json &))
{
    for (const char *list : {"containers", "initContainers"}) {
        if (nlohmann::json *containers = jsonedit::childArray(spec, list)) {
            for (nlohmann::json &container : *containers)
                apply(container);
        }
    }
}

void requestsFromLimits(nlohmann::json &container)
{
    if (!container.is_object())
        return;
    auto resources = container.find("resources");
    if (resources == container.end() || !resources->is_object())
        return;
    auto limits = resources->find("limits");
    if (limits == resources->end() || !limits->is_object())
        return;
    nlohmann::json *requests = jsonedit::childObject(*resources, "requests");
    if (!requests)
        return;
    for (const auto &[name, quantity] : limits->items()) {
        if (!requests->contains(name))
            (*requests)[name] = quantity;
    }
}

void hostPortsFromContainerPorts(nlohmann::json &container)
{
    if (nlohmann::json *ports = jsonedit::childArray(container, "ports")) {
        for (nlohmann::json &port : *ports) {
            if (!port.is_object() || !port.contains("containerPort"))
                continue;
            auto hostPort = port.find("hostPort");
            if (hostPort == port.end() || hostPort->is_null() || *hostPort == 0)
                port["hostPort"] = port["containerPort"];
        }
    }
}
} // namespace

void applyPodSpecDefaults(nlohmann::json &spec)
{
    if (!spec.is_object())
        return;
    setDefaultString(spec, "dnsPolicy", "ClusterFirst");
    setDefaultString(spec, "restartPolicy", "Always");
    setDefault(spec, "securityContext", nlohmann::json::value_t::object);
    setDefault(spec, "terminationGracePeriodSeconds", 30);
    setDefaultString(spec, "schedulerName", "default-scheduler");
    // The v1 conversion keeps the deprecated serviceAccount and serviceAccountName in step.
    const std::string account = model::stringOr(model::member(spec, "serviceAccountName"));
    const std::string deprecated = model::stringOr(model::member(spec, "serviceAccount"));
    if (account.empty() && !deprecated.empty())
        spec["serviceAccountName"] = deprecated;
    else if (!account.empty())
        spec["serviceAccount"] = account;
    forEachContainer(spec, defaultContainer);
    if (nlohmann::json *volumes = jsonedit::childArray(spec, "volumes")) {
        for (nlohmann::json &volume : *volumes)
            defaultVolume(volume);
    }
}

void applyPodDefaults(nlohmann::json &spec)
{
    if (!spec.is_object())
        return;
    forEachContainer(spec, requestsFromLimits);
    setDefault(spec, "enableServiceLinks", true);
    if (model::member(spec, "hostNetwork") == true)
        forEachContainer(spec, hostPortsFromContainerPorts);
}

std::string qosClass(const nlohmann::json &spec)
{
    std::map<std::string, long double> requests;
    std::map<std::string, long double> limits;
    bool guaranteed = true;
    for (const char *list : {"containers", "initContainers"}) {
        const nlohmann::json &containers = model::member(spec, list);
        if (!containers.is_array())
            continue;
        for (const nlohmann::json &container : containers) {
            const nlohmann::json &resources = model::member(container, "resources");
            int limitsFound = 0;
            for (const char *name : {"cpu", "memory"}) {
                const auto request = quantityOf(model::member(model::member(resources, "requests"), name));
                if (request && *request > 0)
                    requests[name] += *request;
                const auto limit = quantityOf(model::member(model::member(resources, "limits"), name));
                if (limit && *limit > 0) {
                    limits[name] += *limit;
                    ++limitsFound;
                }
            }
            if (limitsFound < 2)
                guaranteed = false;
        }
    }
    if (requests.empty() && limits.empty())
        return "BestEffort";
    if (guaranteed) {
        for (const auto &[name, request] : requests) {
            auto limit = limits.find(name);
            if (limit == limits.end() || std::fabs(limit->second - request) > 1e-9L * std::fabs(request))
                guaranteed = false;
        }
    }
    return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
}

} // namespace rvscope::registry::podspec
