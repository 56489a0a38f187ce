#!/bin/sh
# SPDX-License-Identifier: MIT
# AORTA_COLLECTOR_ABI_TARGET 0 makes a module that a 1.0 aorta can load:
# tests/abi/target10.c, built with the current header for 1.0, needs from
# libaorta.so.0 only symbols of the version node AORTA_1.0 (its undefined
# aorta_* symbols and its version references, as objdump shows them), and
# it loads, every symbol bound, into a libaorta.so.0 that has only that
# node (tests/abi/aorta10/), which refuses a module built against 1.1.
# Needs objdump (binutils); skips (77) where it is missing.
set -u
if ! command -v objdump >/dev/null 2>&1; then
    echo "objdump not found (Debian package binutils): skipping"
    exit 77
fi
builddir=${AORTA_TEST_BUILDDIR:?}
abi=$builddir/tests/abi
status=0
bad() { echo "FAIL: $1"; status=1; }

# The version nodes a module requires from libaorta.so.0, one a line.
required() {
    objdump -p "$1" | awk '/^  required from / { lib = $3 } lib == "libaorta.so.0:" && $4 ~ /^AORTA_/ { print $4 }' | sort -u
}
# Each undefined aorta_* symbol with its version: "VERSION NAME".
undefined() {
    objdump -T "$1" | awk '$3 == "*UND*" && $NF ~ /^aorta_/ { v = $(NF - 1); gsub(/[()]/, "", v); print v, $NF }'
}

target=$abi/.libs/target10.so
[ -f "$target" ] || { echo "FAIL: $target was not built"; exit 1; }
symbols=$(undefined "$target")
count=$(printf '%s\n' "$symbols" | grep -c .)
[ "$count" -ge 8 ] || bad "target10.so has $count undefined aorta_* symbols, expected its 8 or more"
newer=$(printf '%s\n' "$symbols" | grep -v '^AORTA_1\.0 ')
[ -z "$newer" ] || bad "target10.so needs symbols newer than AORTA_1.0: $newer"
[ "$(required "$target")" = "AORTA_1.0" ] ||
    bad "target10.so requires the versions '$(required "$target" | tr '\n' ' ')' from libaorta.so.0, not AORTA_1.0 alone"
[ $status -eq 0 ] && echo "ok: target10.so needs only AORTA_1.0 ($count symbols)"

# The check tells the two apart: a module built against 1.1 needs AORTA_1.1.
required "$abi/.libs/legacy11.so" | grep -qx AORTA_1.1 ||
    bad "legacy11.so does not require AORTA_1.1: the version check above proves nothing"

# The 1.0 library really is one: it defines AORTA_1.0 and no later node.
old=$abi/aorta10/.libs
defined=$(objdump -p "$old/libaorta.so.0" | awk '/^Version definitions:/ { on = 1; next } on && NF == 0 { on = 0 } on && $NF ~ /^AORTA_/ { print $NF }' | sort -u)
[ "$defined" = "AORTA_1.0" ] || bad "aorta10/libaorta.so.0 defines '$defined', not AORTA_1.0 alone"

load() { # LIBDIR MODULE NAME
    LD_LIBRARY_PATH=$1 "$abi/load_module" "$abi/.libs/$2.so" "$2" 2>&1
}
for module in target10 legacy10; do
    got=$(load "$old" "$module")
    [ "$got" = "$module ABI 1.0" ] || bad "$module in a 1.0 libaorta: '$got'"
done
got=$(load "$old" legacy11)
case $got in
*"version \`AORTA_1.1' not found"*) echo "ok: a 1.0 libaorta refuses legacy11: $got" ;;
*) bad "a 1.0 libaorta loaded legacy11 or failed otherwise: '$got'" ;;
esac
current=$builddir/core/libaorta/.libs
for module in target10 legacy10 legacy11; do
    got=$(load "$current" "$module")
    case $module in legacy11) want="legacy11 ABI 1.1" ;; *) want="$module ABI 1.0" ;; esac
    [ "$got" = "$want" ] || bad "$module in today's libaorta: '$got'"
done
[ $status -eq 0 ] && echo "ok: target10 and legacy10 load into a 1.0 libaorta and today's"
exit $status
