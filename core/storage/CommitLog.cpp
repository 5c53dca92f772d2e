// SPDX-License-Identifier: MIT
#include "storage/CommitLog.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <variant>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "model/JsonParse.h"

namespace rvscope::storage {
namespace {

// CRC-32 (IEEE), as zlib computes it (several bytes per step instead of one).
std::uint32_t crc32(std::string_view bytes)
{
    uLong crc = ::crc32(0L, Z_NULL, 0);
    while (!bytes.empty()) {
        const uInt chunk = uInt(std::min<std::size_t>(bytes.size(), 1u << 30));
        crc = ::crc32(crc, reinterpret_cast<const Bytef *>(bytes.data()), chunk);
        bytes.remove_prefix(chunk);
    }
    return std::uint32_t(crc);
}

// "<crc32 as 8 hex digits> <json>\n"
void appendLine(std::string &out, const std::string &json)
{
    char prefix[10];
    std::snprintf(prefix, sizeof prefix, "%08x ", crc32(json));
    out.append(prefix, 9);
    out += json;
    out += '\n';
}

// The JSON of a well-formed line (without its newline), or nothing.
std::optional<std::string_view> checkedJson(std::string_view line)
{
    if (line.size() < 10 || line[8] != ' ')
        return std::nullopt;
    std::uint32_t expected = 0;
    for (int i = 0; i < 8; ++i) {
        const char c = line[std::size_t(i)];
        const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0)
            return std::nullopt;
        expected = expected * 16 + std::uint32_t(digit);
    }
    const std::string_view json = line.substr(9);
    if (crc32(json) != expected)
        return std::nullopt;
    return json;
}

// One line of a snapshot or log, read from `start`.
struct Line {
    std::size_t next = 0;                 // where the following line starts (the end when unfinished)
    std::optional<std::string_view> json; // the line is whole and its checksum holds
    std::optional<nlohmann::json> record; // ... and it is a JSON object
};

Line readLine(std::string_view contents, std::size_t start)
{
    Line line;
    const std::size_t end = contents.find('\n', start);
    line.next = end == std::string_view::npos ? contents.size() : end + 1;
    if (end != std::string_view::npos)
        line.json = checkedJson(contents.substr(start, end - start));
    if (line.json) {
        if (auto parsed = model::parseJson(*line.json); parsed && parsed->is_object())
            line.record = std::move(parsed);
    }
    return line;
}

// Records and snapshot entries end with ,"o":<object JSON>}; the object's bytes are kept as
// they were written (they are the stored encoding, resourceVersion included).
std::string objectBytes(std::string_view json)
{
    const std::size_t at = json.find(",\"o\":");
    if (at == std::string_view::npos || json.size() < at + 6)
        return {};
    return std::string(json.substr(at + 5, json.size() - at - 6));
}

std::string quoted(const std::string &text)
{
    return nlohmann::json(text).dump();
}

std::string errnoText(const std::string &what, const std::string &path)
{
    return what + " " + path + ": " + std::strerror(errno);
}

bool writeAllAt(int fd, std::string_view bytes, std::uint64_t offset)
{
    while (!bytes.empty()) {
        const ssize_t written = ::pwrite(fd, bytes.data(), bytes.size(), off_t(offset));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        bytes.remove_prefix(std::size_t(written));
        offset += std::uint64_t(written);
    }
    return true;
}

bool readFile(const std::string &path, std::string &contents)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    contents = std::move(buffer).str();
    return true;
}

std::string recordJson(const CommitLog::Record &record)
{
    std::string json = "{\"r\":" + std::to_string(record.revision) + ",\"t\":\"" + char(record.change) + "\"";
    json += ",\"k\":" + quoted(record.key);
    if (record.change == CommitLog::Change::Put)
        json += ",\"o\":" + record.object;
    json += '}';
    return json;
}

// Format 2: a header, the state at `base` ("m", "k", "o" per key), then the records after it.
std::string snapshotFile(Revision revision, Revision base, const std::map<std::string, CommitLog::Entry> &entries,
                         const std::vector<CommitLog::Record> &records)
{
    std::string out;
    appendLine(out, "{\"format\":2,\"revision\":" + std::to_string(revision) + ",\"base\":" + std::to_string(base)
                        + "}");
    for (const auto &[key, entry] : entries)
        appendLine(out, "{\"m\":" + std::to_string(entry.modRevision) + ",\"k\":" + quoted(key) + ",\"o\":"
                            + entry.object + "}");
    for (const CommitLog::Record &record : records)
        appendLine(out, recordJson(record));
    return out;
}

// Writes `contents` to `path` atomically: a temporary file, fsync, rename, fsync of the
// directory.
bool replaceFile(const std::string &path, const std::string &contents, std::string &error)
{
    const std::string temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = errnoText("cannot create", temporary);
        return false;
    }
    const bool written = writeAllAt(fd, contents, 0) && ::fsync(fd) == 0;
    if (!written)
        error = errnoText("cannot write", temporary);
    ::close(fd);
    if (!written)
        return false;
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        error = errnoText("cannot rename", temporary);
        return false;
    }
    const std::string directory = std::filesystem::path(path).parent_path().string();
    const int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return true;
}

model::Status corrupt(const std::string &path, std::size_t line, const std::string &why)
{
    return model::Status::internalError("data directory: " + path + " line " + std::to_string(line) + ": " + why
                                        + " (the file is damaged; move it away to start without it)");
}

std::optional<Revision> numberField(const nlohmann::json &record, const char *field)
{
    auto it = record.find(field);
    if (it == record.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<Revision>();
}

// Reads one commit record ("r", "t", "k", "o"; the "c" older logs carry is ignored). A
// compaction record ("t":"C") has no key.
std::variant<CommitLog::Record, std::string> parseRecord(const nlohmann::json &record, std::string_view json)
{
    const auto revision = numberField(record, "r");
    auto type = record.find("t");
    if (!revision || type == record.end() || !type->is_string() || type->get_ref<const std::string &>().size() != 1)
        return std::string("not a commit record");
    CommitLog::Record parsed;
    parsed.revision = *revision;
    const char change = type->get_ref<const std::string &>()[0];
    if (change == 'C')
        return parsed; // key left empty
    if (change != 'P' && change != 'D')
        return "an unknown change \"" + type->get<std::string>() + "\"";
    parsed.change = CommitLog::Change(change);
    auto key = record.find("k");
    if (key == record.end() || !key->is_string() || key->get_ref<const std::string &>().empty())
        return std::string("a commit record without a key");
    parsed.key = key->get<std::string>();
    if (parsed.change == CommitLog::Change::Put) {
        parsed.object = objectBytes(json);
        if (parsed.object.empty())
            return std::string("a put without its object");
    }
    return parsed;
}

void applyRecord(const CommitLog::Record &record, std::map<std::string, CommitLog::Entry> &entries)
{
    if (record.change == CommitLog::Change::Delete)
        entries.erase(record.key);
    else
        entries[record.key] = CommitLog::Entry{record.object, record.revision};
}

} // namespace

model::Result<std::shared_ptr<CommitLog>> CommitLog::open(const std::string &directory, const std::string &series,
                                                          std::size_t historyLimit, Recovered &recovered)
{
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec)
        return model::Status::internalError("cannot create the data directory " + directory + ": " + ec.message());
    const std::string base = (std::filesystem::path(directory) / series).string();
    const std::string logPath = base + ".log";
    const std::string snapshotPath = base + ".snapshot";
    recovered = Recovered();
    // One writer per series: a second rvscope on the same directory would interleave its
    // records with ours. The lock goes with the descriptor (and with the process).
    const std::string lockPath = base + ".lock";
    const int lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lockFd < 0)
        return model::Status::internalError(errnoText("cannot open", lockPath));
    if (::flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
        ::close(lockFd);
        return model::Status::internalError("data directory " + directory + " is in use by another rvscope (" + lockPath
                                            + " is locked)");
    }
    struct LockGuard {
        int fd;
        ~LockGuard()
        {
            if (fd >= 0)
                ::close(fd);
        }
    } lock{lockFd};

    std::string contents;
    if (readFile(snapshotPath, contents)) {
        Revision declared = 0;
        for (std::size_t start = 0, lineNumber = 1; start < contents.size(); ++lineNumber) {
            const Line line = readLine(contents, start);
            if (!line.record) // written whole and renamed into place: any flaw is damage
                return corrupt(snapshotPath, lineNumber, "unfinished line, or checksum or JSON does not match");
            const nlohmann::json &record = *line.record;
            if (lineNumber == 1) {
                declared = record.value("revision", Revision(0));
                recovered.base = recovered.revision = record.value("base", declared); // format 1: no history
            } else if (record.contains("r")) {
                auto parsed = parseRecord(record, *line.json);
                if (auto *problem = std::get_if<std::string>(&parsed))
                    return corrupt(snapshotPath, lineNumber, *problem);
                recovered.revision = std::get<Record>(parsed).revision;
                recovered.records.push_back(std::move(std::get<Record>(parsed)));
            } else {
                recovered.entries[record.value("k", std::string())] =
                    Entry{objectBytes(*line.json), record.value("m", Revision(0))};
            }
            start = line.next;
        }
        if (recovered.revision != declared)
            return corrupt(snapshotPath, 1, "the history does not end at the snapshot's revision");
    }

    Revision compacted = 0;
    std::uint64_t zeroedEnd = 0;
    if (readFile(logPath, contents)) {
        // The lines end at the first zero byte (no line holds one: JSON escapes control
        // characters); the zeros the writer laid down ahead follow. Other bytes past it were
        // written but never synced (never acknowledged) and are dropped like a torn line,
        // unless they hold a whole record: the writer's lines never follow its zeros, so that
        // is damage, or a disk that lost a sync, and an error.
        const std::string_view all(contents);
        const std::size_t zeros = std::min(all.find('\0'), all.size());
        bool beyond = false;
        for (std::size_t at = all.find_first_not_of('\0', zeros); at != std::string_view::npos;
             at = all.find_first_not_of('\0', at)) {
            beyond = true;
            const std::string_view stretch = all.substr(at, std::min(all.find('\0', at), all.size()) - at);
            for (std::size_t start = 0; start < stretch.size();) {
                const Line line = readLine(stretch, start);
                if (line.json) {
                    const auto lineNumber = std::size_t(std::count(all.begin(), all.begin() + std::ptrdiff_t(zeros), '\n'));
                    return corrupt(logPath, lineNumber + 1, "a whole record after zeros");
                }
                start = line.next;
            }
            at += stretch.size();
        }
        if (beyond)
            recovered.tornBytes += contents.size() - zeros;
        else
            zeroedEnd = contents.size();
        contents.resize(zeros);
        for (std::size_t start = 0, lineNumber = 1; start < contents.size(); ++lineNumber) {
            const Line line = readLine(contents, start);
            if (!line.record) {
                // A record the writer never finished is the log's last; a whole record after
                // a bad one means damage, not a crash.
                for (std::size_t next = line.next; next < contents.size();) {
                    const Line later = readLine(contents, next);
                    if (later.json)
                        return corrupt(logPath, lineNumber, "checksum or JSON does not match");
                    next = later.next;
                }
                recovered.tornBytes += contents.size() - start;
                break;
            }
            auto parsed = parseRecord(*line.record, *line.json);
            if (auto *problem = std::get_if<std::string>(&parsed))
                return corrupt(logPath, lineNumber, *problem);
            Record &record = std::get<Record>(parsed);
            ++recovered.logRecords;
            start = line.next;
            if (record.key.empty()) {
                compacted = std::max(compacted, record.revision);
            } else if (record.revision > recovered.revision) { // else: already in the snapshot
                recovered.revision = record.revision;
                recovered.records.push_back(std::move(record));
            }
        }
    }

    // Fold what the history may no longer hold into the base state.
    std::size_t folded = 0;
    while (folded < recovered.records.size()
           && (recovered.records.size() - folded > historyLimit || recovered.records[folded].revision < compacted)) {
        applyRecord(recovered.records[folded], recovered.entries);
        recovered.base = recovered.records[folded].revision;
        ++folded;
    }
    recovered.records.erase(recovered.records.begin(), recovered.records.begin() + std::ptrdiff_t(folded));

    const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return model::Status::internalError(errnoText("cannot open", logPath));
    std::shared_ptr<CommitLog> log(new CommitLog(logPath, snapshotPath, fd));
    log->m_lockFd = std::exchange(lock.fd, -1);
    std::string error;
    if (recovered.logRecords > 0 || recovered.tornBytes > 0 || folded > 0) {
        // Start from a snapshot of what was replayed, and an empty log.
        if (!replaceFile(snapshotPath,
                         snapshotFile(recovered.revision, recovered.base, recovered.entries, recovered.records), error))
            return model::Status::internalError(error);
        if (::ftruncate(fd, 0) != 0 || ::fdatasync(fd) != 0)
            return model::Status::internalError(errnoText("cannot truncate", logPath));
        zeroedEnd = 0;
    }
    // Either way the log holds no line now: the next one goes at its start.
    log->m_zeroedEnd = zeroedEnd;
    log->m_writer = std::thread([raw = log.get()] { raw->writerLoop(); });
    return log;
}

CommitLog::CommitLog(std::string logPath, std::string snapshotPath, int logFd)
    : m_logPath(std::move(logPath))
    , m_snapshotPath(std::move(snapshotPath))
    , m_logFd(logFd)
{
}

CommitLog::~CommitLog()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_writer.joinable())
        m_writer.join(); // what was queued is on disk when this returns
    if (m_logFd >= 0)
        ::close(m_logFd);
    if (m_lockFd >= 0)
        ::close(m_lockFd); // releases the directory
}

void CommitLog::queueLine(std::string json, std::uint64_t sequence)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_pending.empty() || m_pending.back().snapshot)
            m_pending.emplace_back();
        Batch &batch = m_pending.back();
        m_bytesSinceSnapshot += json.size() + LINE_FRAMING_BYTES;
        batch.records.push_back(std::move(json));
        batch.lastSequence = std::max(batch.lastSequence, sequence);
    }
    m_wake.notify_one();
}

std::uint64_t CommitLog::append(Change change, Revision revision, const std::string &key, const std::string &object)
{
    const std::uint64_t sequence = m_nextSequence++;
    // The record is built here, not in a Record, to copy the object's bytes once.
    std::string json = "{\"r\":" + std::to_string(revision) + ",\"t\":\"" + char(change) + "\",\"k\":" + quoted(key);
    if (change == Change::Put)
        json += ",\"o\":" + object;
    json += '}';
    queueLine(std::move(json), sequence);
    return sequence;
}

void CommitLog::appendCompaction(Revision revision)
{
    queueLine("{\"r\":" + std::to_string(revision) + ",\"t\":\"C\"}", m_nextSequence - 1);
}

void CommitLog::snapshot(Revision revision, Revision base, std::map<std::string, Entry> entries,
                         std::vector<Record> records)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_pending.empty() || m_pending.back().snapshot)
            m_pending.emplace_back();
        m_pending.back().snapshot = SnapshotParts{revision, base, std::move(entries), std::move(records)};
        m_pending.back().lastSequence = m_nextSequence - 1;
        m_bytesSinceSnapshot = 0;
    }
    m_wake.notify_one();
}

void CommitLog::holdWrites(bool held)
{
    {
        std::lock_guard lock(m_mutex);
        m_held = held;
    }
    m_wake.notify_one();
}

std::string CommitLog::failure() const
{
    std::lock_guard lock(m_mutex);
    return m_failure;
}

void CommitLog::writerLoop()
{
    for (;;) {
        std::vector<Batch> batches;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || (!m_pending.empty() && !m_held); });
            if (m_pending.empty())
                return; // stopping, and everything is written
            batches.swap(m_pending);
        }
        std::uint64_t through = 0;
        std::string error;
        for (Batch &batch : batches) {
            // After a failed write nothing more is written: a later line would follow a hole
            // (a smaller batch fits the zeros a larger one could not extend), and replay
            // would find a record whose predecessors are missing.
            if (!m_writeFailed && !writeBatch(batch, error))
                m_writeFailed = true;
            through = std::max(through, batch.lastSequence);
        }
        const bool failed = m_writeFailed;
        if (failed) {
            std::lock_guard lock(m_mutex);
            if (m_failure.empty())
                m_failure = error;
        }
        QMetaObject::invokeMethod(&m_context, [this, through, failed] { markDurable(through, failed); },
                                  Qt::QueuedConnection);
    }
}

bool CommitLog::writeBatch(Batch &batch, std::string &error)
{
    // Framed here, off the core thread: the checksum reads every byte of every record.
    if (!batch.records.empty()) {
        std::string lines;
        std::size_t size = 0;
        for (const std::string &record : batch.records)
            size += record.size() + LINE_FRAMING_BYTES;
        lines.reserve(size);
        for (const std::string &record : batch.records)
            appendLine(lines, record);
        if (!writeLines(lines, error))
            return false;
    }
    if (batch.snapshot) {
        // Every record so far is in the snapshot: once it is in place the log starts over.
        const SnapshotParts &parts = *batch.snapshot;
        if (!replaceFile(m_snapshotPath, snapshotFile(parts.revision, parts.base, parts.entries, parts.records), error))
            return false;
        if (::ftruncate(m_logFd, 0) != 0 || ::fdatasync(m_logFd) != 0) {
            error = errnoText("cannot truncate", m_logPath);
            return false;
        }
        m_writeOffset = m_zeroedEnd = 0;
    }
    return true;
}

bool CommitLog::writeLines(const std::string &lines, std::string &error)
{
    const std::uint64_t end = m_writeOffset + lines.size();
    if (end > m_zeroedEnd) {
        // Zeros past the lines up to the next megabyte boundary and one more megabyte: this
        // sync commits the new size, the next ones only overwrite.
        static const std::string zeros(ZERO_AHEAD_BYTES, '\0');
        const std::uint64_t zeroedEnd = (end / ZERO_AHEAD_BYTES + 2) * ZERO_AHEAD_BYTES;
        for (std::uint64_t at = end; at < zeroedEnd;) {
            const std::size_t chunk = std::size_t(std::min<std::uint64_t>(zeroedEnd - at, zeros.size()));
            if (!writeAllAt(m_logFd, std::string_view(zeros).substr(0, chunk), at)) {
                error = errnoText("cannot write", m_logPath);
                return false;
            }
            at += chunk;
        }
        m_zeroedEnd = zeroedEnd;
    }
    if (!writeAllAt(m_logFd, lines, m_writeOffset) || ::fdatasync(m_logFd) != 0) {
        error = errnoText("cannot write", m_logPath);
        return false;
    }
    m_writeOffset = end;
    return true;
}

void CommitLog::markDurable(std::uint64_t sequence, bool failed)
{
    m_durable = std::max(m_durable, sequence);
    const bool newlyFailed = failed && !m_failed;
    m_failed = m_failed || failed;
    if (newlyFailed)
        qWarning("rvscope: data directory: %s; changes are kept in memory only", failure().c_str());
    if (m_durableListener)
        m_durableListener();
    std::vector<std::coroutine_handle<>> ready;
    for (auto it = m_waiters.begin(); it != m_waiters.end() && it->first <= m_durable;)
        ready.push_back(it->second), it = m_waiters.erase(it);
    for (std::coroutine_handle<> handle : ready)
        handle.resume();
}

bool CommitLog::DurableAwaiter::await_ready() const noexcept
{
    return !log || log->m_durable >= sequence;
}

void CommitLog::DurableAwaiter::await_suspend(std::coroutine_handle<> handle)
{
    log->m_waiters.emplace(sequence, handle);
}

bool CommitLog::DurableAwaiter::await_resume() const noexcept
{
    return !log || !log->m_failed;
}

} // namespace rvscope::storage
