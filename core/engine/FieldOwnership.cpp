// SPDX-License-Identifier: MIT
#include "engine/FieldOwnership.h"

#include "fields/ManagedFields.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"

namespace rvscope::engine {

QStringList fieldOwnership(const QByteArray &objectJson)
{
    const auto object = model::parseJson(std::string_view(objectJson.constData(), std::size_t(objectJson.size())));
    if (!object)
        return {};
    const auto entries = fields::decodeManagedFields(model::memberAt(*object, "metadata", "managedFields"));
    if (!entries)
        return {};
    QStringList lines;
    for (const fields::ManagerEntry &entry : *entries) {
        QStringList paths;
        entry.fields.forEach([&paths](const fields::Path &path) { paths << QString::fromStdString(fields::pathText(path)); });
        // The paths first (the panel is narrow), the time last.
        QString who = QString::fromStdString(entry.manager) + QStringLiteral(" (") + QString::fromStdString(entry.operation);
        if (!entry.subresource.empty())
            who += QStringLiteral(", /") + QString::fromStdString(entry.subresource);
        QString line = who + QStringLiteral("): ") + paths.join(QStringLiteral(", "));
        if (!entry.time.empty())
            line += QStringLiteral("  at ") + QString::fromStdString(entry.time);
        lines << line;
    }
    return lines;
}

} // namespace rvscope::engine
