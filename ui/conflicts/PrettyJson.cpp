// SPDX-License-Identifier: MIT
#include "conflicts/PrettyJson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include "conflicts/JsonPath_p.h"

namespace rvscope::ui {
namespace {

// A scalar (or a key) exactly as QJsonDocument writes it: wrapped in an array, unwrapped.
QString scalarText(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

class Writer final {
public:
    void write(const QJsonValue &value, const QString &path, int depth, const QString &prefix, bool comma)
    {
        const int first = int(m_lines.size());
        const QString pad(depth * 2, QLatin1Char(' '));
        const QString tail = comma ? QStringLiteral(",") : QString();
        if (value.isObject()) {
            const QJsonObject object = value.toObject();
            const QStringList keys = object.keys(); // sorted
            if (keys.isEmpty()) {
                m_lines.append(pad + prefix + QStringLiteral("{}") + tail);
            } else {
                m_lines.append(pad + prefix + QLatin1Char('{'));
                for (qsizetype i = 0; i < keys.size(); ++i) {
                    write(object.value(keys[i]), jsonpath::child(path, keys[i]), depth + 1,
                          scalarText(keys[i]) + QStringLiteral(": "), i + 1 < keys.size());
                }
                m_lines.append(pad + QLatin1Char('}') + tail);
            }
        } else if (value.isArray()) {
            const QJsonArray array = value.toArray();
            if (array.isEmpty()) {
                m_lines.append(pad + prefix + QStringLiteral("[]") + tail);
            } else {
                m_lines.append(pad + prefix + QLatin1Char('['));
                for (qsizetype i = 0; i < array.size(); ++i)
                    write(array.at(i), jsonpath::element(path, i), depth + 1, QString(), i + 1 < array.size());
                m_lines.append(pad + QLatin1Char(']') + tail);
            }
        } else {
            m_lines.append(pad + prefix + scalarText(value) + tail);
        }
        if (!path.isEmpty())
            m_result.linesOfPath.insert(path, PrettyJson::Lines{first, int(m_lines.size()) - 1});
    }

    PrettyJson finish()
    {
        m_result.valid = true;
        m_result.text = m_lines.join(QLatin1Char('\n'));
        return std::move(m_result);
    }

private:
    QStringList m_lines;
    PrettyJson m_result;
};

} // namespace

PrettyJson PrettyJson::format(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (json.isEmpty() || error.error != QJsonParseError::NoError || document.isNull()) {
        PrettyJson raw;
        raw.text = QString::fromUtf8(json);
        return raw;
    }
    Writer writer;
    writer.write(document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array()), QString(), 0,
                 QString(), false);
    return writer.finish();
}

} // namespace rvscope::ui
