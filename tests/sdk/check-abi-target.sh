#!/bin/sh
# SPDX-License-Identifier: MIT
# What include/aorta/collector.h promises of AORTA_COLLECTOR_ABI_TARGET,
# at compile time, for each minor T the header knows:
#   - AORTA_COLLECTOR_DEFINE stamps abi_minor T (the header's minor when
#     TARGET is not defined);
#   - every function of the version nodes AORTA_1.0 .. AORTA_1.T of
#     core/libaorta/libaorta.sym compiles, and each function of a later node
#     does not ("unavailable"), so the header's marks and the nodes agree;
#   - the fields of struct aorta_collector newer than T are not declared,
#     and the struct keeps its size;
#   - types and constants stay visible;
#   - an empty, negative or too new TARGET is an #error naming the macro.
# Uses $AORTA_TEST_CC (configure's CC), or cc.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cc=${AORTA_TEST_CC:-cc}
sym=$srcdir/core/libaorta/libaorta.sym
minor=$(sed -n 's/^#define AORTA_COLLECTOR_ABI_MINOR  *\([0-9]*\)$/\1/p' "$srcdir/include/aorta/collector.h")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aorta-target.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
bad() { echo "FAIL: $1"; status=1; }

# compile TARGET FILE [extra flags]: 0 when it compiles; messages in $tmp/err.
compile() {
    target=$1
    file=$2
    shift 2
    define=
    [ "$target" = default ] || define="-DAORTA_COLLECTOR_ABI_TARGET=$target"
    # shellcheck disable=SC2086
    $cc -std=gnu11 -Wall -Wextra -Werror $define -I"$srcdir/include" "$@" -c "$file" \
        -o "$tmp/out.o" 2>"$tmp/err"
}
node() { # N: the names of version node AORTA_1.N
    sed -n "/^AORTA_1\\.$1 {/,/^}/p" "$sym" | grep -o 'aorta_[a-z0-9_]*'
}
uses() { # NAME...: a unit that takes each function's address
    echo '#include "aorta/collector.h"'
    echo 'typedef void (*any_fn)(void);'
    echo 'extern const any_fn used[];'
    printf 'const any_fn used[] = {'
    for name in "$@"; do printf '(any_fn)&%s, ' "$name"; done
    echo '0};'
}

[ -n "$minor" ] || { echo "FAIL: no AORTA_COLLECTOR_ABI_MINOR in the header"; exit 1; }
[ "$(node "$minor" | grep -c .)" -gt 0 ] || bad "libaorta.sym has no node AORTA_1.$minor for the header's minor"

t=0
while [ $t -le "$minor" ]; do
    # Every function up to AORTA_1.t compiles.
    names=
    n=0
    while [ $n -le $t ]; do names="$names $(node $n)"; n=$((n + 1)); done
    # shellcheck disable=SC2086
    uses $names >"$tmp/ok.c"
    compile $t "$tmp/ok.c" || bad "TARGET $t: a function of AORTA_1.0..1.$t does not compile: $(head -3 "$tmp/err")"
    # Each later function does not, as unavailable.
    n=$((t + 1))
    refused=0
    while [ $n -le "$minor" ]; do
        for name in $(node $n); do
            uses "$name" >"$tmp/new.c"
            if compile $t "$tmp/new.c"; then
                bad "TARGET $t: $name (AORTA_1.$n) compiles"
            elif ! grep -q "$name.* is unavailable: collector ABI 1\\.$n, newer than AORTA_COLLECTOR_ABI_TARGET" "$tmp/err"; then
                bad "TARGET $t: $name fails otherwise: $(head -3 "$tmp/err")"
            else
                refused=$((refused + 1))
            fi
        done
        n=$((n + 1))
    done
    echo "ok: TARGET $t: AORTA_1.0..1.$t compile, $refused later functions are unavailable"
    t=$((t + 1))
done

# clang marks them the same way, where it is installed.
if command -v clang >/dev/null 2>&1; then
    uses aorta_kernels_new >"$tmp/new.c"
    own_cc=$cc
    cc=clang
    compile 0 "$tmp/new.c"
    clang_status=$?
    cc=$own_cc
    if [ $clang_status -eq 0 ]; then
        bad "clang, TARGET 0: aorta_kernels_new compiles"
    elif grep -q "aorta_kernels_new.* is unavailable: collector ABI 1\.1" "$tmp/err"; then
        echo "ok: clang, TARGET 0: aorta_kernels_new is unavailable"
    else
        bad "clang, TARGET 0: aorta_kernels_new fails otherwise: $(head -3 "$tmp/err")"
    fi
fi

# The stamp, from a program that prints its own description's minor.
cat >"$tmp/stamp.c" <<'EOF'
#include <stdio.h>
#include "aorta/collector.h"
AORTA_COLLECTOR_DEFINE(probe, .version = "1")
int main(void)
{
    printf("%u.%u\n", aorta_collector_probe_get()->abi_major, aorta_collector_probe_get()->abi_minor);
    return 0;
}
EOF
for target in $(seq 0 "$minor") default; do
    want=1.$target
    [ $target = default ] && want=1.$minor
    if compile $target "$tmp/stamp.c" && $cc -o "$tmp/stamp" "$tmp/out.o" 2>"$tmp/err"; then
        got=$("$tmp/stamp")
        [ "$got" = "$want" ] && echo "ok: TARGET $target stamps $got" || bad "TARGET $target stamps $got, not $want"
    else
        bad "TARGET $target: the stamp program does not build: $(head -3 "$tmp/err")"
    fi
done

# Fields: each exists from its minor on; the struct's size never changes.
field() { # FIELD: a unit that sets it, and one that measures the struct
    cat <<EOF
#include "aorta/collector.h"
extern const struct aorta_collector c;
const struct aorta_collector c = {.name = "x", .$1 = 0};
extern const char size_probe[sizeof(struct aorta_collector)];
const char size_probe[sizeof(struct aorta_collector)] = {0};
EOF
}
size_of() { nm -S "$tmp/out.o" | awk '$4 == "size_probe" { print $2 }'; }
expect_field() { # TARGET FIELD yes|no
    field "$2" >"$tmp/field.c"
    if compile "$1" "$tmp/field.c"; then
        [ "$3" = yes ] || bad "TARGET $1: .$2 is declared"
        size=$(size_of)
        [ -z "${struct_size:-}" ] && struct_size=$size
        [ "$size" = "$struct_size" ] || bad "TARGET $1: struct aorta_collector is $size bytes, not $struct_size"
    else
        [ "$3" = no ] || bad "TARGET $1: .$2 does not compile: $(head -3 "$tmp/err")"
        grep -q "$2" "$tmp/err" || bad "TARGET $1: .$2 fails otherwise: $(head -3 "$tmp/err")"
    fi
}
expect_field default metrics yes
expect_field 2 queue_interceptor_why yes
expect_field 1 queue_interceptor_why yes
expect_field 1 metrics no
expect_field 0 queue_interceptor_why no
expect_field 0 metrics no
expect_field 0 queue_interceptor yes
[ $status -eq 0 ] && echo "ok: newer fields are absent under an older TARGET; the struct is $((0x$struct_size)) bytes under each"

# Types and constants of later minors stay visible.
cat >"$tmp/types.c" <<'EOF'
#include "aorta/collector.h"
extern aorta_kernels_t *kernels;
aorta_kernels_t *kernels;
extern const aorta_metric_spec_t row;
const aorta_metric_spec_t row = {"x_y", "ms", AORTA_BETTER_LOWER, NULL};
extern const unsigned flag;
const unsigned flag = AORTA_KERNELS_SUM_COMPENSATED;
EOF
compile 0 "$tmp/types.c" && echo "ok: TARGET 0 sees the later types and constants" ||
    bad "TARGET 0 hides a type or constant: $(head -3 "$tmp/err")"

# A TARGET the header cannot build for.
echo '#include "aorta/collector.h"' >"$tmp/plain.c"
for target in -1 $((minor + 1)) 99 ''; do
    if compile "$target" "$tmp/plain.c"; then
        bad "TARGET '$target' compiles"
    elif grep -q '#error "AORTA_COLLECTOR_ABI_TARGET ' "$tmp/err"; then
        echo "ok: TARGET '$target': $(grep -o '#error.*' "$tmp/err" | head -1)"
    else
        bad "TARGET '$target' fails without the header's #error: $(head -3 "$tmp/err")"
    fi
done
exit $status
