// SPDX-License-Identifier: MIT
#include "api/table/PodStatus.h"

#include <optional>
#include <string>

#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

bool hasCondition(const json &pod, const char *type, const char *status)
{
    for (const json &condition : arrayOrEmpty(memberAt(pod, "status", "conditions"))) {
        if (member(condition, "type") == type)
            return member(condition, "status") == status;
    }
    return false;
}

std::optional<std::int64_t> finishedAt(const json &containerStatus)
{
    const json &finished = memberAt(containerStatus, "lastState", "terminated", "finishedAt");
    return finished.is_string() ? parseTime(finished.get_ref<const std::string &>()) : std::nullopt;
}

void later(std::optional<std::int64_t> &latest, std::optional<std::int64_t> time)
{
    if (time && (!latest || *time > *latest))
        latest = time;
}

std::string terminatedReason(const json &terminated, const char *prefix)
{
    const std::string reason = textOr(member(terminated, "reason"), "");
    if (!reason.empty())
        return prefix + reason;
    const std::int64_t signal = integerOr0(member(terminated, "signal"));
    if (signal != 0)
        return std::string(prefix) + "Signal:" + std::to_string(signal);
    return std::string(prefix) + "ExitCode:" + std::to_string(integerOr0(member(terminated, "exitCode")));
}

} // namespace

json podCells(const json &pod, std::int64_t now)
{
    const json &spec = member(pod, "spec");
    const json &status = member(pod, "status");
    std::string reason = textOr(member(status, "reason"), textOr(member(status, "phase"), ""));
    for (const json &condition : arrayOrEmpty(member(status, "conditions"))) {
        if (member(condition, "type") == "PodScheduled" && member(condition, "reason") == "SchedulingGated")
            reason = "SchedulingGated";
    }
    const json &initContainers = arrayOrEmpty(member(spec, "initContainers"));
    std::int64_t total = std::int64_t(arrayOrEmpty(member(spec, "containers")).size());
    auto isSidecar = [&](std::size_t index) {
        return index < initContainers.size() && member(initContainers[index], "restartPolicy") == "Always";
    };
    for (std::size_t i = 0; i < initContainers.size(); ++i)
        total += isSidecar(i) ? 1 : 0;

    std::int64_t ready = 0;
    std::int64_t restarts = 0;
    std::int64_t sidecarRestarts = 0;
    std::optional<std::int64_t> lastRestart;
    std::optional<std::int64_t> sidecarLastRestart;
    bool initializing = false;
    const json &initStatuses = arrayOrEmpty(member(status, "initContainerStatuses"));
    for (std::size_t i = 0; i < initStatuses.size(); ++i) {
        const json &container = initStatuses[i];
        restarts += integerOr0(member(container, "restartCount"));
        later(lastRestart, finishedAt(container));
        if (isSidecar(i)) {
            sidecarRestarts += integerOr0(member(container, "restartCount"));
            later(sidecarLastRestart, finishedAt(container));
        }
        const json &terminated = memberAt(container, "state", "terminated");
        const json &waiting = memberAt(container, "state", "waiting");
        if (terminated.is_object() && integerOr0(member(terminated, "exitCode")) == 0)
            continue;
        if (isSidecar(i) && member(container, "started") == true) {
            if (member(container, "ready") == true)
                ++ready;
            continue;
        }
        if (terminated.is_object())
            reason = terminatedReason(terminated, "Init:");
        else if (waiting.is_object() && !textOr(member(waiting, "reason"), "").empty()
                 && member(waiting, "reason") != "PodInitializing")
            reason = "Init:" + textOr(member(waiting, "reason"), "");
        else
            reason = "Init:" + std::to_string(i) + '/' + std::to_string(initContainers.size());
        initializing = true;
        break;
    }
    if (!initializing || hasCondition(pod, "Initialized", "True")) {
        restarts = sidecarRestarts;
        lastRestart = sidecarLastRestart;
        bool hasRunning = false;
        const json &statuses = arrayOrEmpty(member(status, "containerStatuses"));
        for (std::size_t i = statuses.size(); i-- > 0;) {
            const json &container = statuses[i];
            restarts += integerOr0(member(container, "restartCount"));
            later(lastRestart, finishedAt(container));
            const json &waiting = memberAt(container, "state", "waiting");
            const json &terminated = memberAt(container, "state", "terminated");
            if (waiting.is_object() && !textOr(member(waiting, "reason"), "").empty()) {
                reason = textOr(member(waiting, "reason"), "");
            } else if (terminated.is_object()) {
                reason = terminatedReason(terminated, "");
            } else if (member(container, "ready") == true && memberAt(container, "state", "running").is_object()) {
                hasRunning = true;
                ++ready;
            }
        }
        if (reason == "Completed" && hasRunning)
            reason = hasCondition(pod, "Ready", "True") ? "Running" : "NotReady";
    }
    const bool deleting = memberAt(pod, "metadata", "deletionTimestamp").is_string();
    const std::string phase = textOr(member(status, "phase"), "");
    if (deleting && member(status, "reason") == "NodeLost")
        reason = "Unknown";
    else if (deleting && phase != "Succeeded" && phase != "Failed")
        reason = "Terminating";

    std::string restartText = std::to_string(restarts);
    if (restarts != 0 && lastRestart)
        restartText += " (" + humanDuration(now - *lastRestart) + " ago)";
    std::string ip = textOr(member(status, "podIP"), "");
    if (ip.empty()) {
        const json &ips = arrayOrEmpty(member(status, "podIPs"));
        ip = ips.empty() ? "" : textOr(member(ips[0], "ip"), "");
    }
    std::string gates = "<none>";
    const json &readinessGates = arrayOrEmpty(member(spec, "readinessGates"));
    if (!readinessGates.empty()) {
        std::size_t passing = 0;
        for (const json &gate : readinessGates)
            passing += hasCondition(pod, textOr(member(gate, "conditionType"), "").c_str(), "True") ? 1 : 0;
        gates = std::to_string(passing) + '/' + std::to_string(readinessGates.size());
    }
    return json::array({textOr(memberAt(pod, "metadata", "name"), ""),
                        std::to_string(ready) + '/' + std::to_string(total), reason, restartText,
                        age(memberAt(pod, "metadata", "creationTimestamp"), now), ip.empty() ? "<none>" : ip,
                        textOr(member(spec, "nodeName"), "<none>"),
                        textOr(member(status, "nominatedNodeName"), "<none>"), gates});
}

} // namespace rvscope::api::table
