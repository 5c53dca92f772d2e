// SPDX-License-Identifier: MIT
#include "FuzzSupport.h"

#include <cstdlib>

#include <QtCore/QCoreApplication>
#include <qcoro/qcorotask.h>

namespace rvscope::fuzz {

void ensureApplication()
{
    static int argc = 1;
    static char name[] = "rvscope-fuzz";
    static char *argv[] = {name, nullptr};
    static QCoreApplication *application = QCoreApplication::instance() ? nullptr : new QCoreApplication(argc, argv);
    (void)application;
}

FuzzCore::FuzzCore()
    : m_storage(std::make_shared<storage::MemoryStorage>())
    , m_registry(std::make_shared<registry::Registry>(m_storage))
{
    if (!QCoro::waitFor(m_registry->bootstrap()))
        std::abort();
    handler = std::make_shared<api::ApiHandler>(m_registry);
}

FuzzCore &FuzzCore::next(int inputsPerCore)
{
    static std::unique_ptr<FuzzCore> core;
    static int served = 0;
    if (!core || ++served >= inputsPerCore) {
        ensureApplication();
        core.reset(new FuzzCore());
        served = 0;
    }
    return *core;
}

} // namespace rvscope::fuzz
