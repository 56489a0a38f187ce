#!/bin/sh
# SPDX-License-Identifier: MIT
# A collector written in C++ (tests/sdk/cxxdemo.cc), as the header's C++
# paragraph says to write one: it builds with g++ in C++20 under -Wpedantic
# and, as an extension, in C++17; with a version script it exports one
# symbol; it loads into aorta-run, keeps the contract (--check-collector)
# and its metrics reach a trial.  The C++ rules the header states hold too:
# designators out of the struct's order do not compile, and under
# AORTA_COLLECTOR_ABI_TARGET newer functions and fields are refused as in C.
# Uses $AORTA_TEST_CXX (configure's CXX); skips (77) without a working one.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
builddir=${AORTA_TEST_BUILDDIR:?}
cxx=${AORTA_TEST_CXX:-c++}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aorta-cxx.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
echo 'int main() { return 0; }' >"$tmp/probe.cc"
if ! $cxx -std=c++17 -o "$tmp/probe" "$tmp/probe.cc" >/dev/null 2>&1; then
    echo "no working C++ compiler ('$cxx'; Debian package g++): skipping"
    exit 77
fi
status=0
bad() { echo "FAIL: $1"; status=1; }
flags="-Wall -Wextra -Werror -I$srcdir/include"
echo '{ global: aorta_collector_cxxdemo_get; local: *; };' >"$tmp/cxxdemo.map"
mkdir "$tmp/c++11" "$tmp/c++17" "$tmp/c++20"

build() { # STD EXTRA_FLAGS...: cxxdemo.so in $tmp/STD
    std=$1
    shift
    # shellcheck disable=SC2086
    $cxx -std="$std" $flags "$@" -shared -fPIC -fvisibility=hidden -o "$tmp/$std/cxxdemo.so" \
        "$srcdir/tests/sdk/cxxdemo.cc" -Wl,--version-script="$tmp/cxxdemo.map" \
        -L"$builddir/core/libaorta/.libs" -laorta 2>"$tmp/err"
}
build c++20 -Wpedantic || bad "C++20 with -Wpedantic: $(head -5 "$tmp/err")"
build c++17 || bad "C++17: $(head -5 "$tmp/err")"
build c++11 || bad "C++11: $(head -5 "$tmp/err")"
for std in c++11 c++17 c++20; do
    exported=$(nm -D --defined-only "$tmp/$std/cxxdemo.so" | awk '{ print $3 }')
    [ "$exported" = aorta_collector_cxxdemo_get ] ||
        bad "$std: cxxdemo.so exports $(echo "$exported" | tr '\n' ' ')"
done
[ $status -eq 0 ] && echo "ok: cxxdemo.cc builds in C++20 (-Wpedantic), C++17 and C++11, exporting only its entry point"
# clang++ takes the same, where it is installed.
if command -v clang++ >/dev/null 2>&1; then
    mkdir "$tmp/clang"
    for std in c++20 c++17; do
        pedantic=
        [ $std = c++20 ] && pedantic=-Wpedantic
        # shellcheck disable=SC2086
        clang++ -std=$std $pedantic $flags -shared -fPIC -fvisibility=hidden -o "$tmp/clang/cxxdemo.so" \
            "$srcdir/tests/sdk/cxxdemo.cc" -L"$builddir/core/libaorta/.libs" -laorta 2>"$tmp/err" ||
            bad "clang++, $std: $(head -5 "$tmp/err")"
    done
    [ $status -eq 0 ] && echo "ok: clang++ builds it in C++20 (-Wpedantic) and C++17"
fi

aorta=$builddir/core/aorta-run
for std in c++17 c++20; do
    out=$("$aorta" --plugin-dir "$tmp/$std" --describe cxxdemo 2>&1)
    case $out in
    *"cxxdemo 1.0 (collector ABI 1.4, wrap rank 45)"*) ;;
    *) bad "$std: --describe cxxdemo: $out" ;;
    esac
    out=$("$aorta" --plugin-dir "$tmp/$std" --check-collector cxxdemo 2>&1) ||
        bad "$std: --check-collector cxxdemo failed: $out"
    case $out in *"cxxdemo: 0 violations"*) ;; *) bad "$std: --check-collector: $out" ;; esac
done
results=$tmp/results
"$aorta" --plugin-dir "$tmp/c++20" --collect cxxdemo --output "$results" -- \
    sh -c 'printf "a\nb\n" > "$CXXDEMO_DIR/x.cxx"; printf "c\n" > "$CXXDEMO_DIR/y.cxx"' \
    >"$tmp/run.out" 2>&1 || bad "a run with cxxdemo failed: $(cat "$tmp/run.out")"
trial=$results/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json
metrics=$(sed -n 's/.*"cxxdemo_\(lines[a-z_]*\)": *\([0-9.]*\).*/\1=\2/p' "$trial" 2>/dev/null | sort | tr '\n' ' ')
[ "$metrics" = "lines=3 lines_per_file=1.5 " ] ||
    bad "the trial's cxxdemo metrics are '$metrics', not lines=3 lines_per_file=1.5"
[ $status -eq 0 ] && echo "ok: it loads, keeps the contract and its metrics reach the trial"

# The rules the header states for C++.
cat >"$tmp/order.cc" <<'EOF'
#include "aorta/collector.h"
static int v(aorta_options_t *, aorta_error_t *) noexcept { return 0; }
AORTA_COLLECTOR_DEFINE(order, .validate = v, .version = "1")
EOF
# shellcheck disable=SC2086
if $cxx -std=c++20 $flags -c -o "$tmp/order.o" "$tmp/order.cc" 2>"$tmp/err"; then
    bad "C++20 accepts designators out of the struct's order"
else
    echo "ok: designators out of order are refused: $(grep -m1 -o 'designator order.*' "$tmp/err")"
fi
cat >"$tmp/target.cc" <<'EOF'
#include "aorta/collector.h"
void *use();
void *use() { return aorta_kernels_new(0); }
EOF
# shellcheck disable=SC2086
if $cxx -std=c++20 $flags -DAORTA_COLLECTOR_ABI_TARGET=0 -c -o "$tmp/target.o" "$tmp/target.cc" 2>"$tmp/err"; then
    bad "C++, TARGET 0: aorta_kernels_new (ABI 1.1) compiles"
elif ! grep -q "aorta_kernels_new.* is unavailable" "$tmp/err"; then
    bad "C++, TARGET 0: aorta_kernels_new fails otherwise: $(head -3 "$tmp/err")"
fi
cat >"$tmp/field.cc" <<'EOF'
#include "aorta/collector.h"
static const aorta_metric_spec_t rows[] = {{nullptr, nullptr, AORTA_BETTER_NONE, nullptr}};
AORTA_COLLECTOR_DEFINE(field, .version = "1", .metrics = rows)
EOF
# shellcheck disable=SC2086
if $cxx -std=c++20 $flags -DAORTA_COLLECTOR_ABI_TARGET=1 -c -o "$tmp/field.o" "$tmp/field.cc" 2>"$tmp/err"; then
    bad "C++, TARGET 1: .metrics (ABI 1.2) compiles"
fi
# shellcheck disable=SC2086
$cxx -std=c++20 $flags -c -o "$tmp/field.o" "$tmp/field.cc" 2>"$tmp/err" ||
    bad "C++: .metrics does not compile by default: $(head -3 "$tmp/err")"
[ $status -eq 0 ] && echo "ok: in C++ too, TARGET refuses newer functions and fields"
exit $status
