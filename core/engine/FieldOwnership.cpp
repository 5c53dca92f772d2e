// SPDX-License-Identifier: MIT
#include "engine/FieldOwnership.h"

#include "fields/ManagedFields.h"
#include "model/JsonParse.h"

namespace rvscope::engine {

QStringList fieldOwnership(const QByteArray &objectJson)
{
    const auto object = model::parseJson(std::string_view(objectJson.constData(), std::size_t(objectJson.size())));
    if (!object)
        return {};
    QStringList lines;
    for (const std::string &line : fields::ownershipLines(*object, true))
        lines << QString::fromStdString(line);
    return lines;
}

} // namespace rvscope::engine
