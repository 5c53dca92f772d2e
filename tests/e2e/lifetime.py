# SPDX-License-Identifier: MIT
"""Servers and etcd members a test starts end with the process that started them."""


def ends_with_this_process(command):
    """`command`, run so that the kernel kills it when the process that started it ends, by an
    uncaught exception, a ctest timeout's SIGKILL or a Ctrl-C alike: a failing suite leaves no
    etcd member or rvscope behind. (setpriv execs the command, so the pid is the command's.
    The parent death signal follows the starting thread: start these from the main thread.)"""
    return ["setpriv", "--pdeathsig", "KILL", "--", *command]
