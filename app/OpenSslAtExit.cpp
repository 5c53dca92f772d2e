// SPDX-License-Identifier: MIT
#include "OpenSslAtExit.h"

#include <openssl/crypto.h>

namespace rvscope::app {

void leaveOpenSslStateToProcessExit()
{
    // Only the first initialization decides whether OpenSSL registers its atexit cleanup.
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
}

} // namespace rvscope::app
