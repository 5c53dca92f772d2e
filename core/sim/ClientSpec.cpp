// SPDX-License-Identifier: MIT
#include "sim/ClientSpec.h"

#include <array>
#include <charconv>
#include <utility>

#include "model/JsonAccess.h"
#include "model/StatusErrors.h"

namespace rvscope::sim {
namespace {

struct StrategyInfo {
    WriteStrategy strategy;
    const char *name;
    const char *description;
};

constexpr std::array STRATEGIES = {
    StrategyInfo{WriteStrategy::RawPut, "raw-put",
                 "GET, then PUT with the resourceVersion read; a 409 is reported, never retried"},
    StrategyInfo{WriteStrategy::RetryDefault, "retry-default",
                 "client-go RetryOnConflict with DefaultRetry (5 steps, 10 ms, factor 1.0, jitter 0.1) around GET+PUT"},
    StrategyInfo{WriteStrategy::RetryBackoff, "retry-backoff",
                 "client-go RetryOnConflict with DefaultBackoff (4 steps, 10 ms, factor 5.0, jitter 0.1) around GET+PUT"},
    StrategyInfo{WriteStrategy::BlindPut, "blind-put",
                 "GET, then PUT without resourceVersion: an unconditional update that overwrites others (lost updates)"},
    StrategyInfo{WriteStrategy::MergePatch, "merge-patch",
                 "GET, then a merge PATCH of the new value without resourceVersion: never 409, loses updates"},
    StrategyInfo{WriteStrategy::JsonPatchTest, "json-patch-test",
                 "GET, then a JSON PATCH that tests the old value before replacing it; a failed test (422) retries"},
    StrategyInfo{WriteStrategy::MergePatchRv, "merge-patch-rv",
                 "merge PATCH carrying metadata.resourceVersion (controller-runtime's optimistic lock), retried on 409"},
    StrategyInfo{WriteStrategy::Lease, "lease",
                 "pessimistic: take a coordination.k8s.io Lease (create or CAS), GET+PUT, release; waiters poll"},
    StrategyInfo{WriteStrategy::Apply, "apply",
                 "GET, then server-side apply of the new value as its own field manager, without force: once another "
                 "manager owns the field, a 409 FieldManagerConflict that no retry resolves"},
    StrategyInfo{WriteStrategy::ApplyForce, "apply-force",
                 "GET, then server-side apply with force=true: takes the field from any manager, never 409, loses updates"},
    StrategyInfo{WriteStrategy::ApplyRv, "apply-rv",
                 "forced server-side apply carrying metadata.resourceVersion, retried on 409 (optimistic lock on apply)"},
};

model::Status invalid(const std::string &message)
{
    return model::errors::badRequest(message);
}

std::optional<std::int64_t> parseDurationUs(std::string_view text)
{
    std::int64_t scale = 1000; // default unit: ms
    if (text.ends_with("us")) {
        scale = 1;
        text.remove_suffix(2);
    } else if (text.ends_with("ms")) {
        text.remove_suffix(2);
    } else if (text.ends_with("s")) {
        scale = 1'000'000;
        text.remove_suffix(1);
    }
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0 || value > 3.6e9)
        return std::nullopt;
    return static_cast<std::int64_t>(value * static_cast<double>(scale));
}

std::string formatUs(std::chrono::microseconds value)
{
    if (value.count() % 1000 == 0)
        return std::to_string(value.count() / 1000) + "ms";
    return std::to_string(value.count()) + "us";
}

} // namespace

std::string strategyName(WriteStrategy strategy)
{
    for (const auto &info : STRATEGIES) {
        if (info.strategy == strategy)
            return info.name;
    }
    return "unknown";
}

std::optional<WriteStrategy> parseStrategy(const std::string &name)
{
    for (const auto &info : STRATEGIES) {
        if (name == info.name)
            return info.strategy;
    }
    return std::nullopt;
}

std::vector<WriteStrategy> allStrategies()
{
    std::vector<WriteStrategy> all;
    for (const auto &info : STRATEGIES)
        all.push_back(info.strategy);
    return all;
}

std::string strategyDescription(WriteStrategy strategy)
{
    for (const auto &info : STRATEGIES) {
        if (info.strategy == strategy)
            return info.description;
    }
    return {};
}

std::chrono::nanoseconds Backoff::step(std::mt19937_64 &random)
{
    // wait.Backoff.Step: return the current duration (jittered), then grow it.
    std::chrono::nanoseconds current = duration;
    if (steps > 0) {
        --steps;
        if (factor != 0)
            duration = std::chrono::nanoseconds(static_cast<std::int64_t>(static_cast<double>(duration.count()) * factor));
    }
    if (jitter > 0) {
        const double extra = std::uniform_real_distribution<double>(0.0, 1.0)(random) * jitter;
        current += std::chrono::nanoseconds(static_cast<std::int64_t>(extra * static_cast<double>(current.count())));
    }
    return current;
}

std::chrono::nanoseconds ThinkTime::draw(std::mt19937_64 &random) const
{
    switch (kind) {
    case Kind::Constant:
        return a;
    case Kind::Uniform:
        return std::chrono::microseconds(std::uniform_int_distribution<std::int64_t>(a.count(), std::max(a, b).count())(random));
    case Kind::Exponential:
        if (a.count() <= 0)
            return std::chrono::nanoseconds(0);
        return std::chrono::nanoseconds(static_cast<std::int64_t>(
            std::exponential_distribution<double>(1.0 / static_cast<double>(a.count()))(random) * 1000.0));
    }
    return std::chrono::nanoseconds(0);
}

model::Result<ThinkTime> ThinkTime::parse(const std::string &text)
{
    const auto bad = [&text] {
        return invalid("invalid think time \"" + text + "\": use 5ms, 2-10ms (uniform) or exp:5ms (exponential mean)");
    };
    ThinkTime think;
    std::string_view view = text;
    if (view.starts_with("exp:")) {
        view.remove_prefix(4);
        const auto mean = parseDurationUs(view);
        if (!mean)
            return bad();
        think.kind = Kind::Exponential;
        think.a = std::chrono::microseconds(*mean);
        return think;
    }
    if (const auto dash = view.find('-'); dash != std::string_view::npos) {
        // "2-10ms": the unit after the second number applies to both.
        std::string_view high = view.substr(dash + 1);
        std::string low(view.substr(0, dash));
        std::string_view unit = high.substr(high.find_first_not_of("0123456789."));
        if (high.find_first_not_of("0123456789.") == std::string_view::npos)
            unit = {};
        if (low.find_first_not_of("0123456789.") == std::string::npos)
            low += std::string(unit);
        const auto min = parseDurationUs(low);
        const auto max = parseDurationUs(high);
        if (!min || !max || *max < *min)
            return bad();
        think.kind = Kind::Uniform;
        think.a = std::chrono::microseconds(*min);
        think.b = std::chrono::microseconds(*max);
        return think;
    }
    const auto value = parseDurationUs(view);
    if (!value)
        return bad();
    think.a = std::chrono::microseconds(*value);
    return think;
}

std::string ThinkTime::toString() const
{
    switch (kind) {
    case Kind::Constant:
        return formatUs(a);
    case Kind::Uniform: {
        if (a.count() % 1000 == 0 && b.count() % 1000 == 0)
            return std::to_string(a.count() / 1000) + '-' + formatUs(b);
        return formatUs(a) + '-' + formatUs(b);
    }
    case Kind::Exponential:
        return "exp:" + formatUs(a);
    }
    return {};
}

std::vector<std::string> ClientSpec::objectKeys() const
{
    std::vector<std::string> keys;
    for (int i = 0; i < objects; ++i)
        keys.push_back("configmaps/" + namespaceName + '/' + objectPrefix + '-' + std::to_string(i));
    return keys;
}

model::Result<ClientSpec> ClientSpec::fromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        return invalid("a client spec must be a JSON object");
    ClientSpec spec;
    for (auto member = json.begin(); member != json.end(); ++member) {
        // (Not structured bindings: clang before 16 cannot capture them in the lambdas.)
        const std::string &field = member.key();
        const nlohmann::json &value = member.value();
        auto integer = [&](int &out, int min, int max) -> std::optional<model::Status> {
            if (!value.is_number_integer() || value.get<std::int64_t>() < min || value.get<std::int64_t>() > max)
                return invalid("client spec field \"" + field + "\" must be an integer from " + std::to_string(min)
                               + " to " + std::to_string(max));
            out = value.get<int>();
            return std::nullopt;
        };
        auto text = [&](std::string &out) -> std::optional<model::Status> {
            if (!value.is_string() || value.get<std::string>().empty())
                return invalid("client spec field \"" + field + "\" must be a non-empty string");
            out = value.get<std::string>();
            return std::nullopt;
        };
        std::optional<model::Status> error;
        if (field == "clients") {
            error = integer(spec.clients, 1, 10000);
        } else if (field == "objects") {
            error = integer(spec.objects, 1, 100000);
        } else if (field == "operations") {
            error = integer(spec.operations, 0, 100000000);
        } else if (field == "strategy") {
            std::string name;
            error = text(name);
            if (!error) {
                auto strategy = parseStrategy(name);
                if (!strategy)
                    return invalid("unknown strategy \"" + name + "\"");
                spec.strategy = *strategy;
            }
        } else if (field == "thinkTime") {
            std::string think;
            error = text(think);
            if (!error) {
                auto parsed = ThinkTime::parse(think);
                if (!parsed)
                    return std::move(parsed).error();
                spec.thinkTime = *parsed;
            }
        } else if (field == "seed") {
            if (!value.is_number_unsigned())
                return invalid("client spec field \"seed\" must be a non-negative integer");
            spec.seed = value.get<std::uint64_t>();
        } else if (field == "namespace") {
            error = text(spec.namespaceName);
        } else if (field == "objectPrefix") {
            error = text(spec.objectPrefix);
        } else if (field == "namePrefix") {
            error = text(spec.namePrefix);
        } else {
            return invalid("unknown client spec field \"" + field + "\"");
        }
        if (error)
            return std::move(*error);
    }
    return spec;
}

nlohmann::json ClientSpec::toJson() const
{
    return {{"clients", clients},           {"strategy", strategyName(strategy)}, {"objects", objects},
            {"operations", operations},     {"thinkTime", thinkTime.toString()},  {"seed", seed},
            {"namespace", namespaceName},   {"objectPrefix", objectPrefix},       {"namePrefix", namePrefix}};
}

} // namespace rvscope::sim
