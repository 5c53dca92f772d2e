#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rvscope's build glue: installs missing Debian packages (when root, or through sudo),
# configures, builds, and runs the app, the tests or the benchmarks.
#   ./dev.sh run [rvscope args...]   build and start rvscope (GUI; headless without a display)
#   ./dev.sh test                    build and run the whole test suite (what CI runs)
#   ./dev.sh bench                   build and run the benchmarks (prints figures and ratios)
#   ./dev.sh cluster [--headless]    a 3-member etcd and two rvscope instances on it (Ctrl-C stops)
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
BUILD_PACKAGES=(cmake g++ ninja-build pkg-config
    qt6-base-dev qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev qcoro-qt6-dev nlohmann-json3-dev
    libyaml-cpp-dev
    libgoogle-perftools-dev libprotobuf-dev protobuf-compiler
    libgrpc++-dev protobuf-compiler-grpc
    etcd-server etcd-client)
# libgrpc++-dev and protobuf-compiler-grpc build EtcdStorage (RVSCOPE_ETCD); etcd-server is
# what `serve --storage etcd` talks to and what the etcd storage tests start on loopback.
# What the HTTP benchmark compares against (etcd 3.4 and a static nginx), on loopback only.
BENCH_PACKAGES=(etcd-server etcd-client nginx-light)
# What the test suite needs beyond the build (offscreen GUI tests need fonts).
# openssl makes the self-signed certificates of the TLS tests.
TEST_PACKAGES=(fonts-dejavu-core python3-kubernetes openssl)

missing_packages() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"
    done
}

install_packages() {
    local missing
    missing=$(missing_packages "$@" | tr '\n' ' ')
    [ -z "${missing// /}" ] && return 0
    echo "rvscope: installing missing Debian packages: $missing" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo="sudo"
        else
            echo "rvscope: please install as root: apt-get install $missing" >&2
            exit 1
        fi
    fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

build() {
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
run)
    install_packages "${BUILD_PACKAGES[@]}"
    build
    exec "$BUILD_DIR/app/rvscope" "$@"
    ;;
test)
    install_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build
    exec ctest --test-dir "$BUILD_DIR" --output-on-failure --parallel "$(nproc)" "$@"
    ;;
bench)
    install_packages "${BUILD_PACKAGES[@]}" "${BENCH_PACKAGES[@]}"
    build
    for bench in "$BUILD_DIR"/tests/bench/bench_* "$BUILD_DIR"/tests/bench/http/bench_http; do
        [ -x "$bench" ] && "$bench" "$@"
    done
    ;;
cluster)
    install_packages "${BUILD_PACKAGES[@]}" etcd-server etcd-client
    build
    exec /usr/bin/python3 tests/e2e/cluster.py "$BUILD_DIR/app/rvscope" "$@"
    ;;
*)
    echo "usage: ./dev.sh run [rvscope args...] | test | bench | cluster [--headless]" >&2
    exit 2
    ;;
esac
