// SPDX-License-Identifier: MIT
#include "EtcdGrpcLoad.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "Workloads.h"
#include "etcdserver.grpc.pb.h"

namespace rvscope::bench::http {
namespace {

namespace pb = ::etcdserverpb;
using Clock = std::chrono::steady_clock;

// Separate HTTP/2 connections (gRPC shares one per target unless the arguments differ).
std::shared_ptr<grpc::Channel> connection(int port, int index)
{
    grpc::ChannelArguments arguments;
    arguments.SetInt("rvscope.bench.connection", index);
    arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    return grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials(),
                                     arguments);
}

std::string value(long sequence)
{
    std::string bytes = std::to_string(sequence) + ':';
    bytes.resize(OBJECT_BYTES, 'x');
    return bytes;
}

double percentile(std::vector<double> values, double fraction)
{
    if (values.empty())
        return 0;
    const auto at = std::size_t(fraction * double(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end());
    return values[at];
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

bool etcdGrpcPut(int port, const std::string &key)
{
    auto stub = pb::KV::NewStub(connection(port, 0));
    pb::PutRequest request;
    request.set_key(key);
    request.set_value(value(0));
    pb::PutResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    return stub->Put(&context, request, &response).ok();
}

LoadResult runEtcdGrpcCas(int port, int clients, double seconds, const std::function<std::string(int)> &keyOf)
{
    const int connections = std::min(clients, 8);
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (int i = 0; i < connections; ++i)
        channels.push_back(connection(port, i));
    struct PerClient {
        long succeeded = 0, conflicts = 0, failures = 0, requests = 0;
        std::vector<double> latencies;
    };
    std::vector<PerClient> results(static_cast<std::size_t>(clients));
    std::atomic<bool> go{false};
    const auto deadline = [&] { return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)); };
    Clock::time_point end;
    std::vector<std::thread> threads;
    for (int client = 0; client < clients; ++client) {
        threads.emplace_back([&, client] {
            auto stub = pb::KV::NewStub(channels[std::size_t(client % connections)]);
            PerClient &mine = results[std::size_t(client)];
            const std::string key = keyOf(client);
            long sequence = 0;
            while (!go.load())
                std::this_thread::yield();
            while (Clock::now() < end) {
                const auto start = Clock::now();
                grpc::ClientContext readContext;
                pb::RangeRequest read;
                read.set_key(key);
                pb::RangeResponse current;
                ++mine.requests;
                if (!stub->Range(&readContext, read, &current).ok() || current.kvs_size() == 0) {
                    ++mine.failures;
                    continue;
                }
                std::int64_t revision = current.kvs(0).mod_revision();
                for (;;) {
                    pb::TxnRequest txn;
                    pb::Compare *compare = txn.add_compare();
                    compare->set_result(pb::Compare::EQUAL);
                    compare->set_target(pb::Compare::MOD);
                    compare->set_key(key);
                    compare->set_mod_revision(revision);
                    pb::PutRequest *put = txn.add_success()->mutable_request_put();
                    put->set_key(key);
                    put->set_value(value(++sequence * 1000 + client));
                    txn.add_failure()->mutable_request_range()->set_key(key);
                    pb::TxnResponse answer;
                    grpc::ClientContext txnContext;
                    ++mine.requests;
                    if (!stub->Txn(&txnContext, txn, &answer).ok()) {
                        ++mine.failures;
                        break;
                    }
                    if (answer.succeeded()) {
                        if (Clock::now() < end) {
                            ++mine.succeeded;
                            mine.latencies.push_back(msSince(start));
                        }
                        break;
                    }
                    ++mine.conflicts;
                    const auto &range = answer.responses(0).response_range();
                    if (range.kvs_size() == 0) {
                        ++mine.failures;
                        break;
                    }
                    revision = range.kvs(0).mod_revision();
                }
            }
        });
    }
    const auto start = Clock::now();
    end = deadline();
    go = true;
    for (std::thread &thread : threads)
        thread.join();
    LoadResult total;
    total.seconds = std::chrono::duration<double>(end - start).count();
    std::vector<double> latencies;
    for (const PerClient &client : results) {
        total.succeeded += client.succeeded;
        total.conflicts += client.conflicts;
        total.failures += client.failures;
        total.requests += client.requests;
        latencies.insert(latencies.end(), client.latencies.begin(), client.latencies.end());
    }
    total.p50Ms = percentile(latencies, 0.5);
    total.p99Ms = percentile(latencies, 0.99);
    if (total.succeeded == 0 && total.failures > 0)
        total.error = "no successful Txn (is etcd up on port " + std::to_string(port) + "?)";
    return total;
}

WatchResult runEtcdGrpcWatchFanout(int port, const std::string &key, const WatchOptions &options)
{
    WatchResult result;
    result.requested = options.watchers;
    if (!etcdGrpcPut(port, key)) {
        result.error = "cannot put " + key;
        return result;
    }
    constexpr int CONNECTIONS = 10;
    std::vector<std::unique_ptr<pb::Watch::Stub>> stubs;
    for (int i = 0; i < CONNECTIONS; ++i)
        stubs.push_back(pb::Watch::NewStub(connection(port, 100 + i)));

    // One completion queue, served by this thread, for every watch stream (as the HTTP
    // fan-out's one epoll thread).
    grpc::CompletionQueue queue;
    enum class Step { Started, Written, Read, Finished };
    struct Watcher;
    struct Tag {
        Watcher *watcher;
        Step step;
    };
    struct Watcher {
        grpc::ClientContext context;
        std::unique_ptr<grpc::ClientAsyncReaderWriter<pb::WatchRequest, pb::WatchResponse>> stream;
        pb::WatchResponse response;
        Tag started, written, read, finished;
        grpc::Status status;
        bool open = false;
    };
    std::vector<std::unique_ptr<Watcher>> watchers;
    for (int i = 0; i < options.watchers; ++i) {
        auto watcher = std::make_unique<Watcher>();
        Watcher *w = watcher.get();
        w->started = {w, Step::Started};
        w->written = {w, Step::Written};
        w->read = {w, Step::Read};
        w->finished = {w, Step::Finished};
        w->stream = stubs[std::size_t(i % CONNECTIONS)]->PrepareAsyncWatch(&w->context, &queue);
        w->stream->StartCall(&w->started);
        watchers.push_back(std::move(watcher));
    }

    std::mutex mutex;
    std::condition_variable changed;
    // Per revision: when its put was sent (once the writer knows the revision) and how many
    // watchers have its event; complete when every open watcher has it.
    struct Track {
        Clock::time_point sent;
        Clock::time_point lastDelivery;
        bool registered = false;
        int delivered = 0;
    };
    std::map<std::int64_t, Track> tracks;
    int registeredPending = 0;
    std::vector<double> latencies;
    std::atomic<long> events{0};
    std::atomic<int> closedEarly{0};
    std::atomic<bool> windowOpen{false};
    std::atomic<bool> stopping{false};
    int openCount = 0;
    int finished = 0;
    // Under `mutex`: the revision's event is everywhere it must be.
    auto completeIfDone = [&](std::map<std::int64_t, Track>::iterator it) {
        if (it->second.registered && it->second.delivered >= openCount) {
            latencies.push_back(std::chrono::duration<double, std::milli>(it->second.lastDelivery - it->second.sent).count());
            tracks.erase(it);
            --registeredPending;
            changed.notify_all();
        }
    };

    auto handle = [&](Tag *tag, bool ok) {
        Watcher *w = tag->watcher;
        if (tag->step == Step::Finished) {
            std::lock_guard lock(mutex);
            ++finished;
            changed.notify_all();
            return;
        }
        if (!ok || (tag->step == Step::Read && w->response.canceled())) {
            if (!stopping)
                ++closedEarly;
            w->stream->Finish(&w->status, &w->finished);
            return;
        }
        switch (tag->step) {
        case Step::Started: {
            pb::WatchRequest request;
            pb::WatchCreateRequest *create = request.mutable_create_request();
            create->set_key(key);
            w->stream->Write(request, &w->written);
            break;
        }
        case Step::Written:
            w->stream->Read(&w->response, &w->read);
            break;
        case Step::Read: {
            const auto now = Clock::now();
            std::lock_guard lock(mutex);
            if (w->response.created() && !w->open) {
                w->open = true;
                ++openCount;
                changed.notify_all();
            }
            for (const pb::Event &event : w->response.events()) {
                if (windowOpen)
                    ++events;
                auto it = tracks.try_emplace(event.kv().mod_revision()).first;
                ++it->second.delivered;
                it->second.lastDelivery = now;
                completeIfDone(it);
            }
            w->stream->Read(&w->response, &w->read);
            break;
        }
        case Step::Finished:
            break;
        }
    };

    std::thread poller([&] {
        void *tag = nullptr;
        bool ok = false;
        while (queue.Next(&tag, &ok))
            handle(static_cast<Tag *>(tag), ok);
    });

    {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::duration<double>(options.openTimeoutSeconds),
                         [&] { return openCount >= options.watchers; });
        result.opened = openCount;
    }
    if (result.opened < options.watchers)
        result.error = std::to_string(result.opened) + " of " + std::to_string(options.watchers) + " watches opened";

    std::atomic<long> writes{0};
    std::atomic<long> writeFailures{0};
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds));
    windowOpen = result.error.empty();
    std::vector<std::thread> writers;
    for (int i = 0; result.error.empty() && i < options.writers; ++i) {
        writers.emplace_back([&, i] {
            auto stub = pb::KV::NewStub(connection(port, 200 + i));
            long sequence = 0;
            while (Clock::now() < end) {
                {
                    std::unique_lock lock(mutex);
                    changed.wait_until(lock, end, [&] { return registeredPending < options.maxUndelivered; });
                    if (Clock::now() >= end)
                        break;
                }
                pb::PutRequest put;
                put.set_key(key);
                put.set_value(value(++sequence * 100 + i));
                pb::PutResponse answer;
                grpc::ClientContext context;
                const auto sent = Clock::now();
                if (!stub->Put(&context, put, &answer).ok()) {
                    ++writeFailures;
                    continue;
                }
                ++writes;
                // Its events may have arrived before this answer: they are already counted.
                std::lock_guard lock(mutex);
                auto it = tracks.try_emplace(answer.header().revision()).first;
                it->second.sent = sent;
                it->second.registered = true;
                ++registeredPending;
                completeIfDone(it);
            }
        });
    }
    for (std::thread &writer : writers)
        writer.join();
    windowOpen = false;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::duration<double>(options.drainSeconds),
                         [&] { return registeredPending == 0; });
        result.undelivered = registeredPending;
        result.p50Ms = percentile(latencies, 0.5);
        result.p99Ms = percentile(latencies, 0.99);
    }
    result.writes = writes;
    result.writeFailures = writeFailures;
    result.events = events;
    result.closedEarly = closedEarly;
    stopping = true;
    for (auto &watcher : watchers)
        watcher->context.TryCancel();
    {
        // Every stream finishes (cancelled); then the queue drains and the poller ends.
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::seconds(10), [&] { return finished >= options.watchers; });
    }
    queue.Shutdown();
    poller.join();
    return result;
}

} // namespace rvscope::bench::http
