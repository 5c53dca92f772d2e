// SPDX-License-Identifier: MIT
#include "sim/ScenarioLibrary.h"

#include <array>

#include <QtCore/QFile>

#include "model/StatusErrors.h"

// Resources compiled into a static library need an explicit initialisation.
static void initScenarioResources()
{
    Q_INIT_RESOURCE(scenarios);
}

namespace rvscope::sim {
namespace {

constexpr std::array BUILT_IN_ORDER = {"lost-update", "put-vs-patch", "kubectl-replace-vs-apply", "field-ownership",
                                       "list-watch-410", "node-secret", "occ-vs-pcc", "hot-key", "controller-under-fire"};

model::Status missing(std::string message)
{
    model::Status status;
    status.code = 404;
    status.reason = "NotFound";
    status.message = std::move(message);
    return status;
}

model::Result<std::string> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return missing("cannot read scenario file " + path.toStdString() + ": "
                                       + file.errorString().toStdString());
    return file.readAll().toStdString();
}

} // namespace

std::vector<Scenario> ScenarioLibrary::builtIns()
{
    initScenarioResources();
    std::vector<Scenario> scenarios;
    for (const char *name : BUILT_IN_ORDER) {
        auto text = readFile(QStringLiteral(":/scenarios/%1.json").arg(QLatin1String(name)));
        if (!text)
            continue;
        auto scenario = Scenario::parse(*text);
        if (scenario)
            scenarios.push_back(std::move(scenario).value());
        else
            qWarning("rvscope: built-in scenario %s is invalid: %s", name, scenario.error().message.c_str());
    }
    return scenarios;
}

model::Result<Scenario> ScenarioLibrary::load(const std::string &nameOrPath)
{
    for (Scenario &scenario : builtIns()) {
        if (scenario.name == nameOrPath)
            return std::move(scenario);
    }
    if (nameOrPath.find('/') == std::string::npos && nameOrPath.find(".json") == std::string::npos) {
        std::string known;
        for (const char *name : BUILT_IN_ORDER)
            known += std::string(known.empty() ? "" : ", ") + name;
        return missing("no scenario named \"" + nameOrPath + "\" (built in: " + known
                                       + "; or give a path to a .json file)");
    }
    auto text = readFile(QString::fromStdString(nameOrPath));
    if (!text)
        return std::move(text).error();
    return Scenario::parse(*text);
}

} // namespace rvscope::sim
