// SPDX-License-Identifier: MIT
// MemoryStorage with a data directory (`serve --data-dir`): the whole conformance suite,
// then what durability adds: a restart restores objects and revisions, a write is on disk
// when it is acknowledged, a torn last record is dropped, damage is an error, and
// snapshots restart the log.
#include <csignal>

#include <sys/resource.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "StorageConformance.h"
#include "StorageConformanceSupport.h"
#include "TestSupport.h"
#include "storage/CommitLog.h"
#include "storage/MemoryStorage.h"

using namespace rvscope;
using conformance::dataOf;
using conformance::mustCreate;
using conformance::Recorder;
using conformance::rvOf;
using conformance::setData;
using storage::MemoryStorage;
using testing::configMap;
using testing::configMapKey;
using testing::run;

namespace {
QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// CRC-32 (IEEE 802.3, reflected 0xEDB88320) bit by bit, as its definition reads: the
// checksum the log's lines have carried since its first format.
quint32 crc32ByDefinition(const QByteArray &bytes)
{
    quint32 crc = 0xFFFFFFFFu;
    for (const char byte : bytes) {
        crc ^= static_cast<unsigned char>(byte);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return crc ^ 0xFFFFFFFFu;
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// The log's lines: what comes before the zeros the writer lays down ahead.
QByteArray logLines(const QString &path)
{
    const QByteArray bytes = readAll(path);
    const qsizetype zeros = bytes.indexOf('\0');
    return zeros < 0 ? bytes : bytes.left(zeros);
}

// Writes `bytes` into the file at `offset`, keeping the rest (a write the crash left behind).
bool writeAt(const QString &path, qint64 offset, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::ReadWrite) && file.seek(offset) && file.write(bytes) == bytes.size();
}
} // namespace

class TestDurableStorage final : public StorageConformance {
    Q_OBJECT

protected:
    std::unique_ptr<storage::Storage> createStorage() override
    {
        auto opened = MemoryStorage::openDurable(m_root.filePath(QString::number(++m_count)).toStdString(), "main", {});
        if (!opened)
            qFatal("cannot open a data directory: %s", opened.error().message.c_str());
        return std::move(opened).value();
    }
    bool holdDurability(storage::Storage &storage, bool held) override
    {
        static_cast<MemoryStorage &>(storage).commitLog()->holdWrites(held);
        return true;
    }

private Q_SLOTS:
    void testRestartRestoresObjectsAndRevision();
    void testWriteIsOnDiskWhenAcknowledged();
    void testRestartKeepsWatchHistory();
    void testRestartKeepsCompaction();
    void testRestartsKeepHistoryBounded();
    void testTornLastRecordIsDropped();
    void testDamagedRecordIsAnError();
    void testLinesCarryTheirCrc32();
    void testLogIsZeroedAhead();
    void testUnsyncedBytesPastTheZerosAreDropped();
    void testNothingIsWrittenAfterAFailedWrite();
    void testSnapshotRestartsTheLog();
    void testEmptyDirectoryStartsFresh();
    void testSecondOpenOfADirectoryIsRefused();

private:
    QString directory(const char *name) const { return m_root.filePath(QString::fromLatin1(name)); }
    std::unique_ptr<MemoryStorage> open(const QString &dir, MemoryStorage::Options options = {})
    {
        auto opened = MemoryStorage::openDurable(dir.toStdString(), "main", options);
        if (!opened) {
            m_lastError = opened.error().message;
            return nullptr;
        }
        return std::move(opened).value();
    }

    QTemporaryDir m_root;
    int m_count = 0;
    std::string m_lastError;
};

void TestDurableStorage::testRestartRestoresObjectsAndRevision()
{
    const QString dir = directory("restart");
    storage::Revision before = 0;
    std::string updatedRv;
    {
        auto storage = open(dir);
        QVERIFY(storage);
        run(storage->create(configMapKey("a"), configMap("a", "default", {{"k", "1"}}))).value();
        run(storage->create(configMapKey("b"), configMap("b"))).value();
        run(storage->create(configMapKey("c"), configMap("c"))).value();
        auto updated = run(storage->guaranteedUpdate(configMapKey("a"), {}, setData("k", "2")));
        QVERIFY(updated);
        updatedRv = updated->object->resourceVersion();
        QVERIFY(run(storage->remove(configMapKey("b"), {})));
        before = storage->revision();
    }
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->revision(), before);
    QCOMPARE(storage->objectCount(), std::size_t(2));
    auto a = run(storage->get(configMapKey("a")));
    QVERIFY(a);
    QCOMPARE(dataOf(*a, "k"), std::string("2"));
    QCOMPARE((*a)->resourceVersion(), updatedRv);
    QCOMPARE(run(storage->get(configMapKey("b"))).error().code, 404);
    // Revisions go on from where they were; an update preconditioned on the restored
    // resourceVersion succeeds, as a client that read before the restart expects.
    storage::Preconditions precondition;
    precondition.resourceVersion = updatedRv;
    auto next = run(storage->guaranteedUpdate(configMapKey("a"), precondition, setData("k", "3")));
    QVERIFY(next);
    QCOMPARE(rvOf(next->object), before + 1);
}

void TestDurableStorage::testWriteIsOnDiskWhenAcknowledged()
{
    const QString dir = directory("acknowledged");
    auto storage = open(dir);
    QVERIFY(storage);
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    for (int i = 0; i < 20; ++i) {
        const std::string name = "cm-" + std::to_string(i);
        run(storage->create(configMapKey(name), configMap(name))).value();
        // The call completed: its record is in the file (fdatasync'd before completion).
        QVERIFY(readAll(log).contains(QByteArray::fromStdString(name)));
    }
    QCOMPARE(storage->commitLog()->durableSequence(), std::uint64_t(20));
}

void TestDurableStorage::testRestartKeepsWatchHistory()
{
    const QString dir = directory("history");
    Recorder before;
    {
        auto storage = open(dir);
        auto watch = run(storage->watch("/registry/", 1, before.sink()));
        for (int i = 0; i < 3; ++i)
            mustCreate(*storage, "cm-" + std::to_string(i), {{"n", "0"}});
        QVERIFY(run(storage->guaranteedUpdate(configMapKey("cm-1"), {}, setData("n", "1"))));
        QVERIFY(run(storage->remove(configMapKey("cm-0"), {})));
    }
    QCOMPARE(before.revisions(), (std::vector<storage::Revision>{2, 3, 4, 5, 6}));
    // Reopened twice: the second replays the snapshot the first wrote.
    for (int restart = 0; restart < 2; ++restart) {
        auto storage = open(dir);
        QVERIFY2(storage, m_lastError.c_str());
        QCOMPARE(storage->revision(), storage::Revision(6));
        QCOMPARE(storage->oldestWatchableRevision(), storage::Revision(1));
        // A client that watched before the restart resumes where it was, as against etcd.
        Recorder after;
        auto watch = run(storage->watch("/registry/", 1, after.sink()));
        QVERIFY(watch);
        QCOMPARE(after.events.size(), before.events.size());
        for (std::size_t i = 0; i < after.events.size(); ++i) {
            QCOMPARE(int(after.events[i].type), int(before.events[i].type));
            QCOMPARE(after.events[i].key, before.events[i].key);
            QCOMPARE(after.events[i].object->bytes(), before.events[i].object->bytes());
            QCOMPARE(bool(after.events[i].previous), bool(before.events[i].previous));
        }
        storage::ListOptions atThree;
        atThree.revision = 3;
        auto listed = run(storage->list("/registry/", atThree));
        QVERIFY(listed);
        QCOMPARE(listed->items.size(), std::size_t(2));
    }
}

void TestDurableStorage::testRestartKeepsCompaction()
{
    const QString dir = directory("compacted");
    {
        auto storage = open(dir);
        for (int i = 0; i < 4; ++i)
            mustCreate(*storage, "cm-" + std::to_string(i));
        QCOMPARE(run(storage->compact(4)).value(), storage::Revision(4));
    }
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->oldestWatchableRevision(), storage::Revision(3));
    Recorder recorder;
    QCOMPARE(run(storage->watch("/registry/", 2, recorder.sink())).error().code, 410);
    QVERIFY(run(storage->watch("/registry/", 3, recorder.sink())));
    QCOMPARE(recorder.revisions(), (std::vector<storage::Revision>{4, 5}));
}

void TestDurableStorage::testRestartsKeepHistoryBounded()
{
    const QString dir = directory("bounded");
    MemoryStorage::Options options;
    options.historyLimit = 5;
    const QString snapshot = QDir(dir).filePath(QStringLiteral("main.snapshot"));
    qint64 firstSize = 0;
    for (int restart = 0; restart < 6; ++restart) {
        auto storage = open(dir, options);
        QVERIFY2(storage, m_lastError.c_str());
        for (int i = 0; i < 10; ++i)
            QVERIFY(run(storage->guaranteedUpdate(configMapKey("hot"), {}, setData("n", std::to_string(i)), {}, true)));
        QCOMPARE(storage->oldestWatchableRevision(), storage->revision() - 5);
        if (restart == 1)
            firstSize = QFileInfo(snapshot).size();
    }
    // Each open folds what the bound no longer keeps into the base state.
    QVERIFY(firstSize > 0);
    QVERIFY(QFileInfo(snapshot).size() <= firstSize + 64);
    auto storage = open(dir, options);
    QCOMPARE(storage->revision(), storage::Revision(1 + 60));
    QCOMPARE(storage->oldestWatchableRevision(), storage::Revision(61 - 5));
}

void TestDurableStorage::testTornLastRecordIsDropped()
{
    const QString dir = directory("torn");
    {
        auto storage = open(dir);
        run(storage->create(configMapKey("kept"), configMap("kept"))).value();
    }
    // A crash while the writer was writing: half a record after the last line.
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    QVERIFY(writeAt(log, logLines(log).size(),
                    "0badc0de {\"r\":9,\"t\":\"P\",\"c\":9,\"k\":\"/registry/configmaps/default/lost"));
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->objectCount(), std::size_t(1));
    QVERIFY(run(storage->get(configMapKey("kept"))));
    // Repaired on open: the state moved into the snapshot, the log starts empty.
    QCOMPARE(readAll(log), QByteArray());
    QVERIFY(readAll(QDir(dir).filePath(QStringLiteral("main.snapshot"))).contains("kept"));
}

void TestDurableStorage::testDamagedRecordIsAnError()
{
    const QString dir = directory("damaged");
    {
        auto storage = open(dir);
        // Not snapshotted: keep the records in the log.
        for (int i = 0; i < 3; ++i)
            run(storage->create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    }
    // Records replayed at open moved into a snapshot; write three fresh ones to damage.
    {
        auto storage = open(dir);
        for (int i = 3; i < 6; ++i)
            run(storage->create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    }
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    QByteArray bytes = readAll(log);
    QCOMPARE(logLines(log).count('\n'), 3);
    const qsizetype at = bytes.indexOf("cm-3");
    QVERIFY(at > 0);
    bytes[at + 3] = '9'; // the first record no longer matches its checksum; whole ones follow
    QVERIFY(writeAll(log, bytes));
    QVERIFY(!open(dir));
    QVERIFY2(m_lastError.find("main.log line 1") != std::string::npos, m_lastError.c_str());
    QVERIFY2(m_lastError.find("damaged") != std::string::npos, m_lastError.c_str());
    QCOMPARE(readAll(log), bytes); // nothing was repaired away
}

void TestDurableStorage::testLinesCarryTheirCrc32()
{
    // The on-disk format does not depend on how the checksum is computed: each line is
    // "<CRC-32 of the record as 8 hex digits> <record>", so older directories still open.
    const QString dir = directory("crc");
    open(dir); // the first open leaves an empty log
    {
        auto storage = open(dir);
        for (int i = 0; i < 3; ++i)
            run(storage->create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    }
    const QList<QByteArray> lines = logLines(QDir(dir).filePath(QStringLiteral("main.log"))).split('\n');
    QCOMPARE(lines.size(), 4); // three records and what follows the last newline
    for (int i = 0; i < 3; ++i) {
        const QByteArray &line = lines[i];
        QCOMPARE(line.at(8), ' ');
        bool parsed = false;
        QCOMPARE(line.left(8).toUInt(&parsed, 16), crc32ByDefinition(line.mid(9)));
        QVERIFY(parsed);
    }
    QVERIFY(open(dir)); // and they replay
}

void TestDurableStorage::testLogIsZeroedAhead()
{
    // Lines overwrite zeros laid down a megabyte ahead: their syncs commit no new file size.
    const QString dir = directory("zeroed");
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    std::size_t count = 0;
    {
        auto storage = open(dir);
        run(storage->create(configMapKey("one"), configMap("one"))).value();
        const QByteArray bytes = readAll(log);
        const QByteArray lines = logLines(log);
        QCOMPARE(lines.count('\n'), 1);
        QCOMPARE(bytes.size(), 2 * 1024 * 1024);
        QCOMPARE(bytes.mid(lines.size()), QByteArray(bytes.size() - lines.size(), '\0'));
        // Written past the zeros: they move on by whole megabytes, the lines stay whole.
        int created = 0;
        while (logLines(log).size() <= 2 * 1024 * 1024 && created < 4000) {
            const std::string name = "cm-" + std::to_string(created++);
            run(storage->create(configMapKey(name), testing::configMapOfSize(name, 2000))).value();
        }
        QVERIFY(logLines(log).size() > 2 * 1024 * 1024);
        QCOMPARE(logLines(log).count('\n'), created + 1);
        QCOMPARE(readAll(log).size(), 4 * 1024 * 1024);
        count = std::size_t(created + 1);
    }
    // Reopened: every line replays (then they move into the snapshot and the log starts over).
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->objectCount(), count);
    QCOMPARE(readAll(log), QByteArray());
    run(storage->create(configMapKey("two"), configMap("two"))).value();
    QCOMPARE(logLines(log).count('\n'), 1);
    QVERIFY(logLines(log).contains("\"two\""));
}

void TestDurableStorage::testUnsyncedBytesPastTheZerosAreDropped()
{
    // A crash can leave part of an unsynced write past the zeros: never acknowledged, it
    // is dropped, as a torn last line. A whole record there is no crash's doing: damage.
    const QString dir = directory("beyond");
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    {
        auto storage = open(dir);
        run(storage->create(configMapKey("kept"), configMap("kept"))).value();
    }
    const QByteArray line = logLines(log);
    const QByteArray before = readAll(log);
    QVERIFY(writeAt(log, 8192, line));
    QVERIFY(!open(dir));
    QVERIFY2(m_lastError.find("main.log line 2: a whole record after zeros") != std::string::npos, m_lastError.c_str());
    QCOMPARE(readAll(log).size(), before.size()); // nothing was repaired away
    QVERIFY(writeAt(log, 8192, QByteArray(line.size(), '\0')));
    QVERIFY(writeAt(log, 8192 + 100, line.left(line.size() / 2) + "\n" + line.mid(line.size() / 2, 40)));
    {
        auto storage = open(dir);
        QVERIFY2(storage, m_lastError.c_str());
        QCOMPARE(storage->objectCount(), std::size_t(1));
        QCOMPARE(storage->revision(), storage::Revision(2));
        QCOMPARE(readAll(log), QByteArray()); // repaired: into the snapshot, the log starts over
    }
    // Zeros alone (a crash that kept a batch's zeros but not its lines) are an empty log:
    // kept as they are, and the next line goes at the start.
    QVERIFY(writeAll(log, QByteArray(1024 * 1024, '\0')));
    {
        auto storage = open(dir);
        QVERIFY2(storage, m_lastError.c_str());
        QCOMPARE(storage->revision(), storage::Revision(2));
        QCOMPARE(readAll(log).size(), 1024 * 1024);
        run(storage->create(configMapKey("next"), configMap("next"))).value();
        QCOMPARE(logLines(log).count('\n'), 1);
        QCOMPARE(readAll(log).size(), 1024 * 1024);
    }
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->objectCount(), std::size_t(2));
    QCOMPARE(storage->revision(), storage::Revision(3));
}

void TestDurableStorage::testNothingIsWrittenAfterAFailedWrite()
{
    // A write that cannot extend the log (here the file size limit; a full disk alike) fails,
    // and so does every later one, also one that would fit the zeros already laid down:
    // written, it would follow a hole, and the next start would find its predecessor gone.
    const QString dir = directory("failed");
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    struct rlimit saved {};
    QCOMPARE(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    {
        auto storage = open(dir);
        QVERIFY(run(storage->create(configMapKey("small"), configMap("small"))));
        QCOMPARE(readAll(log).size(), 2 * 1024 * 1024);
        struct rlimit limited = saved;
        limited.rlim_cur = 2 * 1024 * 1024 + 512 * 1024;
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limited), 0);
        bool failed = false;
        for (int i = 0; i < 4 && !failed; ++i) // about 700 KB each: the third cannot extend the zeros
            failed = !run(storage->create(configMapKey("big-" + std::to_string(i)), configMap("big", "default", {{"blob", std::string(700 * 1024, 'x')}})));
        ::setrlimit(RLIMIT_FSIZE, &saved);
        QVERIFY(failed);
        auto after = run(storage->create(configMapKey("after"), configMap("after")));
        QVERIFY(!after);
        QVERIFY2(after.error().message.find("could not be written") != std::string::npos, after.error().message.c_str());
    }
    std::signal(SIGXFSZ, oldHandler);
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QVERIFY(run(storage->get(configMapKey("small"))));
    QVERIFY(!run(storage->get(configMapKey("after"))));
}

void TestDurableStorage::testSnapshotRestartsTheLog()
{
    const QString dir = directory("snapshot");
    const QString log = QDir(dir).filePath(QStringLiteral("main.log"));
    {
        auto storage = open(dir);
        storage->commitLog()->setSnapshotAfterBytes(2000);
        run(storage->create(configMapKey("hot"), configMap("hot"))).value();
        for (int i = 0; i < 100; ++i)
            QVERIFY(run(storage->guaranteedUpdate(configMapKey("hot"), {}, setData("n", std::to_string(i)))));
        run(storage->create(configMapKey("last"), configMap("last"))).value();
        QVERIFY(logLines(log).size() < 4000); // restarted after each snapshot, not 100 records long
        QVERIFY(QFile::exists(QDir(dir).filePath(QStringLiteral("main.snapshot"))));
    }
    auto storage = open(dir);
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->objectCount(), std::size_t(2));
    QCOMPARE(dataOf(run(storage->get(configMapKey("hot"))).value(), "n"), std::string("99"));
    QCOMPARE(storage->revision(), storage::Revision(1 + 1 + 100 + 1));
}

void TestDurableStorage::testEmptyDirectoryStartsFresh()
{
    auto storage = open(directory("fresh/nested"));
    QVERIFY2(storage, m_lastError.c_str());
    QCOMPARE(storage->revision(), storage::Revision(1));
    QCOMPARE(run(storage->create(configMapKey("a"), configMap("a"))).value()->resourceVersion(), std::string("2"));
}

void TestDurableStorage::testSecondOpenOfADirectoryIsRefused()
{
    const QString dir = directory("locked");
    auto first = open(dir);
    QVERIFY(first);
    QVERIFY(!open(dir));
    QVERIFY2(m_lastError.find("in use by another rvscope") != std::string::npos, m_lastError.c_str());
    first.reset(); // closing releases it
    QVERIFY2(open(dir), m_lastError.c_str());
}

QTEST_GUILESS_MAIN(TestDurableStorage)
#include "TestDurableStorage.moc"
