// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <qcoro/qcorotask.h>

#include "etcdserver.grpc.pb.h"

namespace rvscope::storage::etcd {

namespace pb = ::etcdserverpb;

// What one etcd call ended with. `unknownOutcome`: a non-idempotent call (Txn) failed in a
// way that leaves open whether etcd applied it (Unavailable, DeadlineExceeded after the
// request may have been sent); the caller must re-read and compare, never retry blindly.
template <typename Response>
struct Reply final {
    grpc::Status status;
    Response response;
    bool unknownOutcome = false;
    bool ok() const { return status.ok(); }
};

class CoreThreadPoster;
class WatchStream;
struct WatchStreamLink;

// An asynchronous etcd v3 client for the core thread, over gRPC's callback API: gRPC runs
// the calls on its own threads and every completion comes back to the thread that created
// the client as a queued event (CoreThreadPoster), where it resumes the awaiting coroutine.
// The core thread never blocks on the network.
//
// Several endpoints (cluster members): calls go to the current one; an Unavailable answer
// moves to the next. Idempotent calls (range, compact, status, watch creation) are retried
// on the next members; a txn is sent once and reports an unknown outcome instead.
// Create, call and destroy on one thread. A pending call holds the client's shared state, so
// it still completes (on that thread) when the client object is gone.
class EtcdClient final {
public:
    struct Options {
        Options() = default;
        // "http://host:port", "https://host:port" or "host:port".
        std::vector<std::string> endpoints;
        // The deadline of one unary call.
        std::chrono::milliseconds requestTimeout{10000};
    };

    explicit EtcdClient(Options options);
    ~EtcdClient();
    EtcdClient(const EtcdClient &) = delete;
    EtcdClient &operator=(const EtcdClient &) = delete;

    QCoro::Task<Reply<pb::RangeResponse>> range(pb::RangeRequest request);
    QCoro::Task<Reply<pb::TxnResponse>> txn(pb::TxnRequest request);
    QCoro::Task<Reply<pb::CompactionResponse>> compact(pb::CompactionRequest request);
    QCoro::Task<Reply<pb::StatusResponse>> status();

    // Opens a Watch stream on the current endpoint. `onResponse` and `onClosed` run on the
    // client's thread; after onClosed nothing more arrives. The stream holds what it needs:
    // it may outlive the client (its callbacks are then dropped).
    std::shared_ptr<WatchStream> openWatch(std::function<void(pb::WatchResponse)> onResponse,
                                           std::function<void(grpc::Status)> onClosed);

    // Moves to the next endpoint (after a failure on `endpoint`, unless someone already did).
    void failover(std::size_t endpoint);
    std::size_t currentEndpoint() const;
    std::chrono::milliseconds requestTimeout() const;
    const std::vector<std::string> &endpoints() const;

    struct Shared;

private:
    std::shared_ptr<Shared> m_shared;
};

// One bidirectional Watch stream. Writes are queued (gRPC allows one at a time).
class WatchStream final {
public:
    class Reactor;
    explicit WatchStream(Reactor *reactor);
    ~WatchStream();
    void send(pb::WatchRequest request);
    // Ends the stream; onClosed follows (with Cancelled).
    void cancel();

private:
    friend class Reactor;
    std::shared_ptr<WatchStreamLink> m_link;
};

// "mvcc: required revision has been compacted" and friends: the gRPC message etcd sends.
bool isCompacted(const grpc::Status &status);
bool isFutureRevision(const grpc::Status &status);

} // namespace rvscope::storage::etcd
