// SPDX-License-Identifier: MIT
#include "Workloads.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace rvscope::bench::http {
namespace {

const std::string &padding()
{
    static const std::string text(OBJECT_BYTES - 200, 'x');
    return text;
}

// etcd values: a 12-byte counter then ~1 KB of padding. Both lengths are multiples of 3, so
// their base64 forms concatenate to the base64 of the whole value: no per-request encoding.
constexpr std::size_t ETCD_COUNTER_BYTES = 12;
const std::string &etcdPaddingBase64()
{
    static const std::string text = base64(std::string(1020, 'x'));
    return text;
}
std::string etcdValueBase64(long counter)
{
    char digits[32];
    std::snprintf(digits, sizeof digits, "%012lu", static_cast<unsigned long>(counter) % 1000000000000UL);
    return base64(std::string(digits, ETCD_COUNTER_BYTES)) + etcdPaddingBase64();
}

class GetScript final : public ClientScript {
public:
    explicit GetScript(const std::string &path) : m_request(makeRequest("GET", path)) {}
    std::string nextRequest() override { return m_request; }
    Step handleResponse(const HttpResponse &response) override
    {
        return response.status == 200 ? Step::Succeeded : Step::Failed;
    }

private:
    std::string m_request;
};

class ConfigMapUpdateScript final : public ClientScript {
public:
    ConfigMapUpdateScript(const std::string &name, int client)
        : m_path("/api/v1/namespaces/default/configmaps/" + name), m_get(makeRequest("GET", m_path)),
          m_client(client)
    {
    }
    std::string nextRequest() override { return m_reading ? m_get : m_put; }
    Step handleResponse(const HttpResponse &response) override
    {
        if (m_reading) {
            if (response.status != 200)
                return Step::Failed;
            nlohmann::json object = nlohmann::json::parse(response.body, nullptr, false);
            if (object.is_discarded())
                return Step::Failed;
            object["data"]["counter"] = std::to_string(m_client) + "-" + std::to_string(++m_counter);
            m_put = makeRequest("PUT", m_path, object.dump());
            m_reading = false;
            return Step::Continue;
        }
        m_reading = true;
        if (response.status == 200)
            return Step::Succeeded;
        return response.status == 409 ? Step::Conflicted : Step::Failed;
    }

private:
    std::string m_path;
    std::string m_get;
    std::string m_put;
    int m_client;
    long m_counter = 0;
    bool m_reading = true;
};

class EtcdCasScript final : public ClientScript {
public:
    EtcdCasScript(const std::string &key, int client)
        : m_key(base64(key)), m_range(makeRequest("POST", "/v3/kv/range", R"({"key":")" + m_key + R"("})")),
          m_counter(static_cast<long>(client) * 1000000000L)
    {
    }
    std::string nextRequest() override
    {
        if (m_reading)
            return m_range;
        const std::string body = R"({"compare":[{"key":")" + m_key + R"(","target":"MOD","mod_revision":")"
            + m_modRevision + R"("}],"success":[{"request_put":{"key":")" + m_key + R"(","value":")"
            + etcdValueBase64(++m_counter) + R"("}}],"failure":[{"request_range":{"key":")" + m_key + R"("}}]})";
        return makeRequest("POST", "/v3/kv/txn", body);
    }
    Step handleResponse(const HttpResponse &response) override
    {
        if (response.status != 200) {
            m_reading = true;
            return Step::Failed;
        }
        const nlohmann::json reply = nlohmann::json::parse(response.body, nullptr, false);
        if (reply.is_discarded()) {
            m_reading = true;
            return Step::Failed;
        }
        if (m_reading) {
            if (!readModRevision(reply.value("kvs", nlohmann::json::array())))
                return Step::Failed;
            m_reading = false;
            return Step::Continue;
        }
        if (reply.value("succeeded", false)) {
            m_reading = true;
            return Step::Succeeded;
        }
        const nlohmann::json &responses = reply.value("responses", nlohmann::json::array());
        if (responses.empty() || !readModRevision(responses[0]["response_range"].value("kvs", nlohmann::json::array()))) {
            m_reading = true;
            return Step::Failed;
        }
        return Step::Conflicted;
    }

private:
    // The gateway encodes int64 as JSON strings.
    bool readModRevision(const nlohmann::json &kvs)
    {
        if (!kvs.is_array() || kvs.empty())
            return false;
        m_modRevision = kvs[0].value("mod_revision", std::string("0"));
        return true;
    }

    std::string m_key;
    std::string m_range;
    std::string m_modRevision;
    long m_counter;
    bool m_reading = true;
};

} // namespace

std::unique_ptr<ClientScript> makeGetScript(const std::string &path)
{
    return std::make_unique<GetScript>(path);
}

std::unique_ptr<ClientScript> makeConfigMapUpdateScript(const std::string &name, int client)
{
    return std::make_unique<ConfigMapUpdateScript>(name, client);
}

std::unique_ptr<ClientScript> makeEtcdCasScript(const std::string &key, int client)
{
    return std::make_unique<EtcdCasScript>(key, client);
}

std::string configMapJson(const std::string &name)
{
    const nlohmann::json object = {
        {"apiVersion", "v1"},
        {"kind", "ConfigMap"},
        {"metadata", {{"name", name}, {"namespace", "default"}}},
        {"data", {{"counter", "0"}, {"padding", padding()}}},
    };
    return object.dump();
}

std::string etcdPutJson(const std::string &key)
{
    return R"({"key":")" + base64(key) + R"(","value":")" + etcdValueBase64(0) + R"("})";
}

std::string base64(const std::string &bytes)
{
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8)
            | static_cast<unsigned char>(bytes[i + 2]);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    if (i < bytes.size()) {
        unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

} // namespace rvscope::bench::http
