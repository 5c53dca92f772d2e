// SPDX-License-Identifier: MIT
#include "BulkWatchSpec.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <nlohmann/json.hpp>

namespace rvscope::app {
namespace {

bool matches(const QString &pattern, const QString &text)
{
    return QRegularExpression(QRegularExpression::anchoredPattern(pattern)).match(text).hasMatch();
}

bool isVersion(const QString &text)
{
    return matches(QStringLiteral("v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?"), text);
}

// Splits "deployments.v1.apps" into resource, version and group.
bool parseResourcePart(const QString &part, BulkWatchSpec &spec, QString &why)
{
    const qsizetype dot = part.indexOf(u'.');
    spec.resource = dot < 0 ? part : part.left(dot);
    spec.group = dot < 0 ? QString() : part.mid(dot + 1);
    if (!matches(QStringLiteral("[a-z][a-z0-9-]*"), spec.resource)) {
        why = spec.resource.isEmpty() ? QStringLiteral("no resource")
                                      : QStringLiteral("'%1' is not a resource name (a lower-case plural such as "
                                                       "secrets)")
                                            .arg(spec.resource);
        return false;
    }
    if (dot < 0) {
        spec.version = QStringLiteral("v1");
        return true;
    }
    if (isVersion(spec.group)) { // "pods.v1": the core group at that version
        spec.version = spec.group;
        spec.group.clear();
        return true;
    }
    const qsizetype nextDot = spec.group.indexOf(u'.');
    if (nextDot > 0 && isVersion(spec.group.left(nextDot))) {
        spec.version = spec.group.left(nextDot);
        spec.group = spec.group.mid(nextDot + 1);
    }
    if (!matches(QStringLiteral("[a-z0-9]([a-z0-9.-]*[a-z0-9])?"), spec.group)) {
        why = QStringLiteral("'%1' is not an API group").arg(spec.group);
        return false;
    }
    return true;
}

bool isPlainSegment(const QString &segment)
{
    return !segment.contains(QRegularExpression(QStringLiteral("[\\s?&=,]")));
}

bool parseOptions(const QString &query, BulkWatchSpec &spec, QString &why)
{
    for (const QString &item : query.split(u'&', Qt::SkipEmptyParts)) {
        const qsizetype equals = item.indexOf(u'=');
        const QString key = equals < 0 ? item : item.left(equals);
        const QString value = equals < 0 ? QString() : QUrl::fromPercentEncoding(item.mid(equals + 1).toUtf8());
        QString *target = key == u"labelSelector"     ? &spec.labelSelector
                          : key == u"fieldSelector"   ? &spec.fieldSelector
                          : key == u"resourceVersion" ? &spec.resourceVersion
                                                      : nullptr;
        if (!target) {
            why = QStringLiteral("unknown option '%1' (use labelSelector, fieldSelector or resourceVersion)").arg(key);
            return false;
        }
        if (equals < 0) {
            why = QStringLiteral("option '%1' needs a value (%1=...)").arg(key);
            return false;
        }
        *target = value;
    }
    return true;
}

} // namespace

QString BulkWatchSpec::resourceLabel() const
{
    return group.isEmpty() ? resource : resource + u'.' + group;
}

QString BulkWatchSpec::effectiveFieldSelector() const
{
    QStringList terms;
    if (!name.isEmpty())
        terms << QStringLiteral("metadata.name=") + name;
    if (!fieldSelector.isEmpty())
        terms << fieldSelector;
    return terms.join(u',');
}

std::string BulkWatchSpec::watchRequestFrame(std::int64_t id) const
{
    nlohmann::json options = nlohmann::json::object();
    const auto setIfAny = [&options](const char *key, const QString &value) {
        if (!value.isEmpty())
            options[key] = value.toStdString();
    };
    setIfAny("namespace", namespaceName);
    setIfAny("labelSelector", labelSelector);
    setIfAny("fieldSelector", effectiveFieldSelector());
    setIfAny("resourceVersion", resourceVersion);
    const nlohmann::json resourceJson = {
        {"group", group.toStdString()}, {"version", version.toStdString()}, {"resource", resource.toStdString()}};
    const nlohmann::json request = {
        {"id", id}, {"watch", {{"selector", {{"resource", resourceJson}, {"options", options}}}}}};
    return request.dump();
}

std::optional<BulkWatchSpec> parseBulkWatchSpec(const QString &text, QString &error)
{
    BulkWatchSpec spec;
    spec.text = text;
    QString why;
    const qsizetype question = text.indexOf(u'?');
    const QString path = question < 0 ? text : text.left(question);
    const QStringList segments = path.split(u'/');
    if (segments.size() > 3)
        why = QStringLiteral("too many '/' (at most RESOURCE/NAMESPACE/NAME)");
    else if (parseResourcePart(segments[0], spec, why)) {
        if (segments.size() >= 2)
            spec.namespaceName = segments[1];
        if (segments.size() == 3)
            spec.name = segments[2];
        if (segments.size() == 2 && spec.namespaceName.isEmpty())
            why = QStringLiteral("empty namespace (leave out the '/' to watch every namespace)");
        else if (segments.size() == 3 && spec.name.isEmpty())
            why = QStringLiteral("empty name (leave out the '/' to watch every object)");
        else if (!isPlainSegment(spec.namespaceName) || !isPlainSegment(spec.name))
            why = QStringLiteral("a namespace or name holds a space or one of ?&=,");
        else if (question >= 0)
            parseOptions(text.mid(question + 1), spec, why);
    }
    if (!why.isEmpty()) {
        error = QStringLiteral("--watch '%1': %2; expected RESOURCE[.GROUP][/NAMESPACE[/NAME]][?labelSelector=...]")
                    .arg(text, why);
        return std::nullopt;
    }
    return spec;
}

} // namespace rvscope::app
