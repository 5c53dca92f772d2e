// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QStringList>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

// Whether a 409 was a real conflict: which fields the client changed relative to the object
// it read, which fields the writes that beat it changed relative to that same read, and
// where the two overlap. Optimistic locking compares versions, not fields, so a 409 whose
// field sets are disjoint is a "false conflict" (a teaching moment, UI.md "Conflicts panel").
//
// Paths are dotted ("data.counter", "spec.containers[0].image"); a field added or removed
// as a whole is named by its own path, and a path overlaps another when it is equal to it or
// one of its parents. Server-maintained metadata (resourceVersion, generation, managedFields)
// is ignored. A PUT's fields come from diffing the request against the read; a PATCH's are the
// fields the patch names (merge patch: its leaves; JSON patch: its non-test operations' paths).
//
// A server-side apply's ownership 409 (reason FieldManagerConflict) is no stale version: its
// overlap is known from the Status message alone, `owners` names each manager with the fields
// the apply would have taken from it, and `overlapping` holds those fields.
struct FieldOverlap final {
    struct Owner final {
        QString manager; // as the message writes it: "alice" or "kubectl" using v1, quotes included
        QStringList fields; // ".data.owner", as the message writes them
    };
    bool known = false;   // false: the read, live or sent object is missing or not JSON
    QString unknownReason; // why, when !known
    QStringList clientFields;
    QStringList interveningFields;
    QStringList overlapping;
    QList<Owner> owners; // ownership conflicts only

    bool ownership() const { return !owners.isEmpty(); }
    bool falseConflict() const { return known && overlapping.isEmpty(); }
    // One line for the conflicts panel and its CSV.
    QString sentence() const;
    // A short cell text: "false conflict", the overlapping fields, or "" when unknown.
    QString cellText() const;

    static FieldOverlap compute(const engine::OperationDetail &detail);
    // The overlap of an ownership 409, from its summary's message; unknown for other operations.
    static FieldOverlap ownershipOf(const engine::OperationSummary &op);
};

} // namespace rvscope::ui
