// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include <QtCore/QString>

#include "engine/EngineTypes.h"

// Hand-built operation batches for the timeline's tests and benchmark (no core, no engine).
namespace rvscope::testing {

inline constexpr qint64 MS = 1'000'000;

struct OperationBuilder final {
    engine::OperationSummary op;

    OperationBuilder(quint64 id, const QString &client, const QString &verb,
                     const QString &key = QStringLiteral("configmaps/default/foo"))
    {
        op.id = id;
        op.clientId = client;
        op.verb = verb;
        op.key = key;
        op.statusCode = 200;
    }
    OperationBuilder &sent(qint64 rv) { op.rvSent = rv; return *this; }
    OperationBuilder &produced(qint64 rv) { op.rvProduced = rv; return *this; }
    OperationBuilder &at(qint64 startNs, qint64 endNs) { op.startNs = startNs; op.endNs = endNs; return *this; }
    OperationBuilder &status(int code, const QString &reason = QString())
    {
        op.statusCode = code;
        op.reason = reason;
        return *this;
    }
    OperationBuilder &strategy(const QString &name) { op.strategy = name; return *this; }
    OperationBuilder &casRetries(int retries) { op.casRetries = retries; return *this; }
    OperationBuilder &noop() { op.noop = true; return *this; }
    OperationBuilder &remote() { op.remote = true; return *this; }
    OperationBuilder &injected(const QString &action) { op.injected = action; return *this; }
    OperationBuilder &pending() { op.endNs = -1; return *this; }
    operator engine::OperationSummary() const { return op; }
};

// The lost update, in four operations: c1 and c2 both read default/foo at rv 41, c1 writes
// rv 42; then c2 writes what it read. With a precondition (rvSent 41) c2 gets 409 Conflict;
// as a blind PUT (rvSent 0) it succeeds at rv 43 and c1's rv 42 is lost.
inline engine::OperationBatch lostUpdateBatch(bool blindPut)
{
    engine::OperationBatch batch;
    batch << OperationBuilder(1, QStringLiteral("c1"), QStringLiteral("get")).produced(41).at(0, 2 * MS);
    batch << OperationBuilder(2, QStringLiteral("c2"), QStringLiteral("get")).produced(41).at(1 * MS, 3 * MS);
    batch << OperationBuilder(3, QStringLiteral("c1"), QStringLiteral("update"))
                 .sent(41).produced(42).at(4 * MS, 6 * MS).strategy(QStringLiteral("retry-default"));
    OperationBuilder second(4, QStringLiteral("c2"), QStringLiteral("update"));
    second.at(5 * MS, 8 * MS);
    if (blindPut)
        second.strategy(QStringLiteral("raw-put")).produced(43);
    else
        second.strategy(QStringLiteral("retry-default")).sent(41).status(409, QStringLiteral("Conflict"));
    batch << second;
    return batch;
}

// One event delivered on a watch, as the engine batches it.
inline engine::WatchEventSummary watchDelivery(const QString &watcher, quint64 watchOperation, const QString &type,
                                               qint64 rv, const QString &key, qint64 timeNs,
                                               const QString &message = QString())
{
    engine::WatchEventSummary event;
    event.watcherId = watcher;
    event.operationId = watchOperation;
    event.type = type;
    event.resourceVersion = rv;
    event.key = key;
    event.timeNs = timeNs;
    event.message = message;
    return event;
}

// What a watch on all the batch's keys receives: one MODIFIED per committed revision (a
// successful write that produced one), 50 µs after the write completed.
inline engine::WatchEventBatch deliveriesOf(const engine::OperationBatch &batch, const QString &watcher,
                                            quint64 watchOperation)
{
    engine::WatchEventBatch events;
    for (const engine::OperationSummary &op : batch) {
        if (op.isWrite() && !op.noop && op.statusCode >= 200 && op.statusCode < 300 && op.rvProduced > 0)
            events << watchDelivery(watcher, watchOperation, QStringLiteral("MODIFIED"), op.rvProduced, op.key,
                                    op.endNs + 50'000);
    }
    return events;
}

// A deterministic contention run: `clients` clients on `keys` ConfigMaps, read-modify-write
// loops, every third client blind (unconditional PUT: lost updates), one in five writes a
// PATCH (server-side CAS retries), a few 422s and no-ops. Completion order, ids from `firstId`.
class ContentionRun final {
public:
    ContentionRun(int clients, int keys)
        : m_clients(std::size_t(clients))
        , m_current(std::size_t(keys), 0)
    {
        for (std::size_t key = 0; key < m_current.size(); ++key)
            m_current[key] = ++m_revision;
    }

    engine::OperationBatch next(int count)
    {
        engine::OperationBatch batch;
        batch.reserve(count);
        for (int i = 0; i < count; ++i)
            batch << step();
        return batch;
    }

private:
    struct Client final {
        qint64 read = 0;
        int key = -1;
    };

    quint32 random()
    {
        m_seed = m_seed * 1664525u + 1013904223u;
        return m_seed >> 8;
    }

    engine::OperationSummary step()
    {
        const std::size_t c = random() % m_clients.size();
        Client &client = m_clients[c];
        const QString clientId = QStringLiteral("client-%1").arg(c + 1);
        m_now += 20'000 + random() % 60'000;
        const qint64 latency = 200'000 + random() % 1'800'000;
        const quint64 id = ++m_id;
        if (client.key < 0) {
            client.key = int(random() % m_current.size());
            client.read = m_current[std::size_t(client.key)];
            return OperationBuilder(id, clientId, QStringLiteral("get"), keyName(client.key))
                .produced(client.read).at(m_now - latency, m_now);
        }
        const std::size_t key = std::size_t(client.key);
        const bool blind = c % 3 == 2;
        const bool patch = !blind && random() % 5 == 0;
        OperationBuilder op(id, clientId, patch ? QStringLiteral("patch") : QStringLiteral("update"), keyName(client.key));
        op.at(m_now - latency, m_now).strategy(blind ? QStringLiteral("raw-put") : QStringLiteral("retry-default"));
        client.key = -1;
        const quint32 dice = random() % 100;
        if (dice < 2)
            return op.status(422, QStringLiteral("Invalid"));
        if (dice < 3)
            return op.produced(m_current[key]).noop();
        if (patch) {
            const int retries = m_current[key] != client.read ? int(1 + random() % 3) : 0;
            m_current[key] = ++m_revision;
            return op.produced(m_revision).casRetries(retries);
        }
        if (!blind && m_current[key] != client.read)
            return op.sent(client.read).status(409, QStringLiteral("Conflict"));
        if (!blind)
            op.sent(client.read);
        m_current[key] = ++m_revision;
        return op.produced(m_revision);
    }

    static QString keyName(int key) { return QStringLiteral("configmaps/default/counter-%1").arg(key); }

    std::vector<Client> m_clients;
    std::vector<qint64> m_current;
    qint64 m_revision = 100;
    qint64 m_now = 10 * MS;
    quint64 m_id = 0;
    quint32 m_seed = 12345;
};

} // namespace rvscope::testing
