// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QtCore/QObject>

#include "storage/Storage.h"

// The storage contract as one test suite, written once and run against every Storage
// implementation (k8s.io/apiserver storage/testing/store_tests.go plays this part upstream).
// A concrete test derives, implements createStorage() and adds its own private slots; QtTest
// runs the inherited slots too.
class StorageConformance : public QObject {
    Q_OBJECT

protected:
    // A fresh, empty storage for one test function.
    virtual std::unique_ptr<rvscope::storage::Storage> createStorage() = 0;
    // Holds (or releases) the step that makes a storage's commits durable, like a disk that
    // has not synced yet. Backends that cannot hold it return false, and the tests of what
    // may be seen before a commit is durable skip.
    virtual bool holdDurability(rvscope::storage::Storage &storage, bool held);

private Q_SLOTS:
    void testCreateThenGet();
    void testCreateExistingKeyFails();
    void testCreateRejectsResourceVersion();
    void testGetMissingKey();
    void testRemoveReturnsLastState();
    void testRemovePreconditions_data();
    void testRemovePreconditions();
    void testRemoveValidateDeletion();
    void testListPrefixOrderAndRevision();
    void testListPagingIsConsistent();
    void testListPredicate();
    void testListAtOldRevision();
    void testListRevisionOutOfRange();
    void testGuaranteedUpdateCommits();
    void testGuaranteedUpdateNoopWritesNothing();
    void testGuaranteedUpdatePreconditions_data();
    void testGuaranteedUpdatePreconditions();
    void testGuaranteedUpdateStaleSuggestionIsRechecked();
    void testGuaranteedUpdateStaleNoopIsRedone();
    void testGuaranteedUpdateErrorPropagates();
    void testGuaranteedUpdateMissingKey();
    void testGuaranteedUpdateRetriesAfterConcurrentCommit();
    void testWatchDeliversEveryChangeInOrder();
    void testWatchFromZeroStartsWithCurrentState();
    void testWatchResumesFromAnyRevision();
    void testWatchFiltersByPrefix();
    void testWatchTooOldAfterCompaction();
    void testWatchFutureRevision();
    void testWatchStopsWhenHandleDropped();
    void testWatchSinkMayWrite();
    void testCompaction();
    void testCoroutineCallersMayPassBracedOptions();
    void testConcurrentGuaranteedUpdatesLoseNothing();
    void testConcurrentOptimisticClientsLoseNothing();
    void testNothingIsVisibleBeforeItIsDurable();
    void testAVerdictOnACommitNotYetDurableWaitsForIt();
};
