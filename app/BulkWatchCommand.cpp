// SPDX-License-Identifier: MIT
#include "BulkWatchCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>
#include <QtCore/QFile>
#include <QtCore/QTimer>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslSocket>

#include "BulkWatchClient.h"
#include "SignalWatcher.h"

namespace rvscope::app {
namespace {

// The client's TLS settings, as kubectl's --certificate-authority and
// --insecure-skip-tls-verify make them; false (with a message) when the CA file is unusable.
bool makeTlsConfiguration(const BulkWatchOptions &options, QSslConfiguration &tls)
{
    tls = QSslConfiguration::defaultConfiguration();
    if (!options.certificateAuthority.isEmpty()) {
        QFile file(options.certificateAuthority);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "rvscope client bulk-watch: cannot read --certificate-authority %s: %s\n",
                         qPrintable(options.certificateAuthority), qPrintable(file.errorString()));
            return false;
        }
        const QList<QSslCertificate> certificates = QSslCertificate::fromData(file.readAll(), QSsl::Pem);
        if (certificates.isEmpty()) {
            std::fprintf(stderr, "rvscope client bulk-watch: --certificate-authority %s holds no PEM certificate\n",
                         qPrintable(options.certificateAuthority));
            return false;
        }
        // Only this authority, as kubectl does: not the system's as well.
        tls.setCaCertificates(certificates);
    }
    if (options.insecureSkipTlsVerify)
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    return true;
}

} // namespace

int runBulkWatchCommand(const BulkWatchOptions &options)
{
    QSslConfiguration tls;
    if (!makeTlsConfiguration(options, tls))
        return BulkWatchClient::NotStarted;
    SignalWatcher signalWatcher;
    BulkWatchClient client(options, tls);
    int exitCode = BulkWatchClient::Ended;
    QObject::connect(&client, &BulkWatchClient::finished, QCoreApplication::instance(), [&exitCode](int code) {
        exitCode = code;
        QCoreApplication::exit(code);
    });
    QObject::connect(&signalWatcher, &SignalWatcher::terminationRequested, &client, [&client](int) { client.stop(); });
    QTimer::singleShot(0, &client, &BulkWatchClient::start);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace rvscope::app
