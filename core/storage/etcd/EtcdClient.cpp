// SPDX-License-Identifier: MIT
#include "storage/etcd/EtcdClient.h"

#include <climits>
#include <coroutine>
#include <deque>
#include <map>
#include <mutex>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <qcoro/qcorotimer.h>

namespace rvscope::storage::etcd {

// Hands work from gRPC's threads to the client's thread as queued events. Closed (under the
// mutex, so a post never races the receiver's deletion) when the client's state goes away.
class CoreThreadPoster final {
public:
    explicit CoreThreadPoster(QObject *receiver)
        : m_receiver(receiver)
    {
    }

    void post(std::function<void()> work)
    {
        std::lock_guard lock(m_mutex);
        if (m_receiver)
            QMetaObject::invokeMethod(m_receiver, std::move(work), Qt::QueuedConnection);
    }

    void close()
    {
        std::lock_guard lock(m_mutex);
        m_receiver = nullptr;
    }

private:
    std::mutex m_mutex;
    QObject *m_receiver;
};

struct EtcdClient::Shared {
    std::vector<std::string> endpoints;
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    std::vector<std::unique_ptr<pb::KV::Stub>> kv;
    std::vector<std::unique_ptr<pb::Watch::Stub>> watch;
    std::vector<std::unique_ptr<pb::Maintenance::Stub>> maintenance;
    std::size_t current = 0;
    std::chrono::milliseconds timeout{10000};
    std::unique_ptr<QObject> receiver;
    std::shared_ptr<CoreThreadPoster> poster;

    ~Shared() { poster->close(); }
};

namespace {

std::shared_ptr<grpc::Channel> makeChannel(const std::string &endpoint);

// One channel per endpoint for the whole process, never destroyed: gRPC corrupts its heap
// when the last reference to a channel goes on one of its own callback threads (a call or a
// stream that ends after its client), and storages on the same etcd share the connection.
std::shared_ptr<grpc::Channel> sharedChannel(const std::string &endpoint)
{
    static std::mutex mutex;
    static auto *channels = new std::map<std::string, std::shared_ptr<grpc::Channel>>();
    std::lock_guard lock(mutex);
    auto &channel = (*channels)[endpoint];
    if (!channel)
        channel = makeChannel(endpoint);
    return channel;
}

std::shared_ptr<grpc::Channel> makeChannel(const std::string &endpoint)
{
    std::string target = endpoint;
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (target.rfind("http://", 0) == 0) {
        target.erase(0, 7);
    } else if (target.rfind("https://", 0) == 0) {
        target.erase(0, 8);
        credentials = grpc::SslCredentials(grpc::SslCredentialsOptions());
    }
    while (!target.empty() && target.back() == '/')
        target.pop_back();
    grpc::ChannelArguments arguments;
    // A list of many objects arrives in one RangeResponse; etcd itself bounds what it sends.
    arguments.SetMaxReceiveMessageSize(INT_MAX);
    // Fail over quickly: a member that went away is retried within a second, not minutes.
    arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
    return grpc::CreateCustomChannel(target, credentials, arguments);
}

template <typename Request, typename Response>
struct UnaryCall {
    grpc::ClientContext context;
    Request request;
    Response response;
    grpc::Status status;
    std::coroutine_handle<> waiter;
};

template <typename Request, typename Response>
using StartCall = void (*)(EtcdClient::Shared &shared, std::size_t endpoint, UnaryCall<Request, Response> &call,
                           std::function<void(grpc::Status)> done);

// Suspends until gRPC completes the call, then resumes on the client's thread.
template <typename Request, typename Response>
struct UnaryAwaiter {
    std::shared_ptr<EtcdClient::Shared> shared;
    std::size_t endpoint;
    std::shared_ptr<UnaryCall<Request, Response>> call;
    StartCall<Request, Response> start;

    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> handle)
    {
        call->waiter = handle;
        std::shared_ptr<CoreThreadPoster> poster = shared->poster;
        auto completed = call;
        start(*shared, endpoint, *call, [completed, poster](grpc::Status status) {
            completed->status = std::move(status);
            poster->post([completed]() { completed->waiter.resume(); });
        });
    }
    void await_resume() const noexcept {}
};

bool shouldFailOver(grpc::StatusCode code)
{
    return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED;
}

// One unary call with failover. Idempotent calls go round the members (pausing between
// rounds) until the deadline; the others are sent once, and a transport failure reports an
// unknown outcome.
template <typename Request, typename Response>
QCoro::Task<Reply<Response>> unary(std::shared_ptr<EtcdClient::Shared> shared, Request request,
                                   StartCall<Request, Response> start, bool idempotent)
{
    Reply<Response> reply;
    const std::size_t members = shared->channels.size();
    // An idempotent call goes on until its deadline: long enough for a cluster to elect a
    // new leader after one went away ("etcdserver: no leader" is Unavailable too).
    const auto deadline = std::chrono::steady_clock::now() + shared->timeout;
    for (std::size_t attempt = 0;; ++attempt) {
        const std::size_t endpoint = shared->current;
        auto call = std::make_shared<UnaryCall<Request, Response>>();
        call->request = request;
        call->context.set_deadline(std::chrono::system_clock::now() + shared->timeout);
        UnaryAwaiter<Request, Response> awaiter{shared, endpoint, call, start};
        co_await awaiter;
        if (call->status.ok()) {
            reply.status = grpc::Status::OK; // an earlier attempt may have failed
            reply.response = std::move(call->response);
            co_return reply;
        }
        reply.status = call->status;
        if (!shouldFailOver(call->status.error_code()))
            co_return reply;
        if (shared->current == endpoint)
            shared->current = (endpoint + 1) % members;
        if (!idempotent) {
            reply.unknownOutcome = true;
            co_return reply;
        }
        if (std::chrono::steady_clock::now() >= deadline)
            co_return reply;
        if ((attempt + 1) % members == 0)
            co_await QCoro::sleepFor(std::chrono::milliseconds(100));
    }
}

} // namespace

EtcdClient::EtcdClient(Options options)
    : m_shared(std::make_shared<Shared>())
{
    m_shared->receiver = std::make_unique<QObject>();
    m_shared->poster = std::make_shared<CoreThreadPoster>(m_shared->receiver.get());
    m_shared->timeout = options.requestTimeout;
    m_shared->endpoints = std::move(options.endpoints);
    if (m_shared->endpoints.empty())
        m_shared->endpoints.push_back("http://127.0.0.1:2379");
    for (const std::string &endpoint : m_shared->endpoints) {
        auto channel = sharedChannel(endpoint);
        m_shared->kv.push_back(pb::KV::NewStub(channel));
        m_shared->watch.push_back(pb::Watch::NewStub(channel));
        m_shared->maintenance.push_back(pb::Maintenance::NewStub(channel));
        m_shared->channels.push_back(std::move(channel));
    }
}

// Pending calls hold the shared state: they still complete, on this thread.
EtcdClient::~EtcdClient() = default;

QCoro::Task<Reply<pb::RangeResponse>> EtcdClient::range(pb::RangeRequest request)
{
    StartCall<pb::RangeRequest, pb::RangeResponse> start = [](Shared &shared, std::size_t endpoint, auto &call,
                                                              std::function<void(grpc::Status)> done) {
        shared.kv[endpoint]->async()->Range(&call.context, &call.request, &call.response, std::move(done));
    };
    return unary(m_shared, std::move(request), start, true);
}

QCoro::Task<Reply<pb::TxnResponse>> EtcdClient::txn(pb::TxnRequest request)
{
    StartCall<pb::TxnRequest, pb::TxnResponse> start = [](Shared &shared, std::size_t endpoint, auto &call,
                                                          std::function<void(grpc::Status)> done) {
        shared.kv[endpoint]->async()->Txn(&call.context, &call.request, &call.response, std::move(done));
    };
    return unary(m_shared, std::move(request), start, false);
}

QCoro::Task<Reply<pb::CompactionResponse>> EtcdClient::compact(pb::CompactionRequest request)
{
    // Compacting to a revision twice is harmless (the second answers "compacted").
    StartCall<pb::CompactionRequest, pb::CompactionResponse> start =
        [](Shared &shared, std::size_t endpoint, auto &call, std::function<void(grpc::Status)> done) {
            shared.kv[endpoint]->async()->Compact(&call.context, &call.request, &call.response, std::move(done));
        };
    return unary(m_shared, std::move(request), start, true);
}

QCoro::Task<Reply<pb::StatusResponse>> EtcdClient::status()
{
    StartCall<pb::StatusRequest, pb::StatusResponse> start =
        [](Shared &shared, std::size_t endpoint, auto &call, std::function<void(grpc::Status)> done) {
            shared.maintenance[endpoint]->async()->Status(&call.context, &call.request, &call.response,
                                                          std::move(done));
        };
    return unary(m_shared, pb::StatusRequest(), start, true);
}

void EtcdClient::failover(std::size_t endpoint)
{
    if (m_shared->current == endpoint)
        m_shared->current = (endpoint + 1) % m_shared->channels.size();
}

std::chrono::milliseconds EtcdClient::requestTimeout() const
{
    return m_shared->timeout;
}

std::size_t EtcdClient::currentEndpoint() const
{
    return m_shared->current;
}

const std::vector<std::string> &EtcdClient::endpoints() const
{
    return m_shared->endpoints;
}

// ---- Watch streams -------------------------------------------------------------------------

struct WatchStreamLink {
    std::mutex mutex;
    WatchStream::Reactor *reactor = nullptr; // null once the stream is done
};

class WatchStream::Reactor final : public grpc::ClientBidiReactor<pb::WatchRequest, pb::WatchResponse> {
public:
    Reactor(std::shared_ptr<CoreThreadPoster> poster,
            std::shared_ptr<std::function<void(pb::WatchResponse)>> onResponse,
            std::shared_ptr<std::function<void(grpc::Status)>> onClosed)
        : m_poster(std::move(poster))
        , m_onResponse(std::move(onResponse))
        , m_onClosed(std::move(onClosed))
        , m_link(std::make_shared<WatchStreamLink>())
    {
        m_link->reactor = this;
    }

    void start(pb::Watch::Stub &stub)
    {
        stub.async()->Watch(&m_context, this);
        // Writes start outside the reactions (send(), from the core thread), and gRPC's
        // count of operations in flight does not cover a write started after it reached
        // zero: OnDone could delete the context under that write (AddressSanitizer saw it).
        // The hold keeps OnDone back until the stream is over and no write may start.
        AddHold();
        StartRead(&m_incoming);
        StartCall();
    }

    const std::shared_ptr<WatchStreamLink> &link() const { return m_link; }

    void send(pb::WatchRequest request)
    {
        std::lock_guard lock(m_mutex);
        if (m_over)
            return;
        m_outgoing.push_back(std::move(request));
        if (!m_writing) {
            m_writing = true;
            StartWrite(&m_outgoing.front());
        }
    }

    void cancel() { m_context.TryCancel(); }

    void OnReadDone(bool ok) override
    {
        if (!ok) {
            // The stream is over: no write starts from now on, and OnDone follows the last
            // one in flight. (Outside the lock: OnDone may run within RemoveHold.)
            {
                std::lock_guard lock(m_mutex);
                m_over = true;
            }
            RemoveHold();
            return;
        }
        auto onResponse = m_onResponse;
        m_poster->post([onResponse, response = std::move(m_incoming)]() mutable { (*onResponse)(std::move(response)); });
        m_incoming.Clear();
        StartRead(&m_incoming);
    }

    void OnWriteDone(bool ok) override
    {
        std::lock_guard lock(m_mutex);
        m_writing = false;
        if (!ok) {
            m_outgoing.clear();
            return;
        }
        m_outgoing.pop_front();
        if (!m_outgoing.empty()) {
            m_writing = true;
            StartWrite(&m_outgoing.front());
        }
    }

    void OnDone(const grpc::Status &status) override
    {
        {
            std::lock_guard lock(m_link->mutex);
            m_link->reactor = nullptr;
        }
        auto onClosed = m_onClosed;
        m_poster->post([onClosed, status]() { (*onClosed)(status); });
        delete this;
    }

private:
    std::shared_ptr<CoreThreadPoster> m_poster;
    std::shared_ptr<std::function<void(pb::WatchResponse)>> m_onResponse;
    std::shared_ptr<std::function<void(grpc::Status)>> m_onClosed;
    std::shared_ptr<WatchStreamLink> m_link;
    grpc::ClientContext m_context;
    pb::WatchResponse m_incoming;
    std::recursive_mutex m_mutex; // gRPC may run a reaction inline from StartWrite
    std::deque<pb::WatchRequest> m_outgoing; // front: being written (deque keeps it in place)
    bool m_writing = false;
    bool m_over = false; // the stream has ended: send() starts no write
};

WatchStream::WatchStream(Reactor *reactor)
    : m_link(reactor->link())
{
}

WatchStream::~WatchStream()
{
    cancel();
}

void WatchStream::send(pb::WatchRequest request)
{
    std::lock_guard lock(m_link->mutex);
    if (m_link->reactor)
        m_link->reactor->send(std::move(request));
}

void WatchStream::cancel()
{
    std::lock_guard lock(m_link->mutex);
    if (m_link->reactor)
        m_link->reactor->cancel();
}

std::shared_ptr<WatchStream> EtcdClient::openWatch(std::function<void(pb::WatchResponse)> onResponse,
                                                   std::function<void(grpc::Status)> onClosed)
{
    const std::size_t endpoint = m_shared->current;
    auto *reactor = new WatchStream::Reactor(
        m_shared->poster,
        std::make_shared<std::function<void(pb::WatchResponse)>>(std::move(onResponse)),
        std::make_shared<std::function<void(grpc::Status)>>(std::move(onClosed)));
    auto stream = std::make_shared<WatchStream>(reactor);
    reactor->start(*m_shared->watch[endpoint]); // from here on the reactor owns itself
    return stream;
}

bool isCompacted(const grpc::Status &status)
{
    return status.error_message().find("required revision has been compacted") != std::string::npos;
}

bool isFutureRevision(const grpc::Status &status)
{
    return status.error_message().find("required revision is a future revision") != std::string::npos;
}

} // namespace rvscope::storage::etcd
