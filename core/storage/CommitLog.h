// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <coroutine>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <QtCore/QObject>

#include "model/Result.h"
#include "storage/StorageTypes.h"

namespace rvscope::storage {

// The durable side of a MemoryStorage (`serve --data-dir DIR`), one per revision series.
//
// DIR/<series>.log gets one line per commit, "<crc32> <record JSON>", and a writer thread
// writes and fdatasyncs whatever accumulated since its last sync in one go (group commit);
// a write is acknowledged once its line is on disk (`durable`). The log's lines are followed
// by zero bytes the writer lays down ahead (a megabyte at a time, as etcd preallocates its
// WAL): a line then overwrites blocks the file already has, and its fdatasync flushes data
// without also committing a new file size (about 100 us against 155 us per sync here).
// Reading stops at the first zero byte, as etcd's WAL reader stops at its preallocated zeros:
// bytes past it that hold no whole record were never synced and are dropped like a torn
// line; a whole record there is damage (an error). After a failed write (disk full, I/O
// error) nothing more is written until a restart: later changes stay in memory only. DIR/<series>.snapshot holds
// the state at a base revision followed by the retained history (the records after the
// base), replaced atomically (write, fsync, rename); after a snapshot the log starts over.
// Opening replays the snapshot and then the log, so watch history survives a restart. A
// torn last line (a crash in the middle of a write that was never acknowledged) is dropped;
// any other damage is an error, not a silent loss. DIR/<series>.lock is flock'd while the
// log is open: a second process on the same directory is refused.
//
// Everything but the writer thread runs on the core thread.
class CommitLog final {
public:
    enum class Change : char { Put = 'P', Delete = 'D' };
    // A key's state as the log restores it.
    struct Entry {
        std::string object; // its JSON bytes, resourceVersion included
        Revision modRevision = 0;
    };
    // One committed change.
    struct Record {
        Revision revision = 0;
        Change change = Change::Put;
        std::string key;
        std::string object; // Put: the stored JSON bytes
    };
    // What a data directory held: the state at `base` (`entries`) and every change after it
    // (`records`, the history a watch may resume from), up to `revision` (0: nothing was
    // ever written). At most `historyLimit` records are kept, and none older than the last
    // compaction: older ones are folded into the base state.
    struct Recovered {
        Revision revision = 0;
        Revision base = 0;
        std::map<std::string, Entry> entries;
        std::vector<Record> records;
        std::size_t logRecords = 0; // records replayed from the log after the snapshot
        std::size_t tornBytes = 0;  // bytes of an unfinished last record that were dropped
    };

    // Opens (creating the directory and files when missing) and replays. The log is
    // compacted into a fresh snapshot when it held records.
    static model::Result<std::shared_ptr<CommitLog>> open(const std::string &directory, const std::string &series,
                                                          std::size_t historyLimit, Recovered &recovered);
    ~CommitLog();
    CommitLog(const CommitLog &) = delete;
    CommitLog &operator=(const CommitLog &) = delete;

    // Queues one record; returns its sequence number for `durable`. Sequence numbers count
    // commits from 1 (the first after open), so a commit's sequence is its revision minus
    // the revision the log was opened at. `object` is the stored JSON for Put.
    std::uint64_t append(Change change, Revision revision, const std::string &key, const std::string &object = {});
    // Records that history before `revision` was compacted (no sequence number).
    void appendCompaction(Revision revision);
    // True when the log has grown enough that the owner should hand over a snapshot.
    bool wantsSnapshot() const { return m_bytesSinceSnapshot >= m_snapshotAfterBytes; }
    // Queues the state at `base` and the records after it up to `revision` (every record
    // appended so far is in it); the writer replaces the snapshot file and starts the log over.
    // (Taken by value: the writer thread formats and checksums it, off the core thread.)
    void snapshot(Revision revision, Revision base, std::map<std::string, Entry> entries, std::vector<Record> records);
    void setSnapshotAfterBytes(std::uint64_t bytes) { m_snapshotAfterBytes = bytes; }
    // While held, the writer writes nothing: a disk that has not synced yet (for tests of
    // what may be seen before a commit is durable).
    void holdWrites(bool held);

    // Awaits the record `sequence` (and all before it) on disk. Resumes with false when the
    // writer failed (disk full, I/O error): the change is in memory but not durable.
    struct DurableAwaiter {
        CommitLog *log; // null: nothing to wait for (memory only)
        std::uint64_t sequence;
        bool await_ready() const noexcept;
        void await_suspend(std::coroutine_handle<> handle);
        bool await_resume() const noexcept;
    };
    DurableAwaiter durable(std::uint64_t sequence) { return DurableAwaiter{this, sequence}; }
    std::uint64_t durableSequence() const { return m_durable; }
    // Called on the core thread each time more records are on disk (or the writer failed),
    // before the writes waiting for them resume.
    void setDurableListener(std::function<void()> listener) { m_durableListener = std::move(listener); }
    const std::string &logPath() const { return m_logPath; }
    const std::string &snapshotPath() const { return m_snapshotPath; }
    // The writer's first error ("" while none).
    std::string failure() const;

    static constexpr std::uint64_t DEFAULT_SNAPSHOT_AFTER_BYTES = 64ull * 1024 * 1024;

private:
    CommitLog(std::string logPath, std::string snapshotPath, int logFd);
    struct SnapshotParts {
        Revision revision = 0;
        Revision base = 0;
        std::map<std::string, Entry> entries;
        std::vector<Record> records;
    };
    // What the writer writes next: record texts, framed and checksummed by the writer
    // thread, then (when set) a whole snapshot.
    struct Batch {
        std::vector<std::string> records;
        std::uint64_t lastSequence = 0;
        std::optional<SnapshotParts> snapshot;
    };
    // A line's bytes beside its record: "<crc32 as 8 hex digits> " and the newline.
    static constexpr std::size_t LINE_FRAMING_BYTES = 10;
    void queueLine(std::string json, std::uint64_t sequence);
    void writerLoop();
    bool writeBatch(Batch &batch, std::string &error);
    bool writeLines(const std::string &lines, std::string &error);
    static constexpr std::uint64_t ZERO_AHEAD_BYTES = 1024 * 1024;
    void markDurable(std::uint64_t sequence, bool failed);

    const std::string m_logPath;
    const std::string m_snapshotPath;
    int m_logFd = -1;
    // Writer thread: where the next line goes, where the zeros laid down ahead end, and
    // whether a write failed (then nothing more is written).
    std::uint64_t m_writeOffset = 0;
    std::uint64_t m_zeroedEnd = 0;
    bool m_writeFailed = false;
    int m_lockFd = -1; // <series>.lock, flock'd while this log is open
    std::uint64_t m_snapshotAfterBytes = DEFAULT_SNAPSHOT_AFTER_BYTES;
    std::uint64_t m_bytesSinceSnapshot = 0;

    // Core thread.
    std::uint64_t m_nextSequence = 1;
    std::uint64_t m_durable = 0;
    bool m_failed = false;
    std::multimap<std::uint64_t, std::coroutine_handle<>> m_waiters;
    std::function<void()> m_durableListener;
    QObject m_context; // queued notifications from the writer land here, on the core thread

    // Shared with the writer thread.
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Batch> m_pending;
    bool m_stopping = false;
    bool m_held = false;
    std::string m_failure;
    std::thread m_writer;
};

} // namespace rvscope::storage
