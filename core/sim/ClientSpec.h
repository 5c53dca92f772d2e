// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/Result.h"

namespace rvscope::sim {

// How a client writes its increment of data.counter (see CompetingClient for each flow).
enum class WriteStrategy {
    RawPut,          // "raw-put": GET, PUT with the read resourceVersion, no retry (raw 409s)
    RetryDefault,    // "retry-default": client-go RetryOnConflict(DefaultRetry, GET+PUT)
    RetryBackoff,    // "retry-backoff": client-go RetryOnConflict(DefaultBackoff, GET+PUT)
    BlindPut,        // "blind-put": GET, PUT without resourceVersion (unconditional: lost updates)
    MergePatch,      // "merge-patch": GET, merge PATCH of the new value (no precondition: lost updates)
    JsonPatchTest,   // "json-patch-test": GET, JSON PATCH [test old value, replace]; 422 → retry
    MergePatchRv,    // "merge-patch-rv": merge PATCH carrying metadata.resourceVersion (controller-runtime's
                     // optimistic-lock patch) under RetryOnConflict(DefaultRetry)
    Lease,           // "lease": pessimistic: acquire a coordination.k8s.io Lease, GET+PUT, release
    Apply,           // "apply": GET, server-side apply as its own field manager; an ownership 409 is final
    ApplyForce,      // "apply-force": GET, server-side apply with force=true: takes the field, loses updates
    ApplyRv,         // "apply-rv": forced apply carrying metadata.resourceVersion under RetryOnConflict
};

std::string strategyName(WriteStrategy strategy);
std::optional<WriteStrategy> parseStrategy(const std::string &name);
std::vector<WriteStrategy> allStrategies();
// One line for --help and the GUI: what the strategy does and what it shows.
std::string strategyDescription(WriteStrategy strategy);

// client-go's wait.Backoff: Step() returns the next sleep (duration grows by factor, with up
// to jitter * duration added at random) until the steps run out.
struct Backoff final {
    std::chrono::nanoseconds duration{std::chrono::milliseconds(10)};
    double factor = 1.0;
    double jitter = 0.1;
    int steps = 5;

    static Backoff defaultRetry() { return Backoff{std::chrono::milliseconds(10), 1.0, 0.1, 5}; }
    static Backoff defaultBackoff() { return Backoff{std::chrono::milliseconds(10), 5.0, 0.1, 4}; }
    std::chrono::nanoseconds step(std::mt19937_64 &random);
};

// A delay drawn per operation: constant, uniform in [min, max], or exponential with a mean.
struct ThinkTime final {
    enum class Kind { Constant, Uniform, Exponential };
    Kind kind = Kind::Constant;
    std::chrono::microseconds a{0}; // constant value, uniform min, exponential mean
    std::chrono::microseconds b{0}; // uniform max

    std::chrono::nanoseconds draw(std::mt19937_64 &random) const;
    // "5ms", "2-10ms" (uniform), "exp:5ms"; units us, ms, s. 400 Status when malformed.
    static model::Result<ThinkTime> parse(const std::string &text);
    std::string toString() const;
};

// A group of competing clients: `clients` clients named <namePrefix>1..N, each doing
// `operations` increments on objects picked at random among `objects` ConfigMaps
// (<objectPrefix>-0 … ; one object = a hot key) in `namespaceName`.
struct ClientSpec final {
    int clients = 8;
    WriteStrategy strategy = WriteStrategy::RetryDefault;
    int objects = 1;
    int operations = 50; // per client
    ThinkTime thinkTime{ThinkTime::Kind::Uniform, std::chrono::microseconds(1000), std::chrono::microseconds(5000)};
    std::uint64_t seed = 1;
    std::string namespaceName = "default";
    std::string objectPrefix = "counter";
    std::string namePrefix = "c";

    std::vector<std::string> objectKeys() const; // "configmaps/default/counter-0", …
    // JSON form used by scenarios and the CLI ({"clients":8,"strategy":"retry-default",
    // "objects":1,"operations":50,"thinkTime":"1-5ms","seed":1,...}); unknown fields are a 400.
    static model::Result<ClientSpec> fromJson(const nlohmann::json &json);
    nlohmann::json toJson() const;
};

} // namespace rvscope::sim
