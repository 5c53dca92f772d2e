// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace rvscope::app {

// One command's options as a table: each flag with the name of its value, its help and how
// it sets the options struct. The parser and the help text are both made from the table,
// and the defaults the help prints are read from a default-constructed `Options`, so a
// flag, its check and its documented default cannot drift apart.
template<typename Options>
struct Option final {
    QString flag;  // "--listen"
    QString value; // what the value is called in the help ("ADDR:PORT"); empty: a switch
    QString help;  // one paragraph, wrapped by the help text
    // Sets `options` from the value (a switch gets an empty one); returns what is wrong with
    // the value in one line, or an empty string.
    std::function<QString(Options &options, const QString &value)> apply;
    // The default as the help shows it, read from a default-constructed Options; none when
    // it is not set.
    std::function<QString(const Options &defaults)> defaultText = {};
};

template<typename Options>
using OptionTable = QList<Option<Options>>;

// Parses args[start...] with `table` into `options`. A word that is not a flag goes to
// `positional` (which returns an error, or an empty string), or is an error without it.
// "--flag value" and "--flag=value" are both accepted. Returns the first error, or an empty
// string.
template<typename Options>
QString parseOptions(const OptionTable<Options> &table, const QStringList &args, qsizetype start, Options &options,
                     const std::function<QString(const QString &)> &positional = {})
{
    for (qsizetype i = start; i < args.size(); ++i) {
        const QString &arg = args[i];
        const Option<Options> *match = nullptr;
        QString value;
        bool inlineValue = false;
        for (const Option<Options> &option : table) {
            if (arg == option.flag) {
                match = &option;
                break;
            }
            if (!option.value.isEmpty() && arg.startsWith(option.flag + u'=')) {
                match = &option;
                value = arg.mid(option.flag.size() + 1);
                inlineValue = true;
                break;
            }
        }
        if (!match) {
            if (arg.startsWith(u'-') || !positional)
                return QStringLiteral("unknown argument '%1' (see rvscope --help)").arg(arg);
            if (QString error = positional(arg); !error.isEmpty())
                return error;
            continue;
        }
        if (!match->value.isEmpty() && !inlineValue && i + 1 < args.size())
            value = args[++i];
        if (QString error = match->apply(options, value); !error.isEmpty())
            return error;
    }
    return {};
}

// One help entry: `head` in a 33-column margin (on a line of its own when longer), then
// `text` wrapped to 92 columns.
inline QString helpEntry(const QString &head, const QString &text)
{
    constexpr qsizetype MARGIN = 33;
    constexpr qsizetype WIDTH = 92;
    QString line = head.size() < MARGIN ? head.leftJustified(MARGIN) : head + u'\n' + QString(MARGIN, u' ');
    qsizetype column = MARGIN;
    for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (column > MARGIN && column + 1 + word.size() > WIDTH) {
            line += u'\n' + QString(MARGIN, u' ');
            column = MARGIN;
        } else if (column > MARGIN) {
            line += u' ';
            ++column;
        }
        line += word;
        column += word.size();
    }
    return line + u'\n';
}

// The table as help entries, each option's default after its help.
template<typename Options>
QString optionHelp(const OptionTable<Options> &table)
{
    const Options defaults{};
    QString text;
    for (const Option<Options> &option : table) {
        QString head = QStringLiteral("  ") + option.flag;
        if (!option.value.isEmpty())
            head += u' ' + option.value;
        QString help = option.help;
        if (option.defaultText)
            help += QStringLiteral(" (default %1)").arg(option.defaultText(defaults));
        text += helpEntry(head, help);
    }
    return text;
}

} // namespace rvscope::app
