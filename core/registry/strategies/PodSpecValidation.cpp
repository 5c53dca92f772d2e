// SPDX-License-Identifier: MIT
#include "registry/strategies/PodSpecValidation.h"

#include <algorithm>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/FieldPath.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry::podspec {

const char *const POD_UPDATE_FORBIDDEN_DETAIL =
    "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"
    "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

namespace {
using Causes = std::vector<model::StatusCause>;
using model::member;

constexpr std::int64_t MAX_INT32 = 2147483647;

std::string indexed(const std::string &path, std::size_t i)
{
    return path + '[' + std::to_string(i) + ']';
}

// The text of a string member, "" for anything else (what decoding into a Go string gives
// once the type error is reported), without copying it.
std::string_view textOf(const nlohmann::json &value)
{
    return value.is_string() ? std::string_view(value.get_ref<const std::string &>()) : std::string_view();
}

bool contains(const std::vector<std::string_view> &values, std::string_view value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

void checkPortNumber(const nlohmann::json &value, const FieldPath &path, Causes &causes)
{
    const auto number = jsonedit::integer(value);
    if (!number) {
        causes.push_back(typeInvalidField(path.toString(), value, "an integer"));
    } else if (*number < 1 || *number > 65535) {
        causes.push_back(invalidFieldInt(path.toString(), *number, "must be between 1 and 65535, inclusive"));
    }
}

// validation.IsValidPortName (IANA_SVC_NAME).
std::vector<std::string> portNameErrors(std::string_view name)
{
    std::vector<std::string> errors;
    if (name.size() > 15)
        errors.emplace_back("must be no more than 15 characters");
    bool charset = true;
    bool letter = false;
    for (char c : name) {
        if (c >= 'a' && c <= 'z')
            letter = true;
        else if (!(c >= '0' && c <= '9') && c != '-')
            charset = false;
    }
    if (!charset)
        errors.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    if (!letter)
        errors.emplace_back("must contain at least one letter (a-z)");
    if (name.find("--") != std::string_view::npos)
        errors.emplace_back("must not contain consecutive hyphens");
    if (!name.empty() && (name.front() == '-' || name.back() == '-'))
        errors.emplace_back("must not begin or end with a hyphen");
    return errors;
}

void checkEnum(const nlohmann::json &value, const FieldPath &path, std::initializer_list<std::string_view> supported,
               Causes &causes)
{
    if (value.is_null())
        return;
    const std::string_view text = textOf(value);
    if (!value.is_string()) {
        causes.push_back(typeInvalidField(path.toString(), value, "a string"));
    } else if (text.empty()) {
        causes.push_back(requiredField(path.toString()));
    } else if (std::find(supported.begin(), supported.end(), text) == supported.end()) {
        causes.push_back(notSupportedField(path.toString(), goQuote(text),
                                           std::vector<std::string>(supported.begin(), supported.end())));
    }
}

void validateContainerPorts(const nlohmann::json &ports, const FieldPath &path, Causes &causes)
{
    if (ports.is_null())
        return;
    if (!ports.is_array()) {
        causes.push_back(typeInvalidField(path.toString(), ports, "an array"));
        return;
    }
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < ports.size(); ++i) {
        const nlohmann::json &port = ports[i];
        const FieldPath portPath = path.index(i);
        if (!port.is_object()) {
            causes.push_back(typeInvalidField(portPath.toString(), port, "an object"));
            continue;
        }
        const std::string_view name = textOf(member(port, "name"));
        if (!name.empty()) {
            const auto errors = portNameErrors(name);
            for (const std::string &error : errors)
                causes.push_back(invalidField(portPath.child("name").toString(), name, error));
            if (errors.empty()) {
                if (contains(names, name))
                    causes.push_back(duplicateField(portPath.child("name").toString(), goQuote(name)));
                else
                    names.push_back(name);
            }
        }
        const nlohmann::json &containerPort = member(port, "containerPort");
        if (containerPort.is_null() || containerPort == 0)
            causes.push_back(requiredField(portPath.child("containerPort").toString()));
        else
            checkPortNumber(containerPort, portPath.child("containerPort"), causes);
        const nlohmann::json &hostPort = member(port, "hostPort");
        if (!hostPort.is_null() && hostPort != 0)
            checkPortNumber(hostPort, portPath.child("hostPort"), causes);
        checkEnum(member(port, "protocol"), portPath.child("protocol"), {"SCTP", "TCP", "UDP"}, causes);
    }
}

// validateContainerCommon plus the name uniqueness of validateContainers/validateInitContainers.
void validateContainers(const nlohmann::json &containers, const FieldPath &path, std::vector<std::string_view> &names,
                        bool init, Causes &causes)
{
    for (std::size_t i = 0; i < containers.size(); ++i) {
        const nlohmann::json &container = containers[i];
        const FieldPath containerPath = path.index(i);
        if (!container.is_object()) {
            causes.push_back(typeInvalidField(containerPath.toString(), container, "an object"));
            continue;
        }
        const nlohmann::json &nameValue = member(container, "name");
        const std::string_view name = textOf(nameValue);
        if (!nameValue.is_null() && !nameValue.is_string()) {
            causes.push_back(typeInvalidField(containerPath.child("name").toString(), nameValue, "a string"));
        } else if (name.empty()) {
            causes.push_back(requiredField(containerPath.child("name").toString()));
        } else {
            for (const std::string &error : isDns1123Label(name))
                causes.push_back(invalidField(containerPath.child("name").toString(), name, error));
        }
        const nlohmann::json &image = member(container, "image");
        if (!image.is_null() && !image.is_string())
            causes.push_back(typeInvalidField(containerPath.child("image").toString(), image, "a string"));
        else if (textOf(image).empty())
            causes.push_back(requiredField(containerPath.child("image").toString()));
        checkEnum(member(container, "terminationMessagePolicy"), containerPath.child("terminationMessagePolicy"),
                  {"File", "FallbackToLogsOnError"}, causes);
        validateContainerPorts(member(container, "ports"), containerPath.child("ports"), causes);
        checkEnum(member(container, "imagePullPolicy"), containerPath.child("imagePullPolicy"),
                  {"Always", "IfNotPresent", "Never"}, causes);
        // Init containers only count non-empty names; regular ones count "" too, as upstream.
        if (contains(names, name))
            causes.push_back(duplicateField(containerPath.child("name").toString(), goQuote(name)));
        else if (!init || !name.empty())
            names.push_back(name);
    }
}

bool validateContainerUpdates(const nlohmann::json &spec, const nlohmann::json &oldSpec, const char *list,
                              Causes &causes)
{
    const nlohmann::json &containers = member(spec, list);
    const nlohmann::json &oldContainers = member(oldSpec, list);
    const std::size_t count = containers.is_array() ? containers.size() : 0;
    const std::size_t oldCount = oldContainers.is_array() ? oldContainers.size() : 0;
    const std::string path = std::string("spec.") + list;
    if (count != oldCount) {
        causes.push_back(forbiddenField(path, "pod updates may not add or remove containers"));
        return false;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const std::string image = model::stringOr(member(containers[i], "image"));
        if (image.empty())
            causes.push_back(requiredField(indexed(path, i) + ".image"));
        else if (image.find_first_not_of(" \t\n\r") != 0 || image.find_last_not_of(" \t\n\r") != image.size() - 1)
            causes.push_back(invalidField(indexed(path, i) + ".image", image, "must not have leading or trailing whitespace"));
    }
    return true;
}

// validateOnlyAddedTolerations: every old toleration is still there, tolerationSeconds aside.
bool tolerationsOnlyAdded(const nlohmann::json &tolerations, const nlohmann::json &oldTolerations)
{
    if (!oldTolerations.is_array())
        return true;
    for (const nlohmann::json &old : oldTolerations) {
        bool found = false;
        if (tolerations.is_array()) {
            for (const nlohmann::json &candidate : tolerations) {
                nlohmann::json left = old;
                nlohmann::json right = candidate;
                if (left.is_object())
                    left.erase("tolerationSeconds");
                if (right.is_object())
                    right.erase("tolerationSeconds");
                if (jsonedit::semanticEqual(left, right)) {
                    found = true;
                    break;
                }
            }
        }
        if (!found)
            return false;
    }
    return true;
}
} // namespace

std::vector<model::StatusCause> validatePodSpec(const nlohmann::json &spec, std::string_view rootPath)
{
    // Runs on every write of a pod or workload: paths are rendered only for errors.
    const FieldPath path(rootPath);
    Causes causes;
    if (!spec.is_null() && !spec.is_object()) {
        causes.push_back(typeInvalidField(path.toString(), spec, "an object"));
        return causes;
    }
    const nlohmann::json &containers = member(spec, "containers");
    std::vector<std::string_view> names;
    if (!containers.is_null() && !containers.is_array())
        causes.push_back(typeInvalidField(path.child("containers").toString(), containers, "an array"));
    else if (containers.empty())
        causes.push_back(requiredField(path.child("containers").toString()));
    else
        validateContainers(containers, path.child("containers"), names, false, causes);
    const nlohmann::json &initContainers = member(spec, "initContainers");
    if (!initContainers.is_null() && !initContainers.is_array())
        causes.push_back(typeInvalidField(path.child("initContainers").toString(), initContainers, "an array"));
    else if (initContainers.is_array())
        validateContainers(initContainers, path.child("initContainers"), names, true, causes);

    checkEnum(member(spec, "restartPolicy"), path.child("restartPolicy"), {"Always", "OnFailure", "Never"}, causes);
    checkEnum(member(spec, "dnsPolicy"), path.child("dnsPolicy"),
              {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}, causes);
    const nlohmann::json &deadline = member(spec, "activeDeadlineSeconds");
    if (!deadline.is_null()) {
        const auto value = jsonedit::integer(deadline);
        if (!value)
            causes.push_back(typeInvalidField(path.child("activeDeadlineSeconds").toString(), deadline, "an integer"));
        else if (*value < 1 || *value > MAX_INT32)
            causes.push_back(invalidFieldInt(path.child("activeDeadlineSeconds").toString(), *value,
                                             "must be between 1 and 2147483647, inclusive"));
    }
    for (const char *field : {"nodeName", "serviceAccountName"}) {
        const std::string_view value = textOf(member(spec, field));
        if (!value.empty()) {
            for (const std::string &error : isDns1123Subdomain(value))
                causes.push_back(invalidField(path.child(field).toString(), value, error));
        }
    }
    return causes;
}

std::vector<model::StatusCause> validatePodSpecUpdate(const nlohmann::json &spec, const nlohmann::json &oldSpec)
{
    Causes causes;
    if (!validateContainerUpdates(spec, oldSpec, "containers", causes)
        || !validateContainerUpdates(spec, oldSpec, "initContainers", causes))
        return causes;

    const nlohmann::json &deadline = member(spec, "activeDeadlineSeconds");
    const nlohmann::json &oldDeadline = member(oldSpec, "activeDeadlineSeconds");
    if (const auto value = jsonedit::integer(deadline)) {
        if (*value < 0 || *value > MAX_INT32) {
            causes.push_back(invalidFieldInt("spec.activeDeadlineSeconds", *value,
                                             "must be between 0 and 2147483647, inclusive"));
            return causes;
        }
        if (const auto old = jsonedit::integer(oldDeadline); old && *old < *value) {
            causes.push_back(invalidFieldInt("spec.activeDeadlineSeconds", *value,
                                             "must be less than or equal to previous value"));
            return causes;
        }
    } else if (deadline.is_null() && !oldDeadline.is_null()) {
        causes.push_back(invalidField("spec.activeDeadlineSeconds", "null",
                                      "must not update from a positive integer to nil value"));
    }

    if (!tolerationsOnlyAdded(member(spec, "tolerations"), member(oldSpec, "tolerations")))
        causes.push_back(forbiddenField("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
    const nlohmann::json &gates = member(spec, "schedulingGates");
    if (gates.is_array()) {
        std::set<std::string> oldGates;
        if (const nlohmann::json &old = member(oldSpec, "schedulingGates"); old.is_array()) {
            for (const nlohmann::json &gate : old)
                oldGates.insert(model::stringOr(member(gate, "name")));
        }
        for (std::size_t i = 0; i < gates.size(); ++i) {
            const std::string name = model::stringOr(member(gates[i], "name"));
            if (!oldGates.count(name))
                causes.push_back(forbiddenField(indexed("spec.schedulingGates", i) + ".name",
                                                "only deletion is allowed, but found new scheduling gate '" + name + "'"));
        }
    }

    if (jsonedit::semanticEqual(spec, oldSpec))
        return causes;
    // Munge the fields an update may change back to their old values; whatever still differs
    // was not allowed to.
    nlohmann::json munged = spec.is_object() ? spec : nlohmann::json::object();
    for (const char *list : {"containers", "initContainers"}) {
        nlohmann::json *containers = jsonedit::childArray(munged, list);
        const nlohmann::json &oldContainers = member(oldSpec, list);
        for (std::size_t i = 0; containers && i < containers->size() && i < oldContainers.size(); ++i) {
            nlohmann::json &container = (*containers)[i];
            if (!container.is_object())
                continue;
            container.erase("image");
            if (const nlohmann::json &oldImage = member(oldContainers[i], "image"); !oldImage.is_null())
                container["image"] = oldImage;
        }
    }
    for (const char *field : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
        munged.erase(field);
        if (const nlohmann::json &old = member(oldSpec, field); !old.is_null())
            munged[field] = old;
    }
    const auto oldGrace = jsonedit::integer(member(oldSpec, "terminationGracePeriodSeconds"));
    if (oldGrace && *oldGrace < 0 && member(munged, "terminationGracePeriodSeconds") == 1)
        munged["terminationGracePeriodSeconds"] = *oldGrace;
    if (!jsonedit::semanticEqual(munged, oldSpec)) {
        causes.push_back(forbiddenField("spec", std::string(POD_UPDATE_FORBIDDEN_DETAIL) + '\n'
                                                    + goStructDiff("core.PodSpec", oldSpec, munged)));
    }
    return causes;
}

} // namespace rvscope::registry::podspec
