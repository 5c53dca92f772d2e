#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rvscope's build glue: installs missing Debian packages (when root, or through sudo),
# configures, builds, and runs the app, the tests or the benchmarks.
#   ./dev.sh run [rvscope args...]   build and start rvscope (GUI; headless without a display)
#   ./dev.sh test                    build and run the whole test suite (what CI runs)
#   ./dev.sh bench                   build and run the benchmarks (prints figures and ratios)
#   ./dev.sh cluster [--headless]    a 3-member etcd and two rvscope instances on it (Ctrl-C stops)
#   ./dev.sh fuzz [SECONDS]          build the libFuzzer targets (clang, sanitizers) in build-asan/
#                                    and fuzz each for SECONDS (default 300); findings land in
#                                    build-asan/findings/<target>/
#   ./dev.sh soak [SECONDS]          build rvscope and run the soak test (tests/e2e/test_soak.py)
#                                    for SECONDS of load (default 1800; CI runs 90)
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
BUILD_PACKAGES=(cmake g++ ninja-build pkg-config lld
    qt6-base-dev qt6-websockets-dev qt6-svg-dev qcoro-qt6-dev nlohmann-json3-dev
    libyaml-cpp-dev zlib1g-dev
    libgoogle-perftools-dev libprotobuf-dev protobuf-compiler
    libgrpc++-dev protobuf-compiler-grpc libssl-dev
    etcd-server etcd-client)
# lld links the executables (in half GNU ld's time); zlib1g-dev gives the commit log (--data-dir)
# its CRC-32; libgrpc++-dev and protobuf-compiler-grpc build EtcdStorage (RVSCOPE_ETCD); libssl-dev
# gives app/OpenSslAtExit.cpp OpenSSL's header (Qt's TLS backend uses the same libcrypto); etcd-server is
# what `serve --storage etcd` talks to and what the etcd storage tests start on loopback.
# What the HTTP benchmark compares against (etcd 3.4 and a static nginx), on loopback only.
BENCH_PACKAGES=(etcd-server etcd-client nginx-light)
# The fuzz build: clang with libFuzzer and the sanitizers' runtimes.
FUZZ_PACKAGES=(clang libclang-rt-14-dev)
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

# The sanitizer build: clang, AddressSanitizer and UBSan on everything, the test suite and the
# libFuzzer targets. `./dev.sh test` runs the suite in it too; `./dev.sh fuzz` fuzzes there.
ASAN_DIR=${ASAN_DIR:-build-asan}
asan_configure() {
    cmake -S . -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
        -DRVSCOPE_FUZZ=ON -DRVSCOPE_BUILD_TESTS=ON -DRVSCOPE_ETCD=ON >/dev/null
}
asan_build() {
    asan_configure
    cmake --build "$ASAN_DIR" --parallel "$(nproc)"
}
fuzz_build() {
    asan_configure
    local targets
    targets=$(sed -n 's/^set(rvscope_fuzz_targets \(.*\))$/\1/p' tests/fuzz/CMakeLists.txt)
    # shellcheck disable=SC2086
    cmake --build "$ASAN_DIR" --parallel "$(nproc)" --target $targets
}

# Builds everything, or the targets given (`build --target rvscope`).
build() {
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)" "$@"
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
    install_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    build
    asan_build
    ctest --test-dir "$BUILD_DIR" --output-on-failure --parallel "$(nproc)" "$@"
    # The same suite with AddressSanitizer and UBSan (a report fails its test), and the fuzz
    # targets' short, deterministic runs over their seed corpora; `./dev.sh fuzz` fuzzes longer.
    # (ASan's stack frames are larger: the 10,000-deep JSON that Go's decoder accepts, and so
    # rvscope, needs more than 8 MiB of stack; threads get the same limit.)
    if [ $# -eq 0 ]; then
        (ulimit -s 65536
         LSAN_OPTIONS="suppressions=$PWD/tests/support/lsan-suppressions.txt" \
             ctest --test-dir "$ASAN_DIR" --output-on-failure --parallel "$(nproc)")
    fi
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
fuzz)
    install_packages "${BUILD_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    fuzz_build
    seconds=${1:-300}
    for fuzzer in "$ASAN_DIR"/tests/fuzz/fuzz_*; do
        [ -x "$fuzzer" ] || continue
        name=$(basename "$fuzzer")
        mkdir -p "$ASAN_DIR/corpus/$name" "$ASAN_DIR/findings/$name"
        echo "== $name for ${seconds}s" >&2
        # New inputs go to the scratch corpus; the committed seeds are only read.
        ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 "$fuzzer" -max_total_time="$seconds" \
            -max_len=65536 -timeout=20 -print_final_stats=1 -artifact_prefix="$ASAN_DIR/findings/$name/" \
            "$ASAN_DIR/corpus/$name" "tests/fuzz/corpus/$name"
    done
    ;;
soak)
    install_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build --target rvscope
    # The same test as CI's, with more load time; the journal and the RSS bound stay the same.
    SOAK_SECONDS=${1:-1800} RVSCOPE_BINARY="$BUILD_DIR/app/rvscope" PYTHONWARNINGS=ignore::ResourceWarning \
        exec /usr/bin/python3 tests/e2e/test_soak.py
    ;;
*)
    echo "usage: ./dev.sh run [rvscope args...] | test | bench | cluster [--headless] | fuzz [SECONDS] | soak [SECONDS]" >&2
    exit 2
    ;;
esac
