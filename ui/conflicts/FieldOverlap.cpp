// SPDX-License-Identifier: MIT
#include "conflicts/FieldOverlap.h"

#include <array>

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include "conflicts/JsonPath_p.h"
#include "fields/ManagedFields.h"

namespace rvscope::ui {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("FieldOverlap", text);
}

// Maintained by the server on every write: never a field the client or a writer "changed".
constexpr std::array SERVER_FIELDS = {"metadata.resourceVersion", "metadata.generation", "metadata.managedFields"};

bool serverMaintained(const QString &path)
{
    for (const char *field : SERVER_FIELDS) {
        if (jsonpath::within(path, QLatin1String(field)))
            return true;
    }
    return false;
}

// The paths where `a` and `b` differ; a subtree present on one side only is one path.
void diff(const QJsonValue &a, const QJsonValue &b, const QString &path, QStringList &out)
{
    if (serverMaintained(path))
        return;
    if (a.isObject() && b.isObject()) {
        const QJsonObject left = a.toObject();
        const QJsonObject right = b.toObject();
        QStringList keys = left.keys();
        for (const QString &key : right.keys()) {
            if (!left.contains(key))
                keys.append(key);
        }
        keys.sort();
        for (const QString &key : std::as_const(keys))
            diff(left.value(key), right.value(key), jsonpath::child(path, key), out);
        return;
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray left = a.toArray();
        const QJsonArray right = b.toArray();
        for (qsizetype i = 0; i < std::max(left.size(), right.size()); ++i) {
            diff(i < left.size() ? left.at(i) : QJsonValue(QJsonValue::Undefined),
                 i < right.size() ? right.at(i) : QJsonValue(QJsonValue::Undefined), jsonpath::element(path, i), out);
        }
        return;
    }
    if (a != b && !path.isEmpty())
        out.append(path);
}

// A merge patch names the fields of its leaves (null included: it deletes the field).
void mergePatchFields(const QJsonValue &patch, const QString &path, QStringList &out)
{
    if (serverMaintained(path))
        return;
    if (patch.isObject() && !patch.toObject().isEmpty()) {
        const QJsonObject object = patch.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            mergePatchFields(it.value(), jsonpath::child(path, it.key()), out);
    } else if (!path.isEmpty()) {
        out.append(path);
    }
}

// A JSON pointer as a dotted path; numeric tokens are array indexes where the read object
// has an array, map keys elsewhere.
QString pointerToPath(const QString &pointer, const QJsonValue &read)
{
    QString path;
    QJsonValue node = read;
    const QStringList tokens = pointer.split(QLatin1Char('/'));
    for (qsizetype i = 1; i < tokens.size(); ++i) {
        QString token = tokens[i];
        token.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
        bool isIndex = false;
        const int index = token.toInt(&isIndex);
        if (node.isArray() && (isIndex || token == QLatin1String("-"))) {
            path = jsonpath::element(path, token == QLatin1String("-") ? node.toArray().size() : index);
            node = isIndex ? node.toArray().at(index) : QJsonValue(QJsonValue::Undefined);
        } else {
            path = jsonpath::child(path, token);
            node = node.toObject().value(token);
        }
    }
    return path;
}

QStringList jsonPatchFields(const QJsonArray &patch, const QJsonValue &read)
{
    QStringList fields;
    for (const QJsonValue &operation : patch) {
        const QJsonObject op = operation.toObject();
        const QString verb = op.value(QLatin1String("op")).toString();
        if (verb == QLatin1String("test"))
            continue;
        QStringList pointers = {op.value(QLatin1String("path")).toString()};
        if (verb == QLatin1String("move"))
            pointers.append(op.value(QLatin1String("from")).toString());
        for (const QString &pointer : std::as_const(pointers)) {
            const QString path = pointerToPath(pointer, read);
            if (!path.isEmpty() && !serverMaintained(path) && !fields.contains(path))
                fields.append(path);
        }
    }
    return fields;
}

QJsonValue parse(const QByteArray &bytes)
{
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (document.isObject())
        return document.object();
    if (document.isArray())
        return document.array();
    return QJsonValue(QJsonValue::Undefined);
}

QString listed(const QStringList &fields)
{
    constexpr qsizetype SHOWN = 8;
    if (fields.isEmpty())
        return tr("nothing");
    QString text = fields.mid(0, SHOWN).join(QStringLiteral(", "));
    if (fields.size() > SHOWN)
        text += tr(" … (+%1 more)").arg(fields.size() - SHOWN);
    return text;
}

} // namespace

FieldOverlap FieldOverlap::ownershipOf(const engine::OperationSummary &op)
{
    FieldOverlap overlap;
    if (op.reason != QLatin1String("FieldManagerConflict")) {
        overlap.unknownReason = tr("not a field ownership conflict");
        return overlap;
    }
    for (const fields::ManagerConflicts &conflict : fields::parseConflictMessage(op.message.toStdString())) {
        Owner owner{QString::fromStdString(conflict.manager), {}};
        for (const std::string &path : conflict.paths) {
            const QString field = QString::fromStdString(path);
            owner.fields << field;
            // The dotted form the panes highlight (".data.owner" → "data.owner").
            const QString dotted = field.mid(1);
            if (!overlap.overlapping.contains(dotted))
                overlap.overlapping << dotted;
        }
        overlap.owners << owner;
    }
    if (overlap.owners.isEmpty()) {
        overlap.unknownReason = tr("the conflict's message names no fields");
        return overlap;
    }
    overlap.known = true;
    return overlap;
}

FieldOverlap FieldOverlap::compute(const engine::OperationDetail &detail)
{
    const engine::OperationSummary &op = detail.summary;
    if (op.reason == QLatin1String("FieldManagerConflict"))
        return ownershipOf(op);
    FieldOverlap overlap;
    const QJsonValue read = parse(detail.readObject);
    const QJsonValue live = parse(detail.liveObject);
    const QJsonValue request = parse(detail.request);
    if (op.verb == QLatin1String("create")) {
        overlap.unknownReason = tr("a create found the name taken; there is no read to compare with");
        return overlap;
    }
    if (!read.isObject()) {
        overlap.unknownReason = op.rvSent > 0
            ? tr("the object the client read (rv %1) is not in the journal").arg(op.rvSent)
            : tr("the write sent no resourceVersion, so there is no read to compare with");
        return overlap;
    }
    if (!live.isObject()) {
        overlap.unknownReason = tr("the live object is not in the journal");
        return overlap;
    }
    if (request.isUndefined()) {
        overlap.unknownReason = tr("the request body is not JSON");
        return overlap;
    }

    if (op.verb == QLatin1String("patch") && request.isArray())
        overlap.clientFields = jsonPatchFields(request.toArray(), read);
    else if (op.verb == QLatin1String("patch"))
        mergePatchFields(request, QString(), overlap.clientFields);
    else
        diff(read, request, QString(), overlap.clientFields);
    diff(read, live, QString(), overlap.interveningFields);

    for (const QString &mine : std::as_const(overlap.clientFields)) {
        for (const QString &theirs : std::as_const(overlap.interveningFields)) {
            // Name the more specific of two nested paths: that is the field both touched.
            QString both;
            if (jsonpath::within(theirs, mine))
                both = theirs;
            else if (jsonpath::within(mine, theirs))
                both = mine;
            if (!both.isEmpty() && !overlap.overlapping.contains(both))
                overlap.overlapping.append(both);
        }
    }
    overlap.known = true;
    return overlap;
}

QString FieldOverlap::sentence() const
{
    if (!known)
        return tr("Cannot tell which fields overlapped: %1.").arg(unknownReason);
    if (ownership()) {
        QStringList claims;
        for (const Owner &owner : owners)
            claims << tr("%1, which %2 manages").arg(listed(owner.fields), owner.manager);
        return tr("Field ownership conflict: the apply would change %1. No stale resourceVersion: re-reading does "
                  "not help. Apply the same value, stop sending the field, or force (force=true, --force-conflicts) "
                  "to take it from its manager.")
            .arg(claims.join(tr("; and ")));
    }
    const QString changes = tr("The client changed %1; the intervening writes changed %2.")
                                .arg(listed(clientFields), listed(interveningFields));
    if (falseConflict())
        return tr("False conflict: optimistic locking rejects on version, not on fields. %1").arg(changes);
    return tr("Real conflict: both changed %1. %2").arg(listed(overlapping), changes);
}

QString FieldOverlap::cellText() const
{
    if (!known)
        return {};
    if (ownership()) {
        QStringList claims;
        for (const Owner &owner : owners)
            claims << owner.manager + QStringLiteral(": ") + owner.fields.join(QStringLiteral(", "));
        return claims.join(QStringLiteral("; "));
    }
    return falseConflict() ? tr("false conflict") : overlapping.join(QStringLiteral(", "));
}

} // namespace rvscope::ui
